#include "experiments/abc471g/cpu/common.hpp"

namespace joseki::abc471g::cpu {

const KernelSet& kernel_set(joseki::cpu::SimdLevel level) {
  const auto best = joseki::cpu::cpu_features().best();
  if (!joseki::cpu::cpu_features().has(level)) level = best;
  switch (level) {
#if defined(__x86_64__)
    case joseki::cpu::SimdLevel::Avx512: return kernels_avx512();
    case joseki::cpu::SimdLevel::Avx2: return kernels_avx2();
#endif
#if defined(__aarch64__)
    case joseki::cpu::SimdLevel::Neon: return kernels_neon();
#endif
    default: break;  // scalar, or a level this architecture does not have (best() never names one)
  }
  return kernels_scalar();
}

Solver simd_solver(const char* name, const char* description, int order, LevelSolveFn solve) {
  return Solver{name, description, false, order,
                [solve](const Problem& p, const SolveOptions& o) { return solve(p, o, joseki::cpu::simd_level()); }};
}

int thread_count(int threads) { return threads > 0 ? threads : joseki::cpu::ThreadPool::global().size(); }

joseki::cpu::ThreadPool& pool_for(int threads, std::unique_ptr<joseki::cpu::ThreadPool>& holder) {
  auto& g = joseki::cpu::ThreadPool::global();
  if (threads <= 0 || threads == g.size()) return g;
  holder = std::make_unique<joseki::cpu::ThreadPool>(threads);
  return *holder;
}

std::uint64_t state_at(const Problem& p, std::uint64_t i) {
  return i <= p.m() ? p.seed : lcg_jump(p.seed, i - p.m());
}

std::uint64_t fill(const Problem& p, const KernelSet& ks, std::uint64_t i, std::size_t n, std::uint64_t state,
                   std::uint32_t stride, std::uint32_t* out) {
  const std::uint64_t m = p.m();
  std::size_t j = 0;
  for (; j < n && i + j < m; ++j) {
    const std::uint32_t a = p.b[i + j];
    out[j] = stride ? (a & 7u) * stride + (a >> 3) : a;
  }
  if (j == n) return state;
  if (p.k == 1) {  // every value is 0
    const std::uint64_t steps = n - j;
    for (; j < n; ++j) out[j] = 0;
    return lcg_jump(state, steps);
  }
  return ks.gen(state, n - j, p.k, stride, out + j);
}

}  // namespace joseki::abc471g::cpu
