// gpu-pairs without a GPU: the kernels' arithmetic and index maps (pairs_math.hpp) run on the
// host against plain definitions and brute force; the tensor-core combine's fragment layout is
// emulated lane by lane; the multi-GPU split; the cost model; the progress bar; start-up helpers.
#include <gtest/gtest.h>

#include "../rungs/pairs_test_rungs.hpp"  // the gpu-pairs test-only rungs: tests/rungs/pairs_rungs.def

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <set>
#include <tuple>

#include "backend/gpu.hpp"
#include "experiments/abc471g/cost/dispatch.hpp"
#include "experiments/abc471g/gpu_multi/multi.hpp"
#include "experiments/abc471g/gpu_multi/nccl.hpp"
#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/cost/costs.hpp"
#include "measure/launcher.hpp"
#include "experiments/abc471g/gpu_pairs/kinds.hpp"
#ifdef JOSEKI_HAVE_CUDA
#include "experiments/abc471g/gpu_pairs/kernels.hpp"  // lean_partition_tile_built, partition_tile_built
#endif
#include "experiments/abc471g/gpu_pairs/ladder.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/gpu_pairs/progress.hpp"
#include "experiments/abc471g/gpu_pairs/reference.hpp"
#include "experiments/abc471g/gpu_pairs/startup.hpp"
#include "experiments/abc471g/gpu_pairs/test_support.hpp"
#include "measure/errors.hpp"
#include "measure/ladder.hpp"

namespace {

namespace ab = joseki::abc471g;
namespace gp = joseki::abc471g::pairs;
using gp::testing::random_problem;

__extension__ typedef unsigned __int128 u128;

ab::Answer brute(const ab::Problem& p) { return ab::find_solver("brute").solve(p, {}).answer; }

TEST(Abc471gPairsMath, ConstantsMatchTheProblem) {
  EXPECT_EQ(gp::LCG_MUL, ab::kLcgMul);
  EXPECT_EQ(gp::LCG_INC, ab::kLcgInc);
}

TEST(Abc471gPairsMath, JumpTableMatchesLcgJump) {
  constexpr gp::JumpTable t = gp::make_jump_table();
  std::mt19937_64 g(1);
  const std::uint64_t ds[] = {0, 1, 2, 3, 63, 64, 1000, 7'000'000, (1ULL << 37) + 12345, 99'999'999'999ULL, ~0ULL};
  for (const std::uint64_t d : ds)
    for (int i = 0; i < 4; ++i) {
      const std::uint64_t s = g();
      EXPECT_EQ(gp::jump_with(t, s, d, 64), ab::lcg_jump(s, d)) << "d = " << d;
      EXPECT_EQ(gp::jump_with(t, s, d, gp::bit_length(d)), ab::lcg_jump(s, d)) << "d = " << d;
    }
}

TEST(Abc471gPairsMath, PcgAndFastModMatchTheDefinition) {
  std::mt19937_64 g(2);
  const std::uint32_t ks[] = {1, 2, 3, 7, 37, 2300, 4096, 65536, 1000003, 0x7FFFFFFFu, 0xFFFFFFFFu};
  for (const std::uint32_t k : ks) {
    const gp::FastMod fm = gp::make_fastmod(k);
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t s = g();
      if (k <= 65536) {
        EXPECT_EQ(gp::pcg_raw(s) % k, ab::pcg_value(s, k));
      }
      const std::uint32_t x = i < 4 ? std::uint32_t{0xFFFFFFFFu} - static_cast<std::uint32_t>(i) : static_cast<std::uint32_t>(g());
      ASSERT_EQ(gp::fastmod(x, fm), x % k) << "x = " << x << ", k = " << k;
    }
  }
  // A dense sweep of x (every 997th value and the top of the range) for K shapes of the problem.
  for (const std::uint32_t k : {3u, 2300u, 4093u, 65536u}) {
    const gp::FastMod fm = gp::make_fastmod(k);
    for (std::uint64_t x = 0; x <= 0xFFFFFFFFULL; x += x < 0xFFFF0000ULL ? 997 : 1)
      ASSERT_EQ(gp::fastmod(static_cast<std::uint32_t>(x), fm), x % k) << "x = " << x << ", k = " << k;
  }
}

// r16's lean generator: the PCG output from the halves, the LCG step on the halves and the one-product
// mod give the same values as the definitions, at random states, edge states and every K shape.
TEST(Abc471gPairsMath, LeanGeneratorMatchesTheDefinition) {
  std::mt19937_64 g(3);
  const std::uint64_t edges[] = {0, 1, ~0ULL, 1ULL << 63, (1ULL << 59) - 1, 1ULL << 45, (1ULL << 32) - 1, 1ULL << 32};
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t s = i < 8 ? edges[i] : g();
    const auto lo = static_cast<std::uint32_t>(s), hi = static_cast<std::uint32_t>(s >> 32);
    ASSERT_EQ(gp::pcg_raw_halves(lo, hi), gp::pcg_raw(s)) << "state " << s;
    std::uint32_t l2 = lo, h2 = hi;
    gp::lcg_step_halves(l2, h2);
    ASSERT_EQ((std::uint64_t{h2} << 32) | l2, s * gp::LCG_MUL + gp::LCG_INC) << "state " << s;
  }
  const std::uint32_t ks[] = {1, 2, 3, 7, 37, 127, 128, 2300, 2304, 4093, 4096, 16384, 65535, 65536, 1000003, 0x7FFFFFFFu};
  for (const std::uint32_t k : ks) {
    const gp::FastMod32 fm = gp::make_fastmod32(k);
    for (int i = 0; i < 20000; ++i) {
      const std::uint32_t edge[] = {0u, 0xFFFFFFFFu, k - 1, k, k + 1, 0xFFFFFFFFu / k * k, 0xFFFFFFFFu / k * k - 1};
      const std::uint32_t x = i < 7 ? edge[i] : static_cast<std::uint32_t>(g());
      ASSERT_EQ(gp::fastmod32(x, fm), x % k) << "x = " << x << ", k = " << k;
    }
  }
  for (const std::uint32_t k : {3u, 2300u, 4093u, 16384u}) {
    const gp::FastMod32 fm = gp::make_fastmod32(k);
    for (std::uint64_t x = 0; x <= 0xFFFFFFFFULL; x += x < 0xFFFF0000ULL ? 991 : 1)
      ASSERT_EQ(gp::fastmod32(static_cast<std::uint32_t>(x), fm), x % k) << "x = " << x << ", k = " << k;
  }
}

// The partition count's slices: every cell's slice from the multiply-high equals the division,
// for every cell of the table (brute force), sizes fit 16-bit offsets and 64 KiB of counters,
// and the histogram blocks spread over the SMs at least as evenly as 2^14-cell slices.
TEST(Abc471gPairsMath, SlicePlansAreExactAndBalanced) {
  for (const std::uint32_t sms : {1u, 7u, 114u, 132u})
    for (const std::uint32_t k : {1u, 100u, 129u, 1000u, 2300u, 3001u, 4096u}) {
      const std::uint32_t kp = gp::padded_k(k);
      const std::uint64_t cells = std::uint64_t{kp} * kp;
      const gp::SlicePlan pl = gp::plan_slices(cells, sms);
      ASSERT_EQ(pl.size % 4, 0u) << "K " << k << " SMs " << sms;
      ASSERT_LE(pl.size, gp::SLICE_MAX_CELLS);
      ASSERT_LE(pl.slices, gp::SLICE_MAX_COUNT);
      ASSERT_EQ(pl.slices, (cells + pl.size - 1) / pl.size);
      const std::uint64_t pow2 = (cells + gp::SLICE_MAX_CELLS - 1) / gp::SLICE_MAX_CELLS;
      EXPECT_LE((pl.slices + sms - 1) / sms * std::uint64_t{pl.size}, (pow2 + sms - 1) / sms * gp::SLICE_MAX_CELLS);
      if (sms == 132 || k == 4096) {  // brute force over every cell (up to 16.8 M)
        for (std::uint64_t c = 0; c < cells; ++c) {
          ASSERT_EQ(gp::umulhi32(static_cast<std::uint32_t>(c), pl.magic), c / pl.size)
              << "cell " << c << ", size " << pl.size << ", K " << k;
        }
      }
    }
  // The max case on the H200: 395 slices of 13,452 cells (3 per SM) instead of 324 of 16,384.
  const gp::SlicePlan h200 = gp::plan_slices(2304ULL * 2304, 132);
  EXPECT_EQ(h200.size, 13452u);
  EXPECT_EQ(h200.slices, 395u);
}

