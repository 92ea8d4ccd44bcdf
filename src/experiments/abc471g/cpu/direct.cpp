// cpu-direct: host side (bank, tasks, threads, flush). The kernels are in kernels_*.cpp.
#include "experiments/abc471g/cpu/direct.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "experiments/abc471g/cpu/aligned.hpp"
#include "experiments/abc471g/cpu/common.hpp"
#include "experiments/abc471g/gpu_pairs/progress.hpp"

namespace joseki::abc471g::cpu {
namespace {

using Clock = std::chrono::steady_clock;
double secs(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

constexpr std::size_t BUF = 2048;  // elements generated per block (a multiple of every group)
static_assert(BUF % MAX_GROUP == 0);

// 8 copies of the bit string D (D bit x = V[x mod K]), copy s holding D shifted down by s bits,
// then one zero copy. The lane word for lanes [l, l + W) at value a is the W bits at byte
// (a >> 3) + l / 8 of copy (a & 7): one unaligned load.
struct Bank {
  AlignedBytes mem;
  std::uint32_t stride = 0;    // bytes per copy
  std::uint32_t zero_off = 0;  // offset of the zero copy ("before the first element")
};

Bank make_bank(const Problem& p, std::uint32_t lanes) {
  Bank b;
  b.stride = static_cast<std::uint32_t>(((p.k + lanes) / 8 + 16 + 63) / 64 * 64);
  b.mem = AlignedBytes(static_cast<std::size_t>(b.stride) * 9);
  b.zero_off = 8 * b.stride;
  std::vector<std::uint8_t> d(static_cast<std::size_t>(b.stride) * 8 + 8);
  for (std::size_t x = 0, r = 0; x < d.size(); ++x) {
    d[x] = p.v[r];
    if (++r == p.k) r = 0;
  }
  for (std::uint32_t s = 0; s < 8; ++s)
    for (std::uint32_t j = 0; j < b.stride; ++j) {
      std::uint8_t byte = 0;
      for (std::uint32_t t = 0; t < 8; ++t) byte |= static_cast<std::uint8_t>(d[8 * j + s + t] << t);
      b.mem.data()[s * b.stride + j] = byte;
    }
  return b;
}

// Lanes [0, K) as full vectors of ks.vbits lanes, then possibly one narrower vector (AVX-512: a
// 256-lane tail when K mod 512 <= 256, so K = 2300 runs 4 x 512 + 256 lanes, not 5 x 512).
struct Plan {
  const Problem& p;
  const KernelSet& ks;
  std::uint32_t nfull = 0;  // full vectors
  bool half = false;        // one vector of ks.half_vbits lanes after them
  int sw = 0;               // state words per vector
  int group = 0;            // elements per tree
  std::uint32_t lanes() const { return nfull * ks.vbits + (half ? ks.half_vbits : 0); }
  std::size_t state_bytes() const {
    return static_cast<std::size_t>(sw) * (nfull * ks.vbits + (half ? ks.half_vbits : 0)) / 8;
  }
};

Plan make_plan(const Problem& p, const KernelSet& ks) {
  Plan pl{p, ks};
  const std::uint32_t rem = p.k % ks.vbits;
  pl.half = ks.half_vbits && rem != 0 && rem <= ks.half_vbits;
  pl.nfull = pl.half ? p.k / ks.vbits : (p.k + ks.vbits - 1) / ks.vbits;
  pl.sw = direct_state_words(ks.levels);
  pl.group = direct_group(ks.levels);
  return pl;
}

struct TaskOut {
  std::vector<std::uint64_t> counts;
  double gen_s = 0, count_s = 0;
};

void run_task(const Plan& pl, const Bank& bk, std::uint64_t i0, std::uint64_t i1, TaskOut& out,
              ::joseki::abc471g::pairs::ProgressTicker& progress) {
  const Problem& p = pl.p;
  const std::uint32_t vb = pl.ks.vbits / 8, hb = pl.ks.half_vbits / 8;
  const std::size_t vec_state = static_cast<std::size_t>(pl.sw) * vb;
  AlignedBytes state(pl.state_bytes());
  std::uint8_t* half_state = state.data() + pl.nfull * vec_state;
  const std::uint8_t* bank = bk.mem.data();
  const std::uint32_t stride = bk.stride;

  // prev = the lane words of A_{i0-1}, or zero before the first element.
  std::uint32_t prev_off = bk.zero_off;
  if (i0 > 0) {
    std::uint32_t a = 0;
    generate(p, i0 - 1, 1, &a);
    prev_off = (a & 7u) * stride + (a >> 3);
  }
  for (std::uint32_t v = 0; v < pl.nfull; ++v) std::memcpy(state.data() + v * vec_state, bank + prev_off + v * vb, vb);
  if (pl.half) std::memcpy(half_state, bank + prev_off + pl.nfull * vb, hb);

  std::vector<std::uint32_t> offs(BUF);
  std::uint64_t gs = state_at(p, i0);
  for (std::uint64_t i = i0; i < i1;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(BUF, i1 - i));
    const auto t0 = Clock::now();
    gs = fill(p, pl.ks, i, n, gs, stride, offs.data());
    // Pad to a whole tree with copies of the last element: a repeated element never rises.
    const std::size_t g = static_cast<std::size_t>(pl.group);
    const std::size_t padded = (n + g - 1) / g * g;
    std::fill(offs.begin() + static_cast<std::ptrdiff_t>(n), offs.begin() + static_cast<std::ptrdiff_t>(padded),
              offs[n - 1]);
    const auto t1 = Clock::now();
    for (std::uint32_t v = 0; v < pl.nfull; v += static_cast<std::uint32_t>(pl.ks.tile)) {
      const int tl = static_cast<int>(std::min<std::uint32_t>(static_cast<std::uint32_t>(pl.ks.tile), pl.nfull - v));
      pl.ks.direct[tl](bank + v * vb, offs.data(), padded / 2, state.data() + v * vec_state);
    }
    if (pl.half) pl.ks.direct_half(bank + pl.nfull * vb, offs.data(), padded / 2, half_state);
    const auto t2 = Clock::now();
    out.gen_s += secs(t0, t1);
    out.count_s += secs(t1, t2);
    i += n;
    progress.add(n);
  }

  // Flush: state word w >= 1 (levels, then slices) has weight 2^(w-1) in every lane.
  out.counts.assign(p.k, 0);
  auto flush = [&](const std::uint8_t* vstate, std::uint32_t bytes, std::uint64_t lane0) {
    for (int w = 1; w < pl.sw; ++w) {
      const std::uint64_t weight = 1ULL << (w - 1);
      const std::uint8_t* word = vstate + static_cast<std::size_t>(w) * bytes;
      for (std::uint32_t c = 0; c < bytes / 8; ++c) {
        std::uint64_t x;
        std::memcpy(&x, word + 8 * c, 8);
        while (x) {
          const std::uint64_t lane = lane0 + 64 * c + static_cast<unsigned>(__builtin_ctzll(x));
          if (lane < p.k) out.counts[lane] += weight;
          x &= x - 1;
        }
      }
    }
  };
  for (std::uint32_t v = 0; v < pl.nfull; ++v)
    flush(state.data() + v * vec_state, vb, static_cast<std::uint64_t>(v) * pl.ks.vbits);
  if (pl.half) flush(half_state, hb, static_cast<std::uint64_t>(pl.nfull) * pl.ks.vbits);
}

}  // namespace

SolveResult solve_direct(const Problem& p, const SolveOptions& opt, joseki::cpu::SimdLevel level) {
  const auto t0 = Clock::now();
  const KernelSet& ks = kernel_set(level);
  const Plan plan = make_plan(p, ks);
  const Bank bank = make_bank(p, plan.lanes());

  std::unique_ptr<joseki::cpu::ThreadPool> holder;
  joseki::cpu::ThreadPool& pool = pool_for(opt.threads, holder);
  const int threads = pool.size();
  // Time-direction tasks: a few per thread for balance, none shorter than 32768 elements.
  const std::uint64_t tasks =
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(static_cast<std::uint64_t>(threads) * 4, p.n / 32768));
  std::vector<TaskOut> outs(tasks);
  const auto t1 = Clock::now();
  ::joseki::abc471g::pairs::ProgressTicker progress("cpu-direct: N = " + std::to_string(p.n), p.n);
  pool.parallel_for(static_cast<std::int64_t>(tasks), [&](std::int64_t t) {
    const auto ut = static_cast<std::uint64_t>(t);
    const std::uint64_t q = p.n / tasks, r = p.n % tasks;
    const std::uint64_t i0 = q * ut + std::min(ut, r), i1 = i0 + q + (ut < r ? 1 : 0);
    run_task(plan, bank, i0, i1, outs[static_cast<std::size_t>(t)], progress);
  });
  const auto t2 = Clock::now();
  SolveResult res;
  res.answer.assign(p.k, 0);
  double gen = 0, cnt = 0;
  for (const TaskOut& o : outs) {
    for (std::uint32_t k = 0; k < p.k; ++k) res.answer[k] += o.counts[k];
    gen += o.gen_s;
    cnt += o.count_s;
  }
  const auto t3 = Clock::now();
  // Generation and counting interleave on every thread: the wall time of the parallel part is
  // split between the two phases by the threads' time shares.
  const double par = secs(t1, t2), share = gen + cnt > 0 ? gen / (gen + cnt) : 0;
  res.solver = "cpu-direct";
  res.phases_s["setup"] = secs(t0, t1);
  res.phases_s["generate"] = par * share;
  res.phases_s["count"] = par * (1 - share);
  res.phases_s["combine"] = secs(t2, t3);
  res.explanation = "cpu-direct: " + std::string(ks.name) + ", " + std::to_string(plan.nfull) + " x " +
                    std::to_string(ks.vbits) + (plan.half ? " + " + std::to_string(ks.half_vbits) : std::string()) +
                    " lanes for K = " + std::to_string(p.k) + ", tiles of " + std::to_string(ks.tile) +
                    ", carry-save tree depth " + std::to_string(ks.levels) + ", " + std::to_string(tasks) +
                    " time-direction tasks on " + std::to_string(threads) + " threads";
  return res;
}

namespace {
const SolverRegistrar reg{simd_solver("cpu-direct",
                                      "the seed's direct method: 64/256/512 lanes per word (scalar/AVX2/AVX-512 at "
                                      "run time; 128 with NEON on arm64), fused rises, carry-save bit-sliced "
                                      "counters, all cores",
                                      20, solve_direct)};
}  // namespace

}  // namespace joseki::abc471g::cpu
