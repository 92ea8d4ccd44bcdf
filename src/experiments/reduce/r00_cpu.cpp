// r00 (CPU baselines): cpu_one_core and cpu_all_cores, and the reference.
// What they are: the seed's CPU baseline (one core, auto-vectorised: ~2-3 ms for 2^24 on an
//   Apple M4) and the same loop on every core with the thread pool. The SIMD level is chosen
//   at run time (JOSEKI_SIMD lowers it); each level is the same C++ loop compiled for that
//   target, so the compiler's auto-vectorisation is what is measured.
// Prediction: one core is bound by one core's memory bandwidth (~10-20 GB/s); all cores by
//   the socket's (~100+ GB/s on a server), both far below the GPU.
// H200 host (2026-11-30 tour, results/h200/2026-11-30-tour; 16 logical CPUs, AVX-512), cold, 2^20 /
//   2^24 / 2^28: cpu_one_core 324.05 us / 5.767 ms / 88.61 ms (12.9 / 11.6 / 12.1 GB/s),
//   cpu_all_cores 116.74 us / 773.68 us / 8.938 ms (x one core 2.78 / 7.45 / 9.91; 120.1 GB/s at
//   2^28); x CUB at 2^24 0.004 / 0.028. As predicted. One core at 2^24: 5.767 ms cold, 3.000 ms
//   hot, vs the seed's M4 2-3 ms.
#include "experiments/reduce/cpu_sum.hpp"

#include <algorithm>
#include <vector>

#include "backend/cpu/parallel.hpp"

namespace joseki::reduce {

namespace {

[[gnu::always_inline]] inline std::uint32_t sum_loop(const std::uint32_t* p, std::size_t n) {
  std::uint32_t s = 0;
  for (std::size_t i = 0; i < n; ++i) s += p[i];  // unsigned: wraps mod 2^32, vectorisable
  return s;
}

#if defined(__x86_64__)
[[gnu::target("avx512f,avx512bw,avx512vl")]] std::uint32_t sum_avx512(const std::uint32_t* p, std::size_t n) {
  return sum_loop(p, n);
}
[[gnu::target("avx2")]] std::uint32_t sum_avx2(const std::uint32_t* p, std::size_t n) { return sum_loop(p, n); }
#endif
// The architecture's baseline: SSE2 on x86-64; on aarch64 NEON (part of the baseline), so Neon and
// Scalar are the same code there (the compiler's auto-vectorisation either way).
std::uint32_t sum_baseline(const std::uint32_t* p, std::size_t n) { return sum_loop(p, n); }

std::uint32_t sum_at(const std::uint32_t* p, std::size_t n, cpu::SimdLevel level) {
#if defined(__x86_64__)
  switch (level) {
    case cpu::SimdLevel::Avx512: return sum_avx512(p, n);
    case cpu::SimdLevel::Avx2: return sum_avx2(p, n);
    default: break;
  }
#else
  (void)level;
#endif
  return sum_baseline(p, n);
}

}  // namespace

std::uint32_t reference_sum(const std::uint32_t* p, std::size_t n) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < n; ++i) s += p[i];
  return static_cast<std::uint32_t>(s);
}

std::uint32_t sum_one_core(const std::uint32_t* p, std::size_t n, cpu::SimdLevel level) {
  // Never above what this CPU has, whatever the caller asks.
  if (!cpu::cpu_features().has(level)) level = cpu::cpu_features().best();
  return sum_at(p, n, level);
}

std::uint32_t sum_all_cores(const std::uint32_t* p, std::size_t n, cpu::SimdLevel level) {
  cpu::ThreadPool& pool = cpu::ThreadPool::global();
  constexpr std::size_t MIN_CHUNK = 1 << 14;  // 64 KiB: below this a task costs more than it sums
  const std::size_t tasks = std::clamp<std::size_t>(n / MIN_CHUNK, 1, static_cast<std::size_t>(pool.size()) * 4);
  const std::size_t chunk = ((n + tasks - 1) / tasks + 15) / 16 * 16;  // whole 64-byte lines per task
  std::vector<std::uint32_t> partial(tasks, 0);
  pool.parallel_for(static_cast<std::int64_t>(tasks), [&](std::int64_t t) {
    const std::size_t begin = static_cast<std::size_t>(t) * chunk;
    if (begin < n) partial[static_cast<std::size_t>(t)] = sum_one_core(p + begin, std::min(chunk, n - begin), level);
  });
  std::uint32_t s = 0;
  for (std::uint32_t v : partial) s += v;
  return s;
}

}  // namespace joseki::reduce