// Session 10's spreads (PairsConfig::slices_per_sm): exact multiply-high for every cell, offsets within 16
// bits and the given shared memory, about `per_sm` slices a SM, and no plan where none fits.
TEST(Abc471gPairsMath, SliceSpreadsAreExactAndFit) {
  for (const std::uint32_t sms : {1u, 20u, 132u})
    for (const std::uint32_t k : {1u, 300u, 2300u, 4096u})
      for (const std::uint32_t per_sm : {1u, 2u, 3u, 8u}) {
        const std::uint32_t kp = gp::padded_k(k);
        const std::uint64_t cells = std::uint64_t{kp} * kp;
        const std::uint32_t max_cells = 58'112;  // the H200's 227 KiB less 1 KiB, in 4-byte counters
        const gp::SlicePlan pl = gp::plan_slices_spread(cells, sms, per_sm, max_cells);
        const std::uint64_t want = (cells + std::uint64_t{sms} * per_sm - 1) / (std::uint64_t{sms} * per_sm);
        SCOPED_TRACE(::testing::Message() << "K " << k << " SMs " << sms << " per SM " << per_sm);
        if (want > max_cells) {
          EXPECT_EQ(pl.size, 0u) << "no plan can fit";
          continue;
        }
        ASSERT_GT(pl.size, 0u);
        ASSERT_EQ(pl.size % 4, 0u);
        ASSERT_GE(pl.size, want);
        ASSERT_LE(pl.size, max_cells);
        ASSERT_LE(pl.size, gp::SLICE_SPREAD_MAX_CELLS);
        ASSERT_EQ(pl.slices, (cells + pl.size - 1) / pl.size);
        ASSERT_LE(pl.slices, std::uint64_t{sms} * per_sm);
        if (sms == 132 && k == 2300)
          for (std::uint64_t c = 0; c < cells; ++c)
            ASSERT_EQ(gp::umulhi32(static_cast<std::uint32_t>(c), pl.magic), c / pl.size) << "cell " << c;
        else
          for (std::uint64_t c = 0; c < cells; c += 997)
            ASSERT_EQ(gp::umulhi32(static_cast<std::uint32_t>(c), pl.magic), c / pl.size) << "cell " << c;
      }
  // The max case on the H200: one slice a SM is 132 slices of 40,356 cells (158 KiB of counters), two 263 of
  // 20,208; no spread at all, or a block's shared memory below one slice, has no plan.
  const gp::SlicePlan one = gp::plan_slices_spread(2304ULL * 2304, 132, 1, 58'112);
  EXPECT_EQ(one.size, 40'356u);
  EXPECT_EQ(one.slices, 132u);
  const gp::SlicePlan two = gp::plan_slices_spread(2304ULL * 2304, 132, 2, 58'112);
  EXPECT_EQ(two.size, 20'208u);
  EXPECT_EQ(two.slices, 263u);
  EXPECT_EQ(gp::plan_slices_spread(2304ULL * 2304, 132, 0, 58'112).size, 0u);
  EXPECT_EQ(gp::plan_slices_spread(2304ULL * 2304, 132, 1, 40'000).size, 0u);
  EXPECT_EQ(gp::plan_slices_spread(2304ULL * 2304, 132, 1, 1u << 20).size, 40'356u) << "capped at 2^16, fits";
}

// r64: the runs in whole warps: every pair in exactly one run, each group a whole number of warps except the tail's last,
// one wave, the short runs shorter than `run`; the max case's plan on the H200 by hand.
TEST(Abc471gPairsMath, RunPlansAreWholeWarps) {
  std::mt19937_64 g(64);
  int planned = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t resident = 32 * (1 + g() % 6000), run = 2 + g() % 80;
    const std::uint64_t pairs = 1 + g() % (resident * run + 1);
    const std::uint64_t given = g() % 3 == 0 ? 0 : g() % std::min<std::uint64_t>(pairs, 200'000);
    const gp::RunPlan p = gp::plan_runs(pairs, given, run, resident);
    if (p.full_threads == 0 && p.given_threads == 0 && p.tail_threads == 0) continue;
    ++planned;
    EXPECT_EQ(p.given_threads % 32, 0u);
    EXPECT_EQ(p.full_threads % 32, 0u);
    EXPECT_LE(p.given_threads + p.full_threads + (p.tail_threads + 31) / 32 * 32, resident) << "one wave, whole warps";
    EXPECT_GE(p.run, run);
    EXPECT_LE(p.run, run + run / 64) << "a run grows by at most 1/64";
    EXPECT_LT(p.given_run, p.run);
    EXPECT_LT(p.tail_run, p.run);
    EXPECT_GE(p.given_threads * p.given_run, given) << "the given pairs in the short runs";
    if (given == 0) {
      EXPECT_EQ(p.given_threads, 0u);
    }
    EXPECT_GT(p.full_threads, 0u);
    const std::uint64_t before_tail = p.given_threads * p.given_run + p.full_threads * p.run;
    ASSERT_LE(before_tail, pairs);
    EXPECT_EQ(p.tail_threads == 0, before_tail == pairs);
    if (p.tail_threads > 0) {
      EXPECT_GE(p.tail_threads * p.tail_run, pairs - before_tail) << "every pair in a run";
      EXPECT_LT((p.tail_threads - 1) * p.tail_run, pairs - before_tail) << "no empty tail thread";
    }
  }
  EXPECT_GT(planned, 1000);
  EXPECT_EQ(gp::plan_runs(100, 0, 1, 1024).full_threads, 0u) << "runs of one pair: no plan";
  EXPECT_EQ(gp::plan_runs(100, 100, 4, 1024).full_threads, 0u) << "every pair given: no plan";
  // The max case on the H200: 6,999,999 pairs, 99,999 given, runs of 52, 135,168 threads. The full runs take 132,672
  // threads (4146 warps), leaving 78 warps: 77 for the given pairs (runs of 41) and 1 for the 31 last pairs (runs of 1).
  const gp::RunPlan h = gp::plan_runs(6'999'999, 99'999, 52, 132 * 4 * 256);
  EXPECT_EQ(h.full_threads, 132'672u);
  EXPECT_EQ(h.given_threads, 2464u);
  EXPECT_EQ(h.given_run, 41u);
  EXPECT_EQ(h.tail_run, 1u);
  EXPECT_EQ(h.tail_threads, 31u);
  // Without given values (M = 1): 134,592 full threads, the 1215 last pairs over 18 warps in runs of 3.
  const gp::RunPlan m1 = gp::plan_runs(6'999'999, 0, 52, 132 * 4 * 256);
  EXPECT_EQ(m1.full_threads, 134'592u);
  EXPECT_EQ(m1.tail_run, 3u);
  EXPECT_EQ(m1.tail_threads, 405u);
  EXPECT_EQ(h.run, 52u);
  EXPECT_EQ(m1.run, 52u);
  // 10^8 (runs of 740 leave six free warps, the given runs 625 > 4/7 of 740): the runs grow to 741, eleven free warps,
  // the given pairs in 320 runs of 313, the 1344 last pairs in 32 of 37 (at most 42).
  const gp::RunPlan e8 = gp::plan_runs(99'999'999, 99'999, 740, 132 * 4 * 256);
  EXPECT_EQ(e8.run, 741u);
  EXPECT_EQ(e8.given_threads, 320u);
  EXPECT_EQ(e8.given_run, 313u);
  EXPECT_EQ(e8.tail_threads, 32u);
  EXPECT_LE(7 * e8.tail_run, 4 * e8.run);
  // 10^9 (one free warp at 7399): 7400, the given pairs in 32 runs of 3125.
  const gp::RunPlan e9 = gp::plan_runs(999'999'999, 99'999, 7399, 132 * 4 * 256);
  EXPECT_EQ(e9.run, 7400u);
  EXPECT_EQ(e9.given_threads, 32u);
  EXPECT_EQ(e9.given_run, 3125u);
  EXPECT_LE(7 * e9.tail_run, 4 * e9.run);
}

// r60, r64: each chunk's layout as the device chooses it (chunk_layout) and the kernel's thread-to-run map (thread_run,
// layout_threads): the launched threads' runs tile the chunk, contiguously and once each, none longer than the kernel's
// tiles hold, within one wave where a spread applies; over every chunk of a solve, including chunks that start past 0, a
// chunk whose plan fits followed by one whose plan does not (a layout left over from it once divided by zero), runs of one
// pair, and the rungs' shapes.
TEST(Abc471gPairsMath, ChunkLayoutsTileEveryChunk) {
  struct Case {
    std::uint64_t n, m, chunk, resident, tile;
  };
  const std::uint64_t h200 = 132 * 4 * 256;
  const Case cases[] = {{7'000'000, 100'000, 1ULL << 31, h200, 26},  {7'000'000, 1, 1ULL << 31, h200, 26},
                        {2'097'153, 2995, 1ULL << 20, h200, 26},     {300'007, 100'000, 1000, h200, 26},
                        {7'000'000, 100'000, 1'000'000, h200, 26},   {100'000'000, 100'000, 1ULL << 31, h200, 26},
                        {5'000'000, 4'000'000, 1ULL << 20, 40'000, 24}, {10'000, 9'999, 1ULL << 31, 1024, 16},
                        {1'234'567, 77'777, 300'000, 8192, 28},      {64, 2, 1ULL << 31, 32, 16}};
  for (const Case& k : cases)
    for (const bool spread : {false, true})
      for (const bool tail : {false, true}) {
        const std::uint64_t pairs_total = k.n - 1;
        for (std::uint64_t b = 0; b < pairs_total; b += k.chunk) {
          const std::uint64_t e = std::min(pairs_total, b + k.chunk), pairs = e - b;
          const std::uint64_t run = (pairs + k.resident - 1) / k.resident;  // partition_run
          const gp::ChunkLayout l = gp::chunk_layout(b, e, k.m, run, k.resident, k.tile, spread, tail);
          const std::string what = "N = " + std::to_string(k.n) + ", M = " + std::to_string(k.m) + ", chunk at " +
                                   std::to_string(b) + (spread ? ", spread" : "") + (tail ? ", tail runs" : "");
          ASSERT_GE(l.run, run) << what;
          ASSERT_LE(l.run, std::max<std::uint64_t>(run + run / 64, run)) << what;
          const std::uint64_t total =
              gp::layout_threads(pairs, l.run, l.given_threads, l.given_run, l.full_threads, l.tail_run);
          if (l.given_threads > 0 || l.full_threads > 0) {
            EXPECT_LE(total, k.resident) << what << ": one wave";
          }
          std::uint64_t next = b;
          for (std::uint64_t t = 0; t < total; ++t) {
            const gp::ThreadRun r = gp::thread_run(t, b, l.run, l.given_threads, l.given_run, l.full_threads, l.tail_run);
            ASSERT_LE(r.len, l.run) << what << ", thread " << t << ": longer than the kernel's tiles hold";
            const std::uint64_t first = std::min(r.first, e), last = std::min(r.first + r.len, e);
            ASSERT_EQ(first, std::min(next, e)) << what << ", thread " << t << ": not contiguous";
            next = std::max(next, last);
          }
          ASSERT_EQ(next, e) << what << ": pairs left out";
          const gp::ThreadRun after = gp::thread_run(total, b, l.run, l.given_threads, l.given_run, l.full_threads, l.tail_run);
          EXPECT_GE(after.first, e) << what << ": a pair past the launched threads";
          if (tail && k.n == 7'000'000 && k.chunk > k.n) {
            EXPECT_GT(l.full_threads, 0u) << what << ": the max case's plan";
          }
        }
      }
}

// r60: the given pairs' shorter runs cover them, use only the wave's free threads, stay shorter than the others' run
// (so the kernel's tiles, counted from `run`, still hold every thread's run), and are off where nothing is free.
TEST(Abc471gPairsMath, GivenSpreadsFitTheWave) {
  std::mt19937_64 g(60);
  int spread = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t resident = 1 + g() % 200'000, run = 1 + g() % 80;
    const std::uint64_t pairs = 1 + g() % (resident * run + resident / 7 + 1);  // up to a little beyond one wave
    const std::uint64_t given = g() % 4 == 0 ? 0 : g() % (pairs + 1);
    const gp::GivenSpread s = gp::spread_given_runs(pairs, given, run, resident);
    if (s.threads == 0) {
      EXPECT_EQ(s.run, 0u);
      continue;
    }
    ++spread;
    ASSERT_GT(given, 0u);
    ASSERT_LT(given, pairs);
    EXPECT_GE(s.run, 1u);
    EXPECT_LT(s.run, run) << "shorter than the other threads' runs";
    EXPECT_GE(s.threads * s.run, given) << "every given pair in a short run";
    EXPECT_LT((s.threads - 1) * s.run, given) << "no short run wholly past the given pairs";
    const std::uint64_t rest = pairs - std::min(pairs, s.threads * s.run);
    EXPECT_LE(s.threads + (rest + run - 1) / run, resident) << "one wave";
    EXPECT_GT(s.threads, (given + run - 1) / run) << "more threads than without the spread";
  }
  EXPECT_GT(spread, 1000) << "the draw must reach the spread";
  // Off: no given pair, all of them given, runs of one pair, or the other pairs fill the wave.
  EXPECT_EQ(gp::spread_given_runs(1000, 0, 4, 1000).threads, 0u);
  EXPECT_EQ(gp::spread_given_runs(1000, 1000, 4, 1000).threads, 0u);
  EXPECT_EQ(gp::spread_given_runs(1000, 10, 1, 1000).threads, 0u);
  EXPECT_EQ(gp::spread_given_runs(4000, 10, 4, 1000).threads, 0u);
  // The max case on the H200 (N = 7e6: 6,999,999 pairs, M = 1e5: 99,999 given, one wave of 132 x 4 x 256 threads, runs
  // of 52): the others need 132,693 threads, 2475 are free, so runs of 41 over 2439 threads.
  const gp::GivenSpread h200 = gp::spread_given_runs(6'999'999, 99'999, 52, 132 * 4 * 256);
  EXPECT_EQ(h200.run, 41u);
  EXPECT_EQ(h200.threads, 2439u);
}

TEST(Abc471gPairsMath, GoldilocksArithmetic) {
  const std::uint64_t p = gp::GL_P;
  std::mt19937_64 g(3);
  std::vector<std::uint64_t> v{0, 1, 2, p - 1, p - 2, gp::GL_EPS, gp::GL_EPS + 1, 1ULL << 63, (1ULL << 32) - 5};
  for (int i = 0; i < 200; ++i) v.push_back(g() % p);
  for (const std::uint64_t a : v)
    for (const std::uint64_t b : v) {
      ASSERT_EQ(gp::gl_mul(a, b), static_cast<std::uint64_t>(static_cast<u128>(a) * b % p)) << a << " * " << b;
      ASSERT_EQ(gp::gl_add(a, b), static_cast<std::uint64_t>((static_cast<u128>(a) + b) % p));
      ASSERT_EQ(gp::gl_sub(a, b), static_cast<std::uint64_t>((static_cast<u128>(a) + p - b) % p));
    }
  EXPECT_EQ(gp::gl_pow(gp::GL_GENERATOR, p - 1), 1u);
  EXPECT_NE(gp::gl_pow(gp::GL_GENERATOR, (p - 1) / 2), 1u);  // 7 is not a square: a generator candidate
}

TEST(Abc471gPairsMath, NttLengthCoversTheCorrelation) {
  EXPECT_EQ(gp::ntt_length(1), 2u);
  EXPECT_EQ(gp::ntt_length(2), 4u);
  EXPECT_EQ(gp::ntt_length(3), 8u);
  EXPECT_EQ(gp::ntt_length(2048), 4096u);
  EXPECT_EQ(gp::ntt_length(2049), 8192u);
  EXPECT_EQ(gp::ntt_length(2300), 8192u);
  EXPECT_EQ(gp::ntt_length(4096), 8192u);
  for (std::uint32_t k = 1; k < 5000; k += 7) EXPECT_GE(gp::ntt_length(k), 2 * k);
}

TEST(Abc471gPairsMath, NttRoundTripAndConvolution) {
  std::mt19937_64 g(4);
  for (std::uint32_t l = 2; l <= 8192; l *= 2) {
    const gp::NttTwiddles tw = gp::make_twiddles(l);
    EXPECT_EQ(gp::gl_pow(tw.tw.size() > 1 ? tw.tw[1] : gp::GL_P - 1, l / 2), gp::GL_P - 1) << "w is not of order l = " << l;
    std::vector<std::uint64_t> x(l);
    for (auto& e : x) e = g() % gp::GL_P;
    auto y = x;
    gp::ntt_forward_host(y, tw);
    gp::ntt_inverse_host(y, tw);
    ASSERT_EQ(y, x) << "l = " << l;
  }
  for (std::uint32_t l : {8u, 64u, 512u}) {  // cyclic convolution theorem against the definition
    const gp::NttTwiddles tw = gp::make_twiddles(l);
    std::vector<std::uint64_t> a(l), b(l), want(l, 0);
    for (auto& e : a) e = g() % 1000;
    for (auto& e : b) e = g() % 1000;
    for (std::uint32_t i = 0; i < l; ++i)
      for (std::uint32_t j = 0; j < l; ++j) want[(i + j) % l] += a[i] * b[j];
    gp::ntt_forward_host(a, tw);
    gp::ntt_forward_host(b, tw);
    for (std::uint32_t i = 0; i < l; ++i) a[i] = gp::gl_mul(a[i], b[i]);
    gp::ntt_inverse_host(a, tw);
    EXPECT_EQ(a, want) << "l = " << l;
  }
}

TEST(Abc471gPairsReference, PairTableMatchesTheDefinition) {
  for (const auto& [n, k, m] : std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>>{
           {1, 5, 1}, {2, 5, 1}, {2, 5, 2}, {1000, 7, 1}, {1000, 7, 1000}, {54321, 37, 300}}) {
    const ab::Problem p = random_problem(n, k, m, n * 31 + k, n + m);
    std::vector<std::uint32_t> a(p.n);
    ab::generate(p, 0, p.n, a.data());
    const std::uint32_t kp = gp::padded_k(k);
    std::vector<std::uint64_t> want(static_cast<std::size_t>(kp) * kp, 0);
    for (std::uint64_t i = 0; i + 1 < p.n; ++i) ++want[static_cast<std::size_t>(a[i]) * kp + a[i + 1]];
    EXPECT_EQ(gp::cpu_pair_table(p, kp, 2), want) << "N = " << n;
    // Split into ranges (as the GPU rounds and ranks do): every pair counted exactly once.
    for (int ranks : {1, 2, 3, 7}) {
      std::vector<std::uint64_t> sum(want.size(), 0);
      for (const auto& [b, e] : ab::multi::split_pairs(p.n - 1, ranks)) {
        const auto part = gp::cpu_pair_table(p, kp, b, e, 1);
        for (std::size_t c = 0; c < sum.size(); ++c) sum[c] += part[c];
      }
      EXPECT_EQ(sum, want) << "N = " << n << ", ranks = " << ranks;
    }
  }
}

TEST(Abc471gPairsReference, CombinersMatchBrute) {
  for (const auto& [n, k, m] : std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>>{
           {1, 1, 1}, {1, 4, 1}, {5, 1, 2}, {3, 3, 3}, {100, 2, 10}, {1000, 5, 1}, {12345, 37, 100}, {20000, 130, 20000}, {3000, 300, 7}}) {
    const ab::Problem p = random_problem(n, k, m, n * 7 + k, n ^ k);
    const ab::Answer want = brute(p);
    const std::uint32_t kp = gp::padded_k(k);
    const auto table = gp::cpu_pair_table(p, kp, 1);
    EXPECT_EQ(gp::combine_direct(table, kp, p), want) << "N = " << n << ", K = " << k;
    EXPECT_EQ(gp::combine_ntt_host(table, kp, p, 2), want) << "N = " << n << ", K = " << k;
    EXPECT_EQ(gp::solve_pairs_reference(p, 2), want);
  }
}

// r02's algorithm, lane by lane with the kernel's index maps and PTX's fragment layout.
TEST(Abc471gPairsReference, TensorCoreEmulationMatchesDirect) {
  struct Case {
    std::uint64_t n;
    std::uint32_t k;
    bool heavy;
  };
  for (const Case c : {Case{2, 1, false}, Case{500, 5, false}, Case{4000, 37, false}, Case{3000, 129, false},
                       Case{70000, 11, true}, Case{100000, 200, true}}) {
    const ab::Problem p = c.heavy ? gp::testing::heavy_cell_problem(c.n, c.k, 3, c.n) : random_problem(c.n, c.k, 10, c.n, c.k);
    const std::uint32_t kp = gp::padded_k(c.k);
    const auto table = gp::cpu_pair_table(p, kp, 1);
    const ab::Answer want = gp::combine_direct(table, kp, p);
    EXPECT_EQ(gp::combine_tc_emulated(table, kp, p, 2, 4, 4, 4), want) << "N = " << c.n << ", K = " << c.k << " 128x128";
    EXPECT_EQ(gp::combine_tc_emulated(table, kp, p, 2, 2, 2, 4), want) << "N = " << c.n << ", K = " << c.k << " 64x64";
  }
}

TEST(Abc471gPairsReference, MatchesTheSharedVectors) {
  const auto vectors = gp::testing::load_vectors();
  if (vectors.empty()) GTEST_SKIP() << "test vectors not found (../shared/testdata/abc471g; set JOSEKI_TESTDATA)";
  for (const auto& v : vectors) EXPECT_EQ(gp::solve_pairs_reference(v.problem, 2), v.answer) << v.name;
}

TEST(Abc471gPairsMath, TensorCoreIndexMaps) {
  // Logical and physical k are permutations of 0..31 that agree between A and B.
  for (int lane = 0; lane < 32; ++lane)
    for (int e = 0; e < 4; ++e) {
      EXPECT_EQ(gp::tc_a_physical_k(lane, 0, e), gp::tc_b_physical_k(lane, 0, e));
      EXPECT_EQ(gp::tc_a_physical_k(lane, 2, e), gp::tc_b_physical_k(lane, 1, e));
      EXPECT_EQ(gp::tc_a_logical_k(lane, 2, e), gp::tc_b_logical_k(lane, 1, e));
    }
  std::vector<int> seen(32, 0);
  for (int t = 0; t < 4; ++t)
    for (int r = 0; r < 2; ++r)
      for (int e = 0; e < 4; ++e) ++seen[static_cast<std::size_t>(gp::tc_b_physical_k(t, r, e))];
  for (int s : seen) EXPECT_EQ(s, 1);
  // The V bank: a warp's 32 B-register loads hit 32 different banks.
  const std::uint32_t w = gp::tc_bank_words(2304);
  EXPECT_EQ(w % 32, 8u);
  for (std::uint32_t b0 : {0u, 32u, 2272u})
    for (std::uint32_t base : {0u, 8u, 2296u}) {
      std::vector<int> banks(32, 0);
      for (int lane = 0; lane < 32; ++lane) ++banks[gp::tc_b_word(w, lane, b0, base + gp::tc_b_col(lane), 0) % 32];
      for (int b : banks) EXPECT_EQ(b, 1);
    }
}

// Planes with a 7-bit plane 0 (the GEMM combiner) recompose every count exactly, and planes_for
// names the fewest that do (0 for an all-zero table); low = 8 is slices_for.
TEST(Abc471gPairsMath, PlanesRecomposeCounts) {
  for (const int low : {7, 8})
    for (const std::uint64_t c : {0ULL, 1ULL, 126ULL, 127ULL, 128ULL, 255ULL, 256ULL, 32767ULL, 32768ULL, 8'388'607ULL,
                                  8'388'608ULL, 4'294'967'295ULL, 999'999'999'999ULL}) {
      const int planes = gp::planes_for(c, low);
      std::uint64_t back = 0;
      for (int j = 0; j < planes + 2; ++j) {
        const std::uint64_t mask = j == 0 ? (1ULL << low) - 1 : 255;
        const std::uint64_t digit = (c >> gp::plane_shift(j, low)) & mask;
        if (j >= planes) { EXPECT_EQ(digit, 0u) << "plane " << j << " of " << c; }
        back += digit << gp::plane_shift(j, low);
      }
      EXPECT_EQ(back, c) << "low " << low;
      if (c) { EXPECT_GT(c >> gp::plane_shift(planes - 1, low), 0u) << "the top plane is needed, low " << low; }
      if (low == 8) { EXPECT_EQ(planes, gp::slices_for(c)); }
    }
  EXPECT_EQ(gp::planes_for(127, 7), 1);
  EXPECT_EQ(gp::planes_for(128, 7), 2);
}

TEST(Abc471gPairsMulti, SplitCoversTheRangeOnce) {
  for (std::uint64_t pairs : {0ULL, 1ULL, 2ULL, 7ULL, 1000ULL, 9'999'999'999ULL})
    for (int ranks : {1, 2, 3, 8}) {
      const auto r = ab::multi::split_pairs(pairs, ranks);
      ASSERT_EQ(r.size(), static_cast<std::size_t>(ranks));
      EXPECT_EQ(r.front().first, 0u);
      EXPECT_EQ(r.back().second, pairs);
      for (std::size_t i = 1; i < r.size(); ++i) EXPECT_EQ(r[i].first, r[i - 1].second);
      for (const auto& [b, e] : r) EXPECT_LE(e - b, pairs / ranks + 1);
    }
  EXPECT_THROW(ab::multi::split_pairs(10, 0), joseki::InputError);
}

TEST(Abc471gPairsMulti, NcclLoadsOrSaysWhy) {
  std::string why;
  const auto* n = ab::multi::load_nccl(&why);
  if (n) {
    EXPECT_GE(n->version, 20000) << n->path;
    EXPECT_NE(n->all_reduce, nullptr);
  } else {
    EXPECT_FALSE(why.empty());
  }
  ab::multi::disable_nvls();
  EXPECT_STREQ(std::getenv("NCCL_NVLS_ENABLE"), "0");
}

TEST(Abc471gPairsCosts, FitRecoversAKnownModel) {
  const double c0 = 2e-3, cn = 1.5e-9, cnk = 3e-12, ck2 = 4e-9;
  std::vector<std::array<double, 3>> pts;
  for (double k : {256.0, 2300.0})
    for (double n : {1e5, 1e6, 1e7, 1e8}) pts.push_back({n, k, c0 + cn * n + cnk * n * k + ck2 * k * k});
  const ab::SolverFit f = ab::fit_solver(pts);
  EXPECT_NEAR(f.c0 / c0, 1, 1e-6);
  EXPECT_NEAR(f.c_n / cn, 1, 1e-6);
  EXPECT_NEAR(f.c_nk / cnk, 1, 1e-6);
  EXPECT_NEAR(f.c_k2 / ck2, 1, 1e-6);
  EXPECT_LT(f.max_rel_err, 1e-6);
  // A term the data contradict is clamped at zero, never negative.
  std::vector<std::array<double, 3>> lin;
  for (double n : {1e3, 1e4, 1e5, 1e6}) lin.push_back({n, 100, 1e-3 + 2e-9 * n - (n > 1e5 ? 1e-4 : 0)});
  const ab::SolverFit g = ab::fit_solver(lin);
  EXPECT_GE(g.c0, 0);
  EXPECT_GE(g.c_n, 0);
  EXPECT_GE(g.c_nk, 0);
  EXPECT_GE(g.c_k2, 0);
}

TEST(Abc471gPairsCosts, FileRoundTripAndErrors) {
  ab::CostModel m = ab::default_costs();
  m.source = "measured";
  m.created = "2026-11-29T00:00:00Z";
  m.gpu_fixed_idle_s = 0.311;
  m.gpu_fixed_held_s = 0.181;
  m.idle_measured = true;
  m.held_measured = true;
  std::vector<std::array<double, 3>> pts;
  pts.push_back({1e5, 2300, 1e-3});
  pts.push_back({1e6, 2300, 9e-3});
  pts.push_back({1e7, 2300, 8.8e-2});
  m.solvers["cpu-direct"] = ab::fit_solver(pts);
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("joseki-costs-" + std::to_string(::getpid()))).string();
  const std::string path = dir + "/sub/abc471g_costs.json";
  ab::save_costs(m, path);
  const auto back = ab::load_costs(path);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->source, "measured");
  EXPECT_DOUBLE_EQ(back->gpu_fixed_idle_s, 0.311);
  EXPECT_DOUBLE_EQ(back->gpu_fixed_held_s, 0.181);
  EXPECT_TRUE(back->idle_measured && back->held_measured);
  EXPECT_DOUBLE_EQ(back->solvers.at("cpu-direct").c_n, m.solvers.at("cpu-direct").c_n);
  EXPECT_DOUBLE_EQ(back->others_cpu_share, -1) << "unknown stays unknown";
  EXPECT_TRUE(back->busy_text().empty());
  // How loaded the machine was during the fits: kept in the file, and named where it passes 25 %.
  m.others_cpu_share = 0.48;
  m.cpus = 2;
  ab::save_costs(m, path);
  const auto busy = ab::load_costs(path);
  ASSERT_TRUE(busy.has_value());
  EXPECT_DOUBLE_EQ(busy->others_cpu_share, 0.48);
  EXPECT_EQ(busy->cpus, 2);
  EXPECT_NE(busy->busy_text().find("other processes used 48 % of the 2 CPUs"), std::string::npos) << busy->busy_text();
  m.others_cpu_share = 0.1;
  EXPECT_TRUE(m.busy_text().empty()) << m.busy_text();
  {  // a file written before the field existed loads with the share unknown
    nlohmann::json old = ab::to_json(m);
    old.erase("machine");
    EXPECT_DOUBLE_EQ(ab::costs_from_json(old).others_cpu_share, -1);
  }
  EXPECT_FALSE(ab::load_costs(dir + "/absent.json").has_value());
  nlohmann::json j = ab::to_json(m);
  j["gpu"].erase("module_load_s");
  try {
    ab::costs_from_json(j);
    FAIL() << "a missing field must be an InputError";
  } catch (const joseki::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu.module_load_s"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(Abc471gPairsCosts, CalibratedChoiceFollowsTheModel) {
  ab::CostModel m;
  m.source = "measured";
  m.gpu_fixed_idle_s = 0.2;
  m.gpu_fixed_held_s = 0.2;
  m.module_load_s = 0;
  ab::SolverFit cpu, gpu;
  cpu.c0 = 1e-4;
  cpu.c_n = 1e-8;  // 10 ns per element
  gpu.c0 = 1e-3;
  gpu.c_n = 1e-11;
  m.solvers["cpu-direct"] = cpu;
  m.solvers["gpu-pairs"] = gpu;
  const std::vector<std::string> cands{"cpu-direct", "gpu-pairs"};
  const auto small = gp::choose_calibrated(random_problem(1000, 50, 1, 1, 1), cands, m);
  EXPECT_EQ(small.first, "cpu-direct") << small.second;
  const auto big = gp::choose_calibrated(random_problem(1'000'000'000ULL, 50, 1, 1, 1), cands, m);
  if (ab::gpu_presence_reason().empty()) {
    EXPECT_EQ(big.first, "gpu-pairs") << big.second;
  } else {
    EXPECT_EQ(big.first, "cpu-direct") << "no GPU here: gpu-pairs must not be chosen\n" << big.second;
  }
}

// Issue 17 item 2: a /1 cost file (one fixed cost, measured while the calibrating process held a
// context) is read as the held figure; idle keeps its default and says why.
TEST(Abc471gPairsCosts, SchemaOneFileIsTheHeldState) {
  const nlohmann::json j = {{"schema", "joseki.abc471g.costs/1"},
                            {"source", "measured"},
                            {"created", "2026-11-30T00:00:00Z"},
                            {"device", {{"index", 0}, {"name", "H200"}}},
                            {"gpu", {{"fixed_external_s", 0.1947}, {"module_load_s", 0.002}, {"measured", true}}},
                            {"solvers", nlohmann::json::object()}};
  const ab::CostModel m = ab::costs_from_json(j);
  EXPECT_DOUBLE_EQ(m.gpu_fixed_held_s, 0.1947);
  EXPECT_TRUE(m.held_measured);
  EXPECT_FALSE(m.idle_measured);
  EXPECT_DOUBLE_EQ(m.gpu_fixed_idle_s, ab::default_costs().gpu_fixed_idle_s);
  EXPECT_NE(m.idle_note.find("/1"), std::string::npos) << m.idle_note;
  nlohmann::json bad = j;
  bad["schema"] = "joseki.abc471g.costs/9";
  EXPECT_THROW(ab::costs_from_json(bad), joseki::InputError);
  bad = ab::to_json(m);
  bad["gpu"]["fixed_external_idle_s"] = -1.0;
  EXPECT_THROW(ab::costs_from_json(bad), joseki::InputError);
}

// The same model ranks differently by device state: at N = 1e8 a CPU solver at 2.5 ns per element
// (0.25 s) beats a GPU solver that pays the idle fixed cost (0.32 s) and loses to it when held (0.19 s).
TEST(Abc471gPairsCosts, TheDeviceStateDecidesTheCrossover) {
  ab::CostModel m = ab::default_costs();
  m.gpu_fixed_idle_s = 0.32;
  m.gpu_fixed_held_s = 0.19;
  m.module_load_s = 0;
  ab::SolverFit cpu, gpu;
  cpu.c_n = 2.5e-9;
  gpu.c_n = 1e-11;
  m.solvers["cpu-direct"] = cpu;
  m.solvers["gpu-pairs"] = gpu;
  const double n = 1e8;
  const double c = *ab::estimate_external(m, "cpu-direct", false, n, 2300, ab::DeviceState::Idle);
  const double gi = *ab::estimate_external(m, "gpu-pairs", true, n, 2300, ab::DeviceState::Idle);
  const double gh = *ab::estimate_external(m, "gpu-pairs", true, n, 2300, ab::DeviceState::Held);
  EXPECT_LT(c, gi);
  EXPECT_GT(c, gh);
  EXPECT_DOUBLE_EQ(*ab::estimate_external(m, "cpu-direct", false, n, 2300, ab::DeviceState::Held), c)
      << "a CPU solver's cost does not depend on the device state";
  EXPECT_NE(m.fixed_costs_text().find("idle 320.0 ms"), std::string::npos) << m.fixed_costs_text();
  EXPECT_NE(m.fixed_costs_text().find("held 190.0 ms"), std::string::npos) << m.fixed_costs_text();
}

// auto asks NVML (through the app's device-state probe) only where a GPU could be used; without an
// answer it assumes idle and says so; --explain names the state and the fixed costs it used.
TEST(Abc471gPairsCosts, AutoFindsTheDeviceStateAndSaysSo) {
  for (const std::string answer : {"held", "idle", ""}) {
    joseki::measure::launcher::set_device_state_probe([answer] { return answer; });
    const ab::MachineShape m = ab::machine_shape({});
    if (!ab::gpu_presence_reason().empty()) {
      EXPECT_EQ(m.device_state, ab::DeviceState::Idle);
      EXPECT_NE(m.device_state_source.find("not asked"), std::string::npos) << m.device_state_source;
    } else {
      EXPECT_EQ(m.device_state, answer == "held" ? ab::DeviceState::Held : ab::DeviceState::Idle) << answer;
      EXPECT_NE(m.device_state_source.find(answer.empty() ? "assumed idle" : "NVML"), std::string::npos)
          << m.device_state_source;
    }
    const ab::Choice c = ab::choose_solver({1000, 50, 1}, m);
    EXPECT_NE(c.explanation.find(std::string("device state ") + ab::to_string(m.device_state)), std::string::npos)
        << c.explanation;
    EXPECT_NE(c.explanation.find("GPU fixed cost idle"), std::string::npos) << c.explanation;
  }
  joseki::measure::launcher::set_device_state_probe(nullptr);
}

// auto asks NVML (milliseconds of initialisation) only when idle and held would choose differently:
// a small N is the CPU's in both states, so the probe is never called.
TEST(Abc471gPairsCosts, AutoAsksTheStateOnlyWhenItDecides) {
  int asked = 0;
  joseki::measure::launcher::set_device_state_probe([&asked] {
    ++asked;
    return std::string("held");
  });
  ab::SolveOptions o;
  o.explain = true;
  const ab::SolveResult r = ab::find_solver("auto").solve(random_problem(1000, 50, 1, 1, 1), o);
  joseki::measure::launcher::set_device_state_probe(nullptr);
  EXPECT_EQ(asked, 0) << r.explanation;
  EXPECT_NE(r.explanation.find("not asked"), std::string::npos) << r.explanation;
  EXPECT_EQ(r.solver, "cpu-direct");
}

TEST(Abc471gPairsCosts, AutoSeesTheGpuEstimator) {
  const ab::Choice c = ab::choose_solver({10'000'000'000ULL, 2300, 1}, ab::machine_shape({}));
  bool found = false;
  for (const auto& e : c.candidates)
    if (e.solver == "gpu-pairs") {
      found = true;
      if (ab::gpu_presence_reason().empty()) {
        EXPECT_FALSE(e.infeasible.has_value()) << e.formula;
      } else {
        EXPECT_TRUE(e.infeasible.has_value());
      }
    }
  EXPECT_TRUE(found) << c.explanation;
}

TEST(Abc471gPairsSolver, PreconditionsAreInputErrors) {
  ab::Problem big = random_problem(10, 20000, 1, 1, 1);
  EXPECT_FALSE(gp::pairs_precondition(big, gp::Combiner::TensorCore).empty());
  EXPECT_THROW(ab::find_solver("gpu-pairs").solve(big, {}), joseki::InputError);
  ab::Problem mid = random_problem(10, 5000, 1, 1, 1);
  EXPECT_TRUE(gp::pairs_precondition(mid, gp::Combiner::TensorCore).empty());
  EXPECT_THROW(ab::find_solver("gpu-pairs-ntt").solve(mid, {}), joseki::InputError);
  EXPECT_EQ(gp::pairs_ladder().size(), 70u);  // r00..r69 (r05..r69: issue 19)
  EXPECT_EQ(gp::find_rung("r02_atomic_tc_int8").predecessor, "r01_atomic_ntt");
  EXPECT_EQ(gp::find_rung("r03_partition_tc").predecessor, "r02_atomic_tc_int8");
  EXPECT_EQ(gp::find_rung("r04_partition_gemm").predecessor, "r03_partition_tc");
  EXPECT_EQ(gp::find_rung("r04_partition_gemm").combiner, gp::Combiner::Gemm);
  EXPECT_EQ(gp::PairsConfig{}.combiner, gp::Combiner::TensorCore);  // the shipped gpu-pairs (no library load)
  EXPECT_STREQ(gp::combiner_name(gp::Combiner::Gemm), "gemm");
  // The partition count needs Kp <= 4096 (at most 1024 slices); above it the atomic count runs.
  EXPECT_EQ(gp::effective_counter(random_problem(10, 4096, 1, 1, 1), {}), gp::Counter::Partition);
  EXPECT_EQ(gp::effective_counter(mid, {}), gp::Counter::Atomic);
  EXPECT_TRUE(gp::find_rung("r03_partition_tc").precondition(random_problem(10, 2300, 1, 1, 1)).empty());
  EXPECT_FALSE(gp::find_rung("r03_partition_tc").precondition(mid).empty());
  gp::PairsConfig atomic;
  atomic.counter = gp::Counter::Atomic;
  EXPECT_EQ(gp::effective_counter(random_problem(10, 100, 1, 1, 1), atomic), gp::Counter::Atomic);
  EXPECT_THROW(gp::find_rung("r99"), joseki::InputError);
  // The message names the option that asked (scale hopper's --rungs), the name and the slugs.
  try {
    gp::find_rung("r99", "--rungs");
    ADD_FAILURE() << "r99 found";
  } catch (const joseki::InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("--rungs r99: unknown rung (rungs: r00_cpu_pairs, ", 0), 0u) << m;
    EXPECT_NE(m.find("r49_v_image"), std::string::npos) << m;
  }
}

TEST(Abc471gPairsLadder, OneListWithIdsOfItsOwnAndDeclaredPredecessors) {
  std::set<std::string> ids;
  for (const gp::PairsRung& r : gp::pairs_ladder()) {
    EXPECT_EQ(r.id.rfind("p", 0), 0u) << r.id << ": not to be confused with reduce's r00..r11";
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_EQ(&gp::find_rung(r.id), &r);
    EXPECT_EQ(&gp::find_rung(r.variant()), &r);
    if (!r.predecessor.empty()) { EXPECT_LT(gp::find_rung(r.predecessor).position, r.position) << r.slug; }
  }
  EXPECT_EQ(gp::find_rung("p04").variant(), "pairs.r04_partition_gemm") << "records keep their variants";
}

// A rung added to the list with one entry runs through the measurement core's protocol
// (measure::run_ladder): validated (poisoned output, exact, twice), timed, x previous against its
// declared predecessor, x the baseline (p00), and a row of the one table; the GPU rungs, without a
// runner of their backend here, are rows whose skip reason says so. The test rung is a CPU rung
// (its "file" is the registry's cpu-direct solver), so this runs on any machine.
TEST(Abc471gPairsLadder, ARungAddedWithOneEntryIsValidatedTimedAndListed) {
  const ab::Problem p = random_problem(4001, 70, 13, 5, 3);
  const ab::Answer want = brute(p);
  gp::PairsRung t90;
  t90.id = "p90";
  t90.position = 90;
  t90.slug = "t90_cpu_direct";
  t90.name = "the direct count (test-only rung)";
  t90.technique = "cpu-direct: N x K lane steps on the CPU";
  t90.predecessor = "r00_cpu_pairs";
  t90.cpu_solver = "cpu-direct";
  t90.precondition = [](const ab::Problem&) { return std::string(); };
  std::vector<gp::PairsRung> rungs = gp::pairs_ladder();
  rungs.push_back(t90);  // <- the one registration line (in ladder.cpp: one entry of the list)
  const joseki::measure::Ladder lad = gp::core_ladder(p, rungs);
  ASSERT_NE(lad.find("p90"), nullptr);
  EXPECT_EQ(lad.find("p90")->slug, "pairs.t90_cpu_direct");
  EXPECT_EQ(lad.find("p90")->predecessor, "pairs.r00_cpu_pairs");
  ASSERT_NE(lad.baseline(), nullptr);
  EXPECT_EQ(lad.baseline()->slug, "pairs.r00_cpu_pairs");

  const auto cpu = gp::make_cpu_runner(p, want);
  joseki::measure::LadderOptions lo;
  lo.rule.min_samples = 3;
  lo.rule.min_time_s = 0;
  lo.rule.timeout_s = 2;
  lo.workload.set("n", static_cast<std::int64_t>(p.n)).set("k", static_cast<std::int64_t>(p.k));
  const joseki::measure::LadderResult res = joseki::measure::run_ladder(lad, {cpu.get()}, lo);
  EXPECT_TRUE(res.failures.empty()) << res.failures.front();
  const joseki::measure::Record* row = nullptr;
  int skipped_gpu = 0;
  for (const auto& r : res.records) {
    if (r.variant == "pairs.t90_cpu_direct") row = &r;
    if (r.backend == "cuda" && r.skipped) {
      ++skipped_gpu;
      EXPECT_NE(r.skipped->find("no cuda runner"), std::string::npos) << *r.skipped;
    }
  }
  int gpu_rungs = 0;  // every GPU rung of the list (p01..), skipped here for want of a CUDA runner
  for (const gp::PairsRung& r : rungs) gpu_rungs += r.combiner ? 1 : 0;
  EXPECT_GE(gpu_rungs, 4);
  EXPECT_EQ(skipped_gpu, gpu_rungs) << "p01..";
  ASSERT_NE(row, nullptr);
  ASSERT_TRUE(row->is_ladder_row());
  EXPECT_EQ(row->validation, "exact");
  EXPECT_EQ(row->scope, "CPU_COMPUTE");
  ASSERT_TRUE(row->ladder.x_previous.has_value());
  ASSERT_TRUE(row->ladder.x_baseline.has_value());
  EXPECT_EQ(row->ladder.previous, "pairs.r00_cpu_pairs");
  const std::string table = joseki::measure::ladder_table(res.records);
  EXPECT_NE(table.find("pairs.t90_cpu_direct"), std::string::npos) << table;
  EXPECT_NE(table.find("skipped: no cuda runner in this run"), std::string::npos) << table;

  // A wrong solver is caught by the same protocol: not timed, the difference named.
  gp::PairsRung bad = t90;
  bad.id = "p91";
  bad.slug = "t91_wrong";
  bad.cpu_solver = "cpu-direct";
  ab::Answer wrong = want;
  wrong[3] += 1;
  const auto cpu_wrong = gp::make_cpu_runner(p, wrong);
  const std::vector<gp::PairsRung> one{bad};
  const auto res2 = joseki::measure::run_ladder(gp::core_ladder(p, one), {cpu_wrong.get()}, lo);
  ASSERT_FALSE(res2.failures.empty());
  ASSERT_EQ(res2.records.size(), 1u);
  EXPECT_EQ(res2.records[0].validation.rfind("failed", 0), 0u) << res2.records[0].validation;
  EXPECT_FALSE(res2.records[0].summary.has_value());
}

// A rung that brings a new KIND of count (kinds.hpp), added the documented way: its file
// (tests/rungs/pairs_t01_warp_atomic.cu: kernel + registered CountKind, built only into a CUDA build's GPU
// tests) and one line (tests/rungs/pairs_rungs.def). Its metadata, here on any machine: the entry names
// the kind, the solve's configuration carries it, and the ladder lists it after its declared predecessor
// (skipped here for want of a CUDA runner; tests/gpu/test_abc471g_pairs_kinds.cpp runs it on the GPU).
TEST(Abc471gPairsLadder, ATestOnlyKindRungIsListedAfterItsPredecessor) {
  const gp::PairsRung& t01 = gp::test_rung("pt01");
  EXPECT_EQ(t01.slug, "t01_warp_atomic");
  EXPECT_EQ(t01.variant(), "pairs.t01_warp_atomic");
  EXPECT_EQ(t01.counter, gp::Counter::Kind);
  EXPECT_EQ(t01.count_kind, "warp_atomic");
  EXPECT_EQ(t01.counter_label(), "warp_atomic");
  EXPECT_TRUE(t01.combine_kind.empty());
  ASSERT_TRUE(t01.combiner.has_value());
  EXPECT_EQ(*t01.combiner, gp::Combiner::TensorCore);
  const gp::PairsConfig c = t01.config();
  EXPECT_EQ(c.count_kind, "warp_atomic");
  EXPECT_EQ(gp::effective_counter(random_problem(10, 301, 1, 1, 1), c), gp::Counter::Kind);
  EXPECT_EQ(gp::effective_counter(random_problem(10, 5000, 1, 1, 1), c), gp::Counter::Atomic) << "Kp > 4096";
  EXPECT_TRUE(t01.precondition(random_problem(10, 301, 1, 1, 1)).empty());
  EXPECT_FALSE(t01.precondition(random_problem(10, 5000, 1, 1, 1)).empty()) << "a kind counts where Kp <= 4096";
  for (const gp::PairsRung& r : gp::pairs_ladder()) EXPECT_NE(r.id, t01.id) << "test ids stay out of the ladder";

  const ab::Problem p = random_problem(4001, 301, 13, 5, 3);
  std::vector<gp::PairsRung> rungs = gp::pairs_ladder();
  rungs.push_back(gp::test_rung("pt01"));  // what the .def line adds
  const joseki::measure::Ladder lad = gp::core_ladder(p, rungs);
  ASSERT_NE(lad.find("pt01"), nullptr);
  EXPECT_EQ(lad.find("pt01")->predecessor, "pairs.r02_atomic_tc_int8");
  EXPECT_EQ(lad.find("pt01")->backend, "cuda");
  EXPECT_EQ(lad.find("pt01")->position, 91);
  const ab::Answer want = brute(p);  // the runner keeps a reference
  const auto cpu = gp::make_cpu_runner(p, want);
  joseki::measure::LadderOptions lo;
  lo.rule.min_samples = 3;
  lo.rule.min_time_s = 0;
  lo.rule.timeout_s = 2;
  lo.workload.set("n", static_cast<std::int64_t>(p.n)).set("k", static_cast<std::int64_t>(p.k));
  const joseki::measure::LadderResult res = joseki::measure::run_ladder(lad, {cpu.get()}, lo);
  EXPECT_TRUE(res.failures.empty()) << res.failures.front();
  const std::string table = joseki::measure::ladder_table(res.records);
  const std::size_t at = table.find("pairs.t01_warp_atomic"), pred = table.find("pairs.r02_atomic_tc_int8");
  ASSERT_NE(at, std::string::npos) << table;
  ASSERT_NE(pred, std::string::npos) << table;
  EXPECT_LT(pred, at) << table;
  bool skipped_row = false;
  for (const auto& r : res.records)
    if (r.variant == "pairs.t01_warp_atomic") {
      skipped_row = r.skipped.has_value();
      if (r.skipped) { EXPECT_NE(r.skipped->find("no cuda runner"), std::string::npos) << *r.skipped; }
    }
  EXPECT_TRUE(skipped_row);
}

// A partition tile with no kernel instantiated for the knobs is refused by PairsDevice (it used to run as tiles of
// 16, unannounced): the test asks the mapping the launcher uses (host code; no GPU needed).
#ifdef JOSEKI_HAVE_CUDA
TEST(Abc471gPairsLadder, PartitionTilesWithoutAKernelAreNotBuilt) {
  // every rung's own tile is built for its knobs (blocks of 512 unless 256 or 128; 256 slices at most there)
  for (const gp::PairsRung& r : gp::pairs_ladder()) {
    const gp::PairsConfig c = r.config();
    const int t = c.partition_threads == 256 || c.partition_threads == 128 ? c.partition_threads : 512;
    if (c.partition_lean > 0) {
      EXPECT_TRUE(gp::lean_partition_tile_built(t, c.partition_lean, c.partition_tile, 132)) << r.slug;
    } else {
      EXPECT_TRUE(gp::partition_tile_built(t, c.partition_tile)) << r.slug;
    }
  }
  EXPECT_TRUE(gp::lean_partition_tile_built(256, 13, 26, 132));   // r41
  EXPECT_TRUE(gp::lean_partition_tile_built(256, 14, 26, 132));   // r42
  EXPECT_FALSE(gp::lean_partition_tile_built(256, 12, 26, 132));  // tiles of 26: the rotated variants only
  EXPECT_FALSE(gp::lean_partition_tile_built(256, 13, 30, 132));
  EXPECT_FALSE(gp::lean_partition_tile_built(256, 13, 32, 132));  // 32: variant 4 in blocks of 256, variant 1 in 512
  EXPECT_TRUE(gp::lean_partition_tile_built(256, 4, 32, 132));
  EXPECT_TRUE(gp::lean_partition_tile_built(512, 1, 32, 132));
  EXPECT_FALSE(gp::lean_partition_tile_built(512, 4, 28, 132));
  EXPECT_FALSE(gp::lean_partition_tile_built(128, 4, 28, 132));
  EXPECT_TRUE(gp::lean_partition_tile_built(128, 4, 24, 132));
  for (const int lean : {1, 4, 9, 13})
    for (const int t : {512, 256, 128}) {
      EXPECT_TRUE(gp::lean_partition_tile_built(t, lean, 0, 132)) << "0: the kernel's choice";
      EXPECT_TRUE(gp::lean_partition_tile_built(t, lean, 16, 132)) << "16: every kernel";
      EXPECT_FALSE(gp::lean_partition_tile_built(t, lean, -1, 132));
      EXPECT_FALSE(gp::lean_partition_tile_built(t, lean, 1000, 132));
    }
  EXPECT_TRUE(gp::partition_tile_built(512, 20));
  EXPECT_TRUE(gp::partition_tile_built(512, 24));
  EXPECT_FALSE(gp::partition_tile_built(512, 28));
  EXPECT_FALSE(gp::partition_tile_built(256, 24));  // r03's kernel in blocks of 256: tiles of 16 only
  EXPECT_TRUE(gp::partition_tile_built(256, 0));
}
#endif

// The built-in ladder's kinds are registered where their code is built (a CUDA build), by their rung
// files (r08_dsmem_count.cu, r09_wgmma_combine.cpp); a CPU-only build has none.
TEST(Abc471gPairsLadder, TheLaddersKindsAreRegisteredByTheirRungFiles) {
  const gp::PairsRung& r8 = gp::find_rung("p08");
  const gp::PairsRung& r9 = gp::find_rung("p09");
#ifdef JOSEKI_HAVE_CUDA
  const gp::CountKind* dsmem = gp::find_count_kind(r8.count_kind);
  ASSERT_NE(dsmem, nullptr);
  EXPECT_EQ(dsmem->what, "the DSMEM count (r08)");
  EXPECT_EQ(dsmem->needs.features, std::vector<joseki::measure::Feature>{joseki::measure::Feature::Clusters})
      << "the kind checks clusters itself, as the ladder entry's needs say";
  const gp::CombineKind* wgmma = gp::find_combine_kind(r9.combine_kind);
  ASSERT_NE(wgmma, nullptr);
  EXPECT_EQ(wgmma->what, "r09's wgmma combine");
  ASSERT_NE(wgmma->unavailable, nullptr);
  if (!joseki::gpu::availability().ok) { EXPECT_NE(wgmma->unavailable(2304, 0), "") << "no GPU: unavailable, with why"; }
#else
  EXPECT_EQ(gp::find_count_kind(r8.count_kind), nullptr);
  EXPECT_EQ(gp::find_combine_kind(r9.combine_kind), nullptr);
#endif
  EXPECT_EQ(gp::find_count_kind("no_such_kind"), nullptr);
  for (const gp::PairsRung& r : gp::pairs_ladder()) {
    if (!r.count_kind.empty()) { EXPECT_EQ(r.counter, gp::Counter::Kind) << r.slug; }
    if (r.slug != "r08_dsmem_count") { EXPECT_TRUE(r.count_kind.empty()) << r.slug; }
    if (r.position < 9) {  // r09 .. r32, r35, r36, r39, r61, r66 combine on r09's wgmma kind, r33, r34, r37, r38, r40 .. r60,
                           // r62 .. r65 on its skewed kind; before r09 built-in combiners
      EXPECT_TRUE(r.combine_kind.empty()) << r.slug;
    } else {
      const bool skewed = r.position == 33 || r.position == 34 || r.position == 37 || r.position == 38 ||
                          (r.position >= 40 && r.position != 61 && r.position != 66);
      EXPECT_EQ(r.combine_kind, skewed ? "wgmma_skew" : "wgmma") << r.slug;
    }
  }
  const gp::PairsRung& r33 = gp::find_rung("p33");
#ifdef JOSEKI_HAVE_CUDA
  const gp::CombineKind* skew = gp::find_combine_kind(r33.combine_kind);
  ASSERT_NE(skew, nullptr);
  EXPECT_EQ(skew->what, "r33's skewed wgmma combine");
  EXPECT_TRUE(skew->skewed_planes) << "the histograms must write its planes skewed";
  EXPECT_FALSE(gp::find_combine_kind(r9.combine_kind)->skewed_planes);
  if (!joseki::gpu::availability().ok) { EXPECT_NE(skew->unavailable(2304, 0), "") << "no GPU: unavailable, with why"; }
#else
  EXPECT_EQ(gp::find_combine_kind(r33.combine_kind), nullptr);
#endif
  EXPECT_EQ(r33.predecessor, "r31_quad_write_out");
  EXPECT_EQ(gp::find_rung("p34").predecessor, "r33_skewed_combine");
  EXPECT_EQ(gp::find_rung("p34").config().wgmma.warpgroups, 2);
  EXPECT_EQ(r33.config().wgmma.warpgroups, 4);
  // r35: r31's solve with the combine's A operand from the Hankel view (ss on the TMA kernel); K <= 8960 only.
  const gp::PairsRung& r35 = gp::find_rung("p35");
  EXPECT_EQ(r35.predecessor, "r31_quad_write_out");
  const gp::PairsConfig c35 = r35.config(), c31 = gp::find_rung("p31").config();
  EXPECT_EQ(c35.wgmma.op, gp::WgmmaOperand::Ss);
  EXPECT_EQ(c35.wgmma.tma, 1);
  EXPECT_EQ(c35.wgmma.stages, 8);
  EXPECT_EQ(c35.partition_lean, c31.partition_lean);
  EXPECT_EQ(c35.chunk_pairs, c31.chunk_pairs);
  ab::Problem big;  // r35 takes every K the partition count takes (static_assert in ladder.cpp)
  big.n = 10;
  big.k = 2300;
  big.b = {1};
  big.v.assign(2300, 0);
  EXPECT_EQ(r35.precondition(big), gp::find_rung("p31").precondition(big));
  // r36: r35 with seven commit groups in flight (14 slots)
  const gp::PairsRung& r36 = gp::find_rung("p36");
  EXPECT_EQ(r36.predecessor, "r35_hankel_operand");
  EXPECT_EQ(r36.config().wgmma.stages, 14);
  EXPECT_EQ(r36.config().wgmma.op, gp::WgmmaOperand::Ss);
  EXPECT_EQ(r36.config().partition_lean, c35.partition_lean);
  // r37: r33 with the partition kernel that counts each pair at its rotated cell (variant 13), the rest r33's
  const gp::PairsRung& r37 = gp::find_rung("p37");
  const gp::PairsConfig c37 = r37.config(), c33 = gp::find_rung("p33").config();
  EXPECT_EQ(r37.predecessor, "r33_skewed_combine");
  EXPECT_EQ(c37.partition_lean, 13);
  EXPECT_EQ(c33.partition_lean, 12);
  EXPECT_EQ(c37.combine_kind, "wgmma_skew");
  EXPECT_EQ(c37.combine_kind, c33.combine_kind);
  EXPECT_EQ(c37.partition_tile, c33.partition_tile);
  EXPECT_EQ(c37.partition_threads, c33.partition_threads);
  EXPECT_EQ(c37.chunk_pairs, c33.chunk_pairs);
  EXPECT_EQ(c37.wgmma.stages, c33.wgmma.stages);
  EXPECT_EQ(c37.wgmma.warpgroups, c33.wgmma.warpgroups);
  EXPECT_EQ(r37.precondition(big), gp::find_rung("p33").precondition(big));
  EXPECT_FALSE(c37.combine_dependent);
  // r38: r37 with the combine launched as the histograms' programmatic dependent, nothing else changed
  const gp::PairsRung& r38 = gp::find_rung("p38");
  gp::PairsConfig c38 = r38.config();
  EXPECT_EQ(r38.predecessor, "r37_rotated_cells");
  EXPECT_TRUE(c38.combine_dependent);
  EXPECT_EQ(c38.combine_kind, c37.combine_kind);
  EXPECT_EQ(c38.wgmma.tma, 1);
  c38.combine_dependent = false;
  EXPECT_EQ(c38.partition_lean, c37.partition_lean);
  EXPECT_EQ(c38.partition_tile, c37.partition_tile);
  EXPECT_EQ(c38.chunk_pairs, c37.chunk_pairs);
  EXPECT_EQ(c38.graph, c37.graph);
  EXPECT_EQ(c38.wgmma.stages, c37.wgmma.stages);
  // r39: r31 with r38's knob alone (the plain combine kind, rows unrotated)
  const gp::PairsRung& r39 = gp::find_rung("p39");
  gp::PairsConfig c39 = r39.config();
  const gp::PairsConfig c31b = gp::find_rung("p31").config();
  EXPECT_EQ(r39.predecessor, "r31_quad_write_out");
  EXPECT_TRUE(c39.combine_dependent);
  EXPECT_EQ(c39.combine_kind, "wgmma");
  EXPECT_EQ(c39.partition_lean, 12);
  EXPECT_EQ(c39.wgmma.tma, 1);
  EXPECT_EQ(c39.partition_tile, c31b.partition_tile);
  EXPECT_EQ(c39.chunk_pairs, c31b.chunk_pairs);
  EXPECT_EQ(c39.wgmma.stages, c31b.wgmma.stages);
  EXPECT_FALSE(c31b.combine_dependent);
  // r40: r38 in tiles of 24, nothing else changed
  const gp::PairsRung& r40 = gp::find_rung("p40");
  gp::PairsConfig c40 = r40.config();
  EXPECT_EQ(r40.predecessor, "r38_dependent_combine");
  EXPECT_EQ(c40.partition_tile, 24);
  EXPECT_EQ(r38.config().partition_tile, 28);
  c40.partition_tile = 28;
  const gp::PairsConfig c38b = r38.config();
  EXPECT_EQ(c40.partition_lean, c38b.partition_lean);
  EXPECT_EQ(c40.combine_dependent, c38b.combine_dependent);
  EXPECT_EQ(c40.combine_kind, c38b.combine_kind);
  EXPECT_EQ(c40.chunk_pairs, c38b.chunk_pairs);
  EXPECT_EQ(c40.wgmma.stages, c38b.wgmma.stages);
  // r41: r38 in tiles of 26, nothing else changed
  const gp::PairsRung& r41 = gp::find_rung("p41");
  gp::PairsConfig c41 = r41.config();
  EXPECT_EQ(r41.predecessor, "r38_dependent_combine");
  EXPECT_EQ(c41.partition_tile, 26);
  c41.partition_tile = 28;
  EXPECT_EQ(c41.partition_lean, c38b.partition_lean);
  EXPECT_EQ(c41.combine_dependent, c38b.combine_dependent);
  EXPECT_EQ(c41.combine_kind, c38b.combine_kind);
  EXPECT_EQ(c41.chunk_pairs, c38b.chunk_pairs);
  EXPECT_EQ(c41.partition_threads, c38b.partition_threads);
  // r42: r41 with the given values' tiles on the full path (variant 14), nothing else changed
  const gp::PairsRung& r42 = gp::find_rung("p42");
  gp::PairsConfig c42 = r42.config();
  EXPECT_EQ(r42.predecessor, "r41_rotated_tiles_26");
  EXPECT_EQ(c42.partition_lean, 14);
  c42.partition_lean = 13;
  const gp::PairsConfig c41b = r41.config();
  EXPECT_EQ(c42.partition_tile, c41b.partition_tile);
  EXPECT_EQ(c42.combine_dependent, c41b.combine_dependent);
  EXPECT_EQ(c42.combine_kind, c41b.combine_kind);
  EXPECT_EQ(c42.chunk_pairs, c41b.chunk_pairs);
  EXPECT_EQ(c42.partition_threads, c41b.partition_threads);
  EXPECT_EQ(c41b.wgmma.window_pad, 0);
  EXPECT_EQ(c41b.wgmma.early_copies, 0);
  // r43: r41 with the window copies padded apart, nothing else changed; r44: r43 with the early copies
  const gp::PairsRung& r43 = gp::find_rung("p43");
  gp::PairsConfig c43 = r43.config();
  EXPECT_EQ(r43.predecessor, "r41_rotated_tiles_26");
  EXPECT_EQ(c43.wgmma.window_pad, 1);
  EXPECT_EQ(c43.wgmma.early_copies, 0);
  c43.wgmma.window_pad = 0;
  EXPECT_EQ(c43.partition_tile, c41b.partition_tile);
  EXPECT_EQ(c43.partition_lean, c41b.partition_lean);
  EXPECT_EQ(c43.combine_dependent, c41b.combine_dependent);
  EXPECT_EQ(c43.combine_kind, c41b.combine_kind);
  EXPECT_EQ(c43.chunk_pairs, c41b.chunk_pairs);
  EXPECT_EQ(c43.wgmma.stages, c41b.wgmma.stages);
  EXPECT_EQ(c43.wgmma.warpgroups, c41b.wgmma.warpgroups);
  const gp::PairsRung& r44 = gp::find_rung("p44");
  gp::PairsConfig c44 = r44.config();
  EXPECT_EQ(r44.predecessor, "r43_padded_windows");
  EXPECT_EQ(c44.wgmma.window_pad, 1);
  EXPECT_EQ(c44.wgmma.early_copies, 1);
  c44.wgmma.early_copies = 0;
  const gp::PairsConfig c43b = r43.config();
  EXPECT_EQ(c44.partition_tile, c43b.partition_tile);
  EXPECT_EQ(c44.partition_lean, c43b.partition_lean);
  EXPECT_EQ(c44.combine_dependent, c43b.combine_dependent);
  EXPECT_EQ(c44.combine_kind, c43b.combine_kind);
  EXPECT_EQ(c44.wgmma.window_pad, c43b.wgmma.window_pad);
  EXPECT_EQ(c43b.wgmma.early_rows, 0);
  // r45: r44 with the rows loaded early, nothing else changed
  const gp::PairsRung& r45 = gp::find_rung("p45");
  gp::PairsConfig c45 = r45.config();
  EXPECT_EQ(r45.predecessor, "r44_early_copies");
  EXPECT_EQ(c45.wgmma.early_rows, 1);
  c45.wgmma.early_rows = 0;
  const gp::PairsConfig c44b = r44.config();
  EXPECT_EQ(c44b.wgmma.early_rows, 0);
  EXPECT_EQ(c45.wgmma.early_copies, c44b.wgmma.early_copies);
  EXPECT_EQ(c45.wgmma.window_pad, c44b.wgmma.window_pad);
  EXPECT_EQ(c45.partition_tile, c44b.partition_tile);
  EXPECT_EQ(c45.partition_lean, c44b.partition_lean);
  EXPECT_EQ(c45.combine_dependent, c44b.combine_dependent);
  EXPECT_EQ(c45.combine_kind, c44b.combine_kind);
  // r46: r43 with the units split by a segment's weight of 8, nothing else changed; r47: r46 with 12
  const gp::PairsRung& r46 = gp::find_rung("p46");
  gp::PairsConfig c46 = r46.config();
  EXPECT_EQ(r46.predecessor, "r43_padded_windows");
  EXPECT_EQ(c43b.wgmma.segment_weight, 0);
  EXPECT_EQ(c46.wgmma.segment_weight, 8);
  c46.wgmma.segment_weight = 0;
  EXPECT_EQ(c46.wgmma.window_pad, c43b.wgmma.window_pad);
  EXPECT_EQ(c46.wgmma.early_copies, c43b.wgmma.early_copies);
  EXPECT_EQ(c46.wgmma.early_rows, c43b.wgmma.early_rows);
  EXPECT_EQ(c46.wgmma.stages, c43b.wgmma.stages);
  EXPECT_EQ(c46.wgmma.warpgroups, c43b.wgmma.warpgroups);
  EXPECT_EQ(c46.partition_tile, c43b.partition_tile);
  EXPECT_EQ(c46.partition_lean, c43b.partition_lean);
  EXPECT_EQ(c46.combine_dependent, c43b.combine_dependent);
  EXPECT_EQ(c46.combine_kind, c43b.combine_kind);
  EXPECT_EQ(c46.chunk_pairs, c43b.chunk_pairs);
  const gp::PairsRung& r47 = gp::find_rung("p47");
  gp::PairsConfig c47 = r47.config();
  EXPECT_EQ(r47.predecessor, "r46_weighted_split");
  EXPECT_EQ(c47.wgmma.segment_weight, 12);
  c47.wgmma.segment_weight = 8;
  const gp::PairsConfig c46b = r46.config();
  EXPECT_EQ(c47.wgmma.window_pad, c46b.wgmma.window_pad);
  EXPECT_EQ(c47.partition_tile, c46b.partition_tile);
  EXPECT_EQ(c47.combine_dependent, c46b.combine_dependent);
  EXPECT_EQ(c47.combine_kind, c46b.combine_kind);
  // r48: r46 with the lean prologue, nothing else changed
  const gp::PairsRung& r48 = gp::find_rung("p48");
  gp::PairsConfig c48 = r48.config();
  EXPECT_EQ(r48.predecessor, "r46_weighted_split");
  EXPECT_EQ(c46b.wgmma.lean_prologue, 0);
  EXPECT_EQ(c48.wgmma.lean_prologue, 1);
  c48.wgmma.lean_prologue = 0;
  EXPECT_EQ(c48.wgmma.segment_weight, c46b.wgmma.segment_weight);
  EXPECT_EQ(c48.wgmma.window_pad, c46b.wgmma.window_pad);
  EXPECT_EQ(c48.wgmma.early_copies, c46b.wgmma.early_copies);
  EXPECT_EQ(c48.wgmma.stages, c46b.wgmma.stages);
  EXPECT_EQ(c48.partition_tile, c46b.partition_tile);
  EXPECT_EQ(c48.partition_lean, c46b.partition_lean);
  EXPECT_EQ(c48.combine_dependent, c46b.combine_dependent);
  EXPECT_EQ(c48.combine_kind, c46b.combine_kind);
  // r49: r46 with V's copies made on the host, nothing else changed
  const gp::PairsRung& r49 = gp::find_rung("p49");
  gp::PairsConfig c49 = r49.config();
  EXPECT_EQ(r49.predecessor, "r46_weighted_split");
  EXPECT_EQ(c46b.wgmma.v_image, 0);
  EXPECT_EQ(c49.wgmma.v_image, 1);
  EXPECT_EQ(c49.wgmma.lean_prologue, 0);
  EXPECT_EQ(c49.wgmma.segment_weight, c46b.wgmma.segment_weight);
  EXPECT_EQ(c49.wgmma.window_pad, c46b.wgmma.window_pad);
  EXPECT_EQ(c49.wgmma.stages, c46b.wgmma.stages);
  EXPECT_EQ(c49.partition_tile, c46b.partition_tile);
  EXPECT_EQ(c49.partition_lean, c46b.partition_lean);
  EXPECT_EQ(c49.combine_dependent, c46b.combine_dependent);
  EXPECT_EQ(c49.combine_kind, c46b.combine_kind);
  // r50: r49 with a segment weighed as 6, nothing else changed
  const gp::PairsRung& r50 = gp::find_rung("p50");
  gp::PairsConfig c50 = r50.config();
  EXPECT_EQ(r50.predecessor, "r49_v_image");
  EXPECT_EQ(c49.wgmma.segment_weight, 8);
  EXPECT_EQ(c50.wgmma.segment_weight, 6);
  EXPECT_EQ(c50.wgmma.v_image, c49.wgmma.v_image);
  EXPECT_EQ(c50.wgmma.lean_prologue, c49.wgmma.lean_prologue);
  EXPECT_EQ(c50.wgmma.window_pad, c49.wgmma.window_pad);
  EXPECT_EQ(c50.wgmma.stages, c49.wgmma.stages);
  EXPECT_EQ(c50.partition_tile, c49.partition_tile);
  EXPECT_EQ(c50.partition_lean, c49.partition_lean);
  EXPECT_EQ(c50.combine_dependent, c49.combine_dependent);
  EXPECT_EQ(c50.combine_kind, c49.combine_kind);
  // r51: r49 with the idle warpgroups skipped and the split weighing their stages 1/8 lighter each; r52: discount 2
  const gp::PairsRung& r51 = gp::find_rung("p51");
  const gp::PairsRung& r52 = gp::find_rung("p52");
  gp::PairsConfig c51 = r51.config(), c52 = r52.config();
  EXPECT_EQ(r51.predecessor, "r49_v_image");
  EXPECT_EQ(r52.predecessor, "r51_idle_warpgroups");
  EXPECT_EQ(c49.wgmma.skip_idle, 0);
  EXPECT_EQ(c49.wgmma.idle_discount, 0);
  EXPECT_EQ(c51.wgmma.skip_idle, 1);
  EXPECT_EQ(c51.wgmma.idle_discount, 1);
  EXPECT_EQ(c52.wgmma.skip_idle, 1);
  EXPECT_EQ(c52.wgmma.idle_discount, 2);
  for (const gp::PairsConfig* c : {&c51, &c52}) {
    EXPECT_EQ(c->wgmma.segment_weight, c49.wgmma.segment_weight);
    EXPECT_EQ(c->wgmma.v_image, c49.wgmma.v_image);
    EXPECT_EQ(c->wgmma.lean_prologue, c49.wgmma.lean_prologue);
    EXPECT_EQ(c->wgmma.window_pad, c49.wgmma.window_pad);
    EXPECT_EQ(c->wgmma.stages, c49.wgmma.stages);
    EXPECT_EQ(c->partition_tile, c49.partition_tile);
    EXPECT_EQ(c->partition_lean, c49.partition_lean);
    EXPECT_EQ(c->combine_dependent, c49.combine_dependent);
    EXPECT_EQ(c->combine_kind, c49.combine_kind);
  }
  // r53: r49 with the last column tile on the epilogue's fast path, nothing else changed
  const gp::PairsRung& r53 = gp::find_rung("p53");
  gp::PairsConfig c53 = r53.config();
  EXPECT_EQ(r53.predecessor, "r49_v_image");
  EXPECT_EQ(c49.wgmma.edge_fast, 0);
  EXPECT_EQ(c51.wgmma.edge_fast, 0);
  EXPECT_EQ(c53.wgmma.edge_fast, 1);
  EXPECT_EQ(c53.wgmma.skip_idle, 0);
  EXPECT_EQ(c53.wgmma.idle_discount, 0);
  EXPECT_EQ(c53.wgmma.segment_weight, c49.wgmma.segment_weight);
  EXPECT_EQ(c53.wgmma.v_image, c49.wgmma.v_image);
  EXPECT_EQ(c53.wgmma.window_pad, c49.wgmma.window_pad);
  EXPECT_EQ(c53.wgmma.stages, c49.wgmma.stages);
  EXPECT_EQ(c53.partition_tile, c49.partition_tile);
  EXPECT_EQ(c53.combine_dependent, c49.combine_dependent);
  EXPECT_EQ(c53.combine_kind, c49.combine_kind);
  // r54: r53 with the split found once a block in 32-bit arithmetic, nothing else changed
  const gp::PairsRung& r54 = gp::find_rung("p54");
  gp::PairsConfig c54 = r54.config();
  EXPECT_EQ(r54.predecessor, "r53_edge_tile_fast");
  EXPECT_EQ(c53.wgmma.lean_split, 0);
  EXPECT_EQ(c54.wgmma.lean_split, 1);
  EXPECT_EQ(c54.wgmma.edge_fast, 1);
  EXPECT_EQ(c54.wgmma.skip_idle, 0);
  EXPECT_EQ(c54.wgmma.segment_weight, c53.wgmma.segment_weight);
  EXPECT_EQ(c54.wgmma.v_image, c53.wgmma.v_image);
  EXPECT_EQ(c54.wgmma.window_pad, c53.wgmma.window_pad);
  EXPECT_EQ(c54.partition_tile, c53.partition_tile);
  EXPECT_EQ(c54.combine_dependent, c53.combine_dependent);
  EXPECT_EQ(c54.combine_kind, c53.combine_kind);
  // r55: r54 with r51's idle warpgroups skipping their stages (discount 1), nothing else changed
  const gp::PairsRung& r55 = gp::find_rung("p55");
  gp::PairsConfig c55 = r55.config();
  EXPECT_EQ(r55.predecessor, "r54_lean_split");
  EXPECT_EQ(c55.wgmma.skip_idle, 1);
  EXPECT_EQ(c55.wgmma.idle_discount, 1);
  EXPECT_EQ(c55.wgmma.lean_split, c54.wgmma.lean_split);
  EXPECT_EQ(c55.wgmma.ahead, c54.wgmma.ahead);
  EXPECT_EQ(c55.wgmma.edge_fast, c54.wgmma.edge_fast);
  EXPECT_EQ(c55.wgmma.segment_weight, c54.wgmma.segment_weight);
  EXPECT_EQ(c55.wgmma.v_image, c54.wgmma.v_image);
  EXPECT_EQ(c55.wgmma.window_pad, c54.wgmma.window_pad);
  EXPECT_EQ(c55.wgmma.stages, c54.wgmma.stages);
  EXPECT_EQ(c55.partition_tile, c54.partition_tile);
  EXPECT_EQ(c55.combine_dependent, c54.combine_dependent);
  EXPECT_EQ(c55.combine_kind, c54.combine_kind);
  // r56 .. r59: r54 with four, three, two and one stages copied ahead, nothing else changed
  EXPECT_EQ(c54.wgmma.ahead, 0);
  for (const auto& [id, pred, ahead] : {std::tuple{"p56", "r54_lean_split", 4}, std::tuple{"p57", "r56_slack_three", 3},
                                        std::tuple{"p58", "r57_slack_four", 2}, std::tuple{"p59", "r58_slack_five", 1}}) {
    const gp::PairsRung& r = gp::find_rung(id);
    gp::PairsConfig c = r.config();
    EXPECT_EQ(r.predecessor, pred) << id;
    EXPECT_EQ(c.wgmma.ahead, ahead) << id;
    EXPECT_EQ(c.wgmma.lean_split, 1) << id;
    EXPECT_EQ(c.wgmma.skip_idle, 0) << id;
    EXPECT_EQ(c.wgmma.idle_discount, 0) << id;
    EXPECT_EQ(c.wgmma.early_copies, c54.wgmma.early_copies) << id;
    EXPECT_EQ(c.wgmma.early_rows, c54.wgmma.early_rows) << id;
    EXPECT_EQ(c.wgmma.edge_fast, c54.wgmma.edge_fast) << id;
    EXPECT_EQ(c.wgmma.segment_weight, c54.wgmma.segment_weight) << id;
    EXPECT_EQ(c.wgmma.v_image, c54.wgmma.v_image) << id;
    EXPECT_EQ(c.wgmma.stages, c54.wgmma.stages) << id;
    EXPECT_EQ(c.partition_tile, c54.partition_tile) << id;
    EXPECT_EQ(c.combine_dependent, c54.combine_dependent) << id;
    EXPECT_EQ(c.combine_kind, c54.combine_kind) << id;
    EXPECT_FALSE(c.spread_given) << id;
  }
  // r60: r57 with the given values' pairs in shorter runs, nothing else changed
  const gp::PairsRung& r60 = gp::find_rung("p60");
  const gp::PairsConfig c57 = gp::find_rung("p57").config(), c60 = r60.config();
  EXPECT_EQ(r60.predecessor, "r57_slack_four");
  EXPECT_TRUE(c60.spread_given);
  EXPECT_EQ(c60.wgmma.ahead, c57.wgmma.ahead);
  EXPECT_EQ(c60.wgmma.lean_split, c57.wgmma.lean_split);
  EXPECT_EQ(c60.wgmma.skip_idle, c57.wgmma.skip_idle);
  EXPECT_EQ(c60.wgmma.segment_weight, c57.wgmma.segment_weight);
  EXPECT_EQ(c60.partition_lean, c57.partition_lean);
  EXPECT_EQ(c60.partition_tile, c57.partition_tile);
  EXPECT_EQ(c60.partition_threads, c57.partition_threads);
  EXPECT_EQ(c60.chunk_pairs, c57.chunk_pairs);
  EXPECT_EQ(c60.hist_threads, c57.hist_threads);
  EXPECT_EQ(c60.combine_dependent, c57.combine_dependent);
  EXPECT_EQ(c60.combine_kind, c57.combine_kind);
  // r61: r32 with the same spread, nothing else changed
  const gp::PairsRung& r61 = gp::find_rung("p61");
  const gp::PairsConfig c32 = gp::find_rung("p32").config(), c61 = r61.config();
  EXPECT_EQ(r61.predecessor, "r32_quad_tiles_24");
  EXPECT_FALSE(c32.spread_given);
  EXPECT_TRUE(c61.spread_given);
  EXPECT_EQ(c61.partition_lean, c32.partition_lean);
  EXPECT_EQ(c61.partition_tile, c32.partition_tile);
  EXPECT_EQ(c61.partition_threads, c32.partition_threads);
  EXPECT_EQ(c61.chunk_pairs, c32.chunk_pairs);
  EXPECT_EQ(c61.hist_threads, c32.hist_threads);
  EXPECT_EQ(c61.combine_dependent, c32.combine_dependent);
  EXPECT_EQ(c61.combine_kind, c32.combine_kind);
  EXPECT_EQ(c61.wgmma.stages, c32.wgmma.stages);
  // r62: r57 with the histograms launched as the partition's blocks start; r63: r62 with the cursors one a line
  const gp::PairsRung &r62 = gp::find_rung("p62"), &r63 = gp::find_rung("p63");
  const gp::PairsConfig c62 = r62.config(), c63 = r63.config();
  EXPECT_EQ(r62.predecessor, "r57_slack_four");
  EXPECT_EQ(r63.predecessor, "r62_count_trigger");
  EXPECT_FALSE(c57.count_trigger);
  EXPECT_FALSE(c57.cursor_lines);
  EXPECT_TRUE(c62.count_trigger);
  EXPECT_FALSE(c62.cursor_lines);
  EXPECT_TRUE(c63.count_trigger);
  EXPECT_TRUE(c63.cursor_lines);
  for (const gp::PairsConfig* c : {&c62, &c63}) {
    EXPECT_FALSE(c->spread_given);
    EXPECT_EQ(c->wgmma.ahead, c57.wgmma.ahead);
    EXPECT_EQ(c->wgmma.lean_split, c57.wgmma.lean_split);
    EXPECT_EQ(c->partition_lean, c57.partition_lean);
    EXPECT_EQ(c->partition_tile, c57.partition_tile);
    EXPECT_EQ(c->partition_threads, c57.partition_threads);
    EXPECT_EQ(c->chunk_pairs, c57.chunk_pairs);
    EXPECT_EQ(c->combine_dependent, c57.combine_dependent);
    EXPECT_EQ(c->combine_kind, c57.combine_kind);
  }
  // r64: r60 with the runs in whole warps, nothing else changed
  const gp::PairsRung& r64 = gp::find_rung("p64");
  const gp::PairsConfig c64 = r64.config();
  EXPECT_EQ(r64.predecessor, "r60_spread_given");
  EXPECT_TRUE(c64.tail_runs);
  EXPECT_FALSE(c60.tail_runs);
  EXPECT_TRUE(c64.spread_given);
  EXPECT_FALSE(c64.count_trigger);
  EXPECT_FALSE(c64.cursor_lines);
  EXPECT_EQ(c64.wgmma.ahead, c60.wgmma.ahead);
  EXPECT_EQ(c64.partition_lean, c60.partition_lean);
  EXPECT_EQ(c64.partition_tile, c60.partition_tile);
  EXPECT_EQ(c64.chunk_pairs, c60.chunk_pairs);
  EXPECT_EQ(c64.combine_kind, c60.combine_kind);
  // r65: r64 with r62's trigger; r66: r61 with r64's whole-warp runs
  const gp::PairsRung &r65 = gp::find_rung("p65"), &r66 = gp::find_rung("p66");
  const gp::PairsConfig c65 = r65.config(), c66 = r66.config();
  EXPECT_EQ(r65.predecessor, "r64_whole_warp_runs");
  EXPECT_TRUE(c65.count_trigger);
  EXPECT_TRUE(c65.tail_runs);
  EXPECT_TRUE(c65.spread_given);
  EXPECT_FALSE(c65.cursor_lines);
  EXPECT_EQ(c65.partition_tile, c64.partition_tile);
  EXPECT_EQ(r66.predecessor, "r61_spread_given_10e9");
  EXPECT_TRUE(c66.tail_runs);
  EXPECT_TRUE(c66.spread_given);
  EXPECT_FALSE(c66.count_trigger);
  EXPECT_EQ(c66.partition_lean, c61.partition_lean);
  EXPECT_EQ(c66.partition_tile, c61.partition_tile);
  EXPECT_EQ(c66.combine_kind, c61.combine_kind);
  // r67: r65 with the histograms' previous maximum read early, nothing else changed
  const gp::PairsRung& r67 = gp::find_rung("p67");
  const gp::PairsConfig c67 = r67.config();
  EXPECT_EQ(r67.predecessor, "r65_whole_warps_trigger");
  EXPECT_FALSE(c65.hist_early_max);
  EXPECT_TRUE(c67.hist_early_max);
  EXPECT_EQ(c67.count_trigger, c65.count_trigger);
  EXPECT_EQ(c67.tail_runs, c65.tail_runs);
  EXPECT_EQ(c67.spread_given, c65.spread_given);
  EXPECT_EQ(c67.cursor_lines, c65.cursor_lines);
  EXPECT_EQ(c67.partition_tile, c65.partition_tile);
  EXPECT_EQ(c67.combine_kind, c65.combine_kind);
  // r68: r65 launched kernel by kernel (no graph), nothing else changed
  const gp::PairsRung& r68 = gp::find_rung("p68");
  const gp::PairsConfig c68 = r68.config();
  EXPECT_EQ(r68.predecessor, "r65_whole_warps_trigger");
  EXPECT_TRUE(c65.graph);
  EXPECT_FALSE(c68.graph);
  EXPECT_EQ(c68.count_trigger, c65.count_trigger);
  EXPECT_EQ(c68.tail_runs, c65.tail_runs);
  EXPECT_EQ(c68.spread_given, c65.spread_given);
  EXPECT_EQ(c68.hist_early_max, c65.hist_early_max);
  EXPECT_EQ(c68.partition_tile, c65.partition_tile);
  EXPECT_EQ(c68.combine_kind, c65.combine_kind);
  EXPECT_EQ(c68.wgmma.ahead, c65.wgmma.ahead);
  // r69: r65 with the combine released by the histograms' count, nothing else changed
  const gp::PairsRung& r69 = gp::find_rung("p69");
  const gp::PairsConfig c69 = r69.config();
  EXPECT_EQ(r69.predecessor, "r65_whole_warps_trigger");
  EXPECT_FALSE(c65.combine_flags);
  EXPECT_TRUE(c69.combine_flags);
  EXPECT_TRUE(c69.graph);
  EXPECT_TRUE(c69.combine_dependent);
  EXPECT_EQ(c69.count_trigger, c65.count_trigger);
  EXPECT_EQ(c69.tail_runs, c65.tail_runs);
  EXPECT_EQ(c69.hist_early_max, c65.hist_early_max);
  EXPECT_EQ(c69.combine_kind, c65.combine_kind);
}

TEST(Abc471gPairsSolver, WithoutAGpuTheErrorIsPlain) {
  if (joseki::gpu::availability().ok) GTEST_SKIP() << "a GPU is present: covered by the GPU tests";
  const ab::Problem p = random_problem(100, 10, 1, 1, 1);
  EXPECT_THROW(ab::find_solver("gpu-pairs").solve(p, {}), joseki::GpuUnavailable);
  EXPECT_THROW(gp::startup::await_context(0), joseki::GpuUnavailable);
  if (!std::filesystem::exists("/dev/nvidiactl")) {
    EXPECT_FALSE(ab::gpu_presence_reason().empty());
  }
}

TEST(Abc471gPairsMath, AutoPairsPerThread) {
  EXPECT_EQ(gp::auto_pairs_per_thread(0, 132), 16u);
  EXPECT_EQ(gp::auto_pairs_per_thread(7'000'000, 132), 26u);
  EXPECT_EQ(gp::auto_pairs_per_thread(0xFFFFFFFFULL, 132), 15888u);
  EXPECT_LE(gp::auto_pairs_per_thread(1ULL << 50, 1), 1u << 20);
}

TEST(Abc471gPairsProgress, TimeLeftIsReadableAtAnySize) {
  EXPECT_EQ(gp::format_duration(4.24), "4.2 s");
  EXPECT_EQ(gp::format_duration(185), "3 min 05 s");
  EXPECT_EQ(gp::format_duration(2 * 3600 + 7 * 60), "2 h 07 min");
  EXPECT_EQ(gp::format_duration(13 * 86400 + 22 * 3600), "13 d 22 h");  // N = 10^15 on 2 cores (issue 21)
  EXPECT_EQ(gp::progress_line("count", 1, 100000, 12.0, 10).substr(0, 25), "count [..........]   0%  ");
  EXPECT_NE(gp::progress_line("count", 1, 100000, 12.0, 10).find("13 d 21 h left"), std::string::npos)
      << gp::progress_line("count", 1, 100000, 12.0, 10);
}

TEST(Abc471gPairsProgress, LineFormat) {
  EXPECT_EQ(gp::progress_line("count", 0, 10, 0, 10), "count [..........]   0%");
  EXPECT_EQ(gp::progress_line("count", 4, 10, 2.0, 10), "count [####......]  40%  3.0 s left");
  EXPECT_EQ(gp::progress_line("count", 10, 10, 5.0, 10), "count [##########] 100%");
  gp::Progress quiet("x", 10, false);
  quiet.update(5);
  EXPECT_FALSE(quiet.drawn());
}

}  // namespace
