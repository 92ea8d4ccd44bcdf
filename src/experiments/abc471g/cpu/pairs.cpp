// cpu-pairs: counting the adjacent pairs (parallel, jump-ahead), then combine_fft.
#include "experiments/abc471g/cpu/pairs.hpp"

#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "experiments/abc471g/cpu/common.hpp"
#include "experiments/abc471g/cpu/fft_combine.hpp"
#include "experiments/abc471g/gpu_pairs/progress.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::cpu {

namespace {

using Clock = std::chrono::steady_clock;
double secs(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

constexpr std::size_t BUF = 4096;
// A 32-bit counter cannot overflow within a piece of at most this many pairs.
constexpr std::uint64_t PIECE = 0xFFFFFFFFULL;

}  // namespace

PairTable count_pairs(const Problem& p, int threads_req, joseki::cpu::SimdLevel level, PairCountStats& st) {
  const std::uint32_t k = p.k;
  if (k > PAIRS_MAX_K)
    throw InputError("cpu-pairs: K = " + std::to_string(k) + " is above its maximum " + std::to_string(PAIRS_MAX_K) +
                     " (K^2 pair counters); use --solver cpu-direct");
  const KernelSet& ks = kernel_set(level);
  const std::uint64_t kk = static_cast<std::uint64_t>(k) * k;

  std::unique_ptr<joseki::cpu::ThreadPool> holder;
  joseki::cpu::ThreadPool& pool = pool_for(threads_req, holder);
  // Threads that count: one table each, within the memory budget; never more than the pairs.
  const std::uint64_t pairs = p.n - 1;
  std::uint64_t t = std::max<std::uint64_t>(1, std::min<std::uint64_t>(pool.size(), PAIRS_TABLE_BUDGET / (kk * 4)));
  t = std::max<std::uint64_t>(1, std::min<std::uint64_t>(t, pairs / 65536 + 1));
  st.threads = static_cast<int>(t);

  PairTable table;
  table.k = k;
  table.row_stride = 2 * (k / 2 + 1);
  const std::size_t doubles = static_cast<std::size_t>(k) * table.row_stride;
  table.mem = HugeBuffer(doubles * sizeof(double));
  table.data = table.mem.as<double>();
  generate(p, 0, 1, &table.first);

  std::vector<HugeBuffer> tabs(t);
  std::vector<double> gen_s(t, 0), cnt_s(t, 0);
  std::mutex merge_mu;
  const auto t0 = Clock::now();
  // Range of pair indices i in [1, N) for task j: pair i = (A_{i-1}, A_i).
  auto range = [&](std::uint64_t j) {
    const std::uint64_t q = pairs / t, r = pairs % t;
    const std::uint64_t lo = 1 + q * j + std::min(j, r);
    return std::pair{lo, lo + q + (j < r ? 1 : 0)};
  };
  // The shared table comes zeroed from mmap; each thread's table too.
  ::joseki::abc471g::pairs::ProgressTicker progress("cpu-pairs: N = " + std::to_string(p.n), pairs);
  if (pairs > 0) pool.parallel_for(static_cast<std::int64_t>(t), [&](std::int64_t j) {
    const auto [lo, hi] = range(static_cast<std::uint64_t>(j));
    auto& tab = tabs[static_cast<std::size_t>(j)];
    tab = HugeBuffer(kk * sizeof(std::uint32_t));
    std::uint32_t* c = tab.as<std::uint32_t>();
    std::vector<std::uint32_t> vals(BUF);
    std::uint32_t prev = 0;
    generate(p, lo - 1, 1, &prev);
    std::uint64_t gs = state_at(p, lo);
    std::uint64_t piece = 0;
    for (std::uint64_t i = lo; i < hi;) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>({BUF, hi - i, PIECE - piece}));
      const auto a0 = Clock::now();
      gs = fill(p, ks, i, n, gs, 0, vals.data());
      const auto a1 = Clock::now();
      std::uint32_t row = prev * k;
      for (std::size_t x = 0; x < n; ++x) {
        const std::uint32_t a = vals[x];
        ++c[row + a];
        row = a * k;
      }
      prev = vals[n - 1];
      const auto a2 = Clock::now();
      gen_s[static_cast<std::size_t>(j)] += secs(a0, a1);
      cnt_s[static_cast<std::size_t>(j)] += secs(a1, a2);
      i += n;
      piece += n;
      progress.add(n);
      if (piece == PIECE && i < hi) {  // only for N beyond ~4e9 per thread: fold into the shared table
        std::lock_guard lk(merge_mu);
        for (std::uint64_t e = 0; e < kk; ++e)
          table.data[(e / k) * table.row_stride + e % k] += static_cast<double>(c[e]);
        std::fill(c, c + kk, 0u);
        piece = 0;
      }
    }
  });
  const auto t1 = Clock::now();
  // Merge the thread tables by row blocks, in parallel; collect the max and the sum of squares.
  const std::int64_t blocks = std::min<std::int64_t>(k, static_cast<std::int64_t>(pool.size()) * 4);
  std::vector<double> maxes(static_cast<std::size_t>(blocks), 0);
  std::vector<double> sqs(static_cast<std::size_t>(blocks), 0);
  pool.parallel_for(blocks, [&](std::int64_t bj) {
    const std::uint32_t r0 = static_cast<std::uint32_t>(static_cast<std::int64_t>(k) * bj / blocks);
    const std::uint32_t r1 = static_cast<std::uint32_t>(static_cast<std::int64_t>(k) * (bj + 1) / blocks);
    double mx = 0;
    double sq = 0;
    for (std::uint32_t a = r0; a < r1; ++a) {
      double* row = table.data + a * table.row_stride;
      for (const auto& tab : tabs) {
        if (!tab.as<std::uint32_t>()) continue;
        const std::uint32_t* c = tab.as<std::uint32_t>() + static_cast<std::size_t>(a) * k;
        for (std::uint32_t b = 0; b < k; ++b) row[b] += static_cast<double>(c[b]);
      }
      for (std::uint32_t b = 0; b < k; ++b) {
        mx = std::max(mx, row[b]);
        sq += row[b] * row[b];
      }
    }
    maxes[static_cast<std::size_t>(bj)] = mx;
    sqs[static_cast<std::size_t>(bj)] = sq;
  });
  for (const double m : maxes) table.max_count = std::max(table.max_count, m);
  for (const double s : sqs) table.sum_sq += s;
  const auto t2 = Clock::now();
  // Generation and counting interleave: split the wall time of the parallel part by time shares.
  double g = 0, c = 0;
  for (std::size_t j = 0; j < t; ++j) {
    g += gen_s[j];
    c += cnt_s[j];
  }
  const double par = secs(t0, t1), share = g + c > 0 ? g / (g + c) : 0;
  st.generate_s = par * share;
  st.count_s = par * (1 - share);
  st.merge_s = secs(t1, t2);
  return table;
}

SolveResult solve_pairs(const Problem& p, const SolveOptions& opt, joseki::cpu::SimdLevel level) {
  PairCountStats st;
  PairTable table = count_pairs(p, opt.threads, level, st);
  const auto t0 = Clock::now();
  std::unique_ptr<joseki::cpu::ThreadPool> holder;
  joseki::cpu::ThreadPool& pool = pool_for(opt.threads, holder);
  CombineReport rep;
  const std::vector<std::uint64_t> r = combine_fft(table, p.v, pool, rep);
  SolveResult res;
  res.answer.resize(p.k);
  for (std::uint32_t k = 0; k < p.k; ++k) {
    const std::uint32_t idx = table.first + k < p.k ? table.first + k : table.first + k - p.k;
    res.answer[k] = p.v[idx] + r[k];
  }
  const auto t1 = Clock::now();
  res.solver = "cpu-pairs";
  res.phases_s["generate"] = st.generate_s;
  res.phases_s["count"] = st.count_s + st.merge_s;
  res.phases_s["combine"] = secs(t0, t1);
  res.explanation = "cpu-pairs: " + std::string(kernel_set(level).name) + " generation, K^2 = " +
                    std::to_string(static_cast<std::uint64_t>(p.k) * p.k) + " pair counters on " +
                    std::to_string(st.threads) + " threads (merge " + std::to_string(st.merge_s * 1e3) +
                    " ms), FFTW combine: " + rep.summary();
  return res;
}

namespace {
const SolverRegistrar reg{simd_solver("cpu-pairs",
                                      "the editorial's formulation: adjacent pair counts (all cores, jump-ahead), "
                                      "then one 2-D FFT correlation (FFTW, exact by rounding, checked); K <= 8192",
                                      30, solve_pairs)};
}  // namespace

}  // namespace joseki::abc471g::cpu
