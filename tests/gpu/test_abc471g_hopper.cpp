// Issue 19's gpu-pairs pieces on the GPU: the generation floor's sum against the CPU generator
// (sizes off the block and the run, with and without given values), and r05 (the whole solve as one
// CUDA graph) and r06 (the GEMM combine in row panels) exact over repeated solves, after poison, with
// and without spills, fused or not (several chunks), panels of equal and unequal widths, and with the
// graph really captured and replayed. Skipped, visibly, without a GPU.
#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/bench_hopper.hpp"
#include "experiments/abc471g/gpu_pairs/combine_trace.hpp"
#include "experiments/abc471g/gpu_pairs/dsmem_plan.hpp"
#include "experiments/abc471g/gpu_pairs/ladder.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/gpu_pairs/reference.hpp"
#include "experiments/abc471g/gpu_pairs/test_support.hpp"
#include "gpu_test.hpp"
#include "measure/errors.hpp"
#include "measure/needs.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/buffer.hpp"
#include "experiments/abc471g/gpu_pairs/hopper_kernels.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"
#endif

namespace {

namespace ab = joseki::abc471g;
namespace gp = joseki::abc471g::pairs;
using gp::testing::random_problem;

#ifdef JOSEKI_HAVE_CUDA
// wants[i]: the CPU's answer to problems[i] (its pair table combined directly); then the shared test vectors
// that the partition count takes (padded K <= its limit) appended with their official answers. Returns how many
// vectors were loaded and how many appended.
std::pair<std::size_t, std::size_t> answers_and_vectors(std::vector<ab::Problem>& problems, std::vector<ab::Answer>& wants) {
  for (const ab::Problem& p : problems) {
    const std::uint32_t kp = gp::padded_k(p.k);
    wants.push_back(gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p));
  }
  const auto vectors = gp::testing::load_vectors();
  std::size_t appended = 0;
  for (const auto& v : vectors)
    if (gp::padded_k(v.problem.k) <= gp::PARTITION_MAX_KP) {
      problems.push_back(v.problem);
      wants.push_back(v.answer);
      ++appended;
    }
  return {vectors.size(), appended};
}

// Three solves on dev, poison before the first and the third (a solve must not lean on the last one's output), each
// equal to want; `what` names the case in a failure (the solve's index is added).
void expect_three_solves(gp::PairsDevice& dev, const ab::Answer& want, const std::string& what) {
  joseki::cuda::Stream s;
  for (int rep = 0; rep < 3; ++rep) {
    if (rep != 1) dev.poison(s);
    dev.enqueue_solve(s);
    EXPECT_EQ(dev.download(s), want) << "solve " << rep << ", " << what;
  }
}

void expect_floor_sums(const std::vector<ab::Problem>& problems) {
  for (const ab::Problem& p : problems) {
    joseki::cuda::DeviceBuffer<std::uint32_t> d_b(std::max<std::size_t>(p.b.size(), 1));
    if (!p.b.empty()) d_b.copy_from_host(p.b.data(), p.b.size());
    joseki::cuda::DeviceBuffer<std::uint32_t> d_sum(1);
    joseki::cuda::Stream s;
    for (const std::uint64_t run : {std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{1000}, p.n + 5})
     for (const bool lean : {false, true}) {  // r03's generator and r16's
      gp::FloorArgs a;
      a.lean = lean;
      a.d_b = d_b.data();
      a.m = p.m();
      a.seed = p.seed;
      a.k = p.k;
      a.fastmod_m = gp::make_fastmod(p.k).m;
      a.n = p.n;
      a.run = run;
      a.d_sum = d_sum.data();
      d_sum.poison(s);
      gp::launch_generate_floor(a, s);
      std::uint32_t got = 0;
      d_sum.copy_to_host(&got, 1, s);
      s.sync();
      const std::uint32_t want = gp::cpu_element_sum32(p);
      EXPECT_EQ(got, want) << "N = " << p.n << ", K = " << p.k << ", M = " << p.m() << ", run " << run << ", lean " << lean;
      a.zero_sum = false;  // as timed: no memset, the sum accumulates
      gp::launch_generate_floor(a, s);
      d_sum.copy_to_host(&got, 1, s);
      s.sync();
      EXPECT_EQ(got, static_cast<std::uint32_t>(2u * want)) << "a second run without zeroing, N = " << p.n;
    }
  }
}
#endif

TEST(Abc471gHopperGpu, SmallFloorSumMatchesTheCpuGenerator) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  expect_floor_sums({random_problem(1, 1, 1, 1, 2), random_problem(2, 37, 0, 3, 4), random_problem(1000, 7, 1000, 5, 6),
                     random_problem(4099, 31, 17, 7, 8), random_problem(100003, 2300, 5000, 9, 10)});
#endif
}

TEST(Abc471gHopperGpu, MaxCaseFloorSumMatchesTheCpuGenerator) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  expect_floor_sums({random_problem(7'000'001, 2300, 100'000, 11, 12)});
#endif
}

TEST(Abc471gHopperGpu, SmallWholeGraphRepeatedSolvesStayExact) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  if (auto why = joseki::measure::unmet(gp::combiner_needs(gp::Combiner::Gemm, 2300), joseki::gpu::needs_facts(0)))
    GTEST_SKIP() << *why;
  const ab::Problem problems[] = {random_problem(2, 37, 1, 3, 4), random_problem(4'099, 37, 17, 5, 6),
                                  random_problem(100'003, 37, 5'000, 7, 8), random_problem(300'007, 300, 100'000, 9, 10),
                                  gp::testing::heavy_cell_problem(70'000, 13, 4, 70'000)};
  for (const ab::Problem& p : problems) {
    const std::uint32_t kp = gp::padded_k(p.k);
    const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
    for (int variant = 0; variant < 6; ++variant) {
      gp::PairsConfig c;
      c.combiner = variant == 3 ? gp::Combiner::TensorCore : gp::Combiner::Gemm;
      c.graph = variant != 5;
      c.bucket_cap = variant == 1 ? 8u : 0u;            // spills into the table
      if (variant == 2) c.chunk_pairs = 1'000;          // several chunks: not fused, the table zeroed in the graph
      if (variant == 4) c.gemm_panels = 2;              // r06: K = 300 -> panels of 256 and 128 rows
      if (variant == 5) c.gemm_panels = 3;              // r06 without the graph: 3 panels of 128 rows at K = 300
      gp::PairsDevice dev(p, c, 0);
      if (variant >= 4 && dev.gemm() && kp >= 256) {
        EXPECT_GT(dev.gemm_panel_rows(), 0u) << "cuBLASLt took the panels' shapes, K = " << p.k;
      }
      joseki::cuda::Stream s;
      for (int rep = 0; rep < 4; ++rep) {
        if (rep == 2) dev.poison(s);  // the next solve runs kernel by kernel (zeroing), then the graph again
        dev.enqueue_solve(s);
        EXPECT_EQ(dev.download(s), want) << "solve " << rep << ", variant " << variant << ", N = " << p.n
                                         << ", K = " << p.k;
      }
      if (c.graph) {
        EXPECT_EQ(dev.graph_unavailable(), "");
        EXPECT_EQ(dev.graph_captures(), 1) << "captured once, replayed after";
        EXPECT_GE(dev.graph_kernel_nodes(), 2) << "variant " << variant;
      }
    }
  }
#endif
}

// r07 and r16: the partition kernels (r03's in tiles of 20 and 24 pairs, r16's lean one in tiles of 16/18
// and 24), the table cell by cell against the CPU's: runs of one tile, of many tiles and a ragged last tile,
// given values inside tiles, spilling buckets, several chunks, and the whole solve.
TEST(Abc471gHopperGpu, SmallPartitionWideTilesAreExact) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  for (const ab::Problem& p : {random_problem(4'099, 31, 17, 7, 8), random_problem(100'003, 37, 5'000, 9, 10),
                               random_problem(300'007, 300, 100'000, 11, 12)}) {
    const std::uint32_t kp = gp::padded_k(p.k);
    const std::vector<std::uint64_t> want = gp::cpu_pair_table(p, kp);
    for (const std::uint32_t ppt : {0u, 7u, 24u, 100u})
      for (const std::uint32_t cap : {0u, 8u})
        for (const int v : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {  // r03's kernel in 20, 24; r16's 1-4 in 16 (18), 24; 1 in 32
          const int lean = v < 2 ? 0 : v == 8 ? 1 : v > 8 ? 4 : v / 2;
          const int tile = v < 2 ? (v == 0 ? 20 : 24) : v == 8 ? 32 : v > 8 ? (v == 9 ? 0 : 24) : (v % 2 == 0 ? 0 : 24);
          gp::PairsConfig c;
          c.partition_tile = tile;
          c.partition_lean = lean;
          c.fuse = false;  // the table, not the planes
          c.pairs_per_thread = ppt;
          c.bucket_cap = cap;
          if (ppt == 100) c.chunk_pairs = 7'777;  // several chunks
          gp::PairsDevice dev(p, c, 0);
          ASSERT_EQ(dev.counter(), gp::Counter::Partition);
          joseki::cuda::Stream s;
          dev.poison(s);
          dev.enqueue_count(s);
          EXPECT_EQ(dev.download_table(s), want)
              << "N = " << p.n << ", K = " << p.k << ", ppt " << ppt << ", cap " << cap << ", tile " << tile << ", lean " << lean;
        }
  }
  if (auto why = joseki::measure::unmet(gp::combiner_needs(gp::Combiner::Gemm, 2300), joseki::gpu::needs_facts(0)))
    GTEST_SKIP() << "tables exact; the whole solve needs " << *why;
  const ab::Problem p = random_problem(300'007, 300, 100'000, 11, 12);
  const std::uint32_t kp = gp::padded_k(p.k);
  const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
  gp::PairsConfig c;
  c.combiner = gp::Combiner::Gemm;
  c.partition_tile = 24;
  c.graph = true;
  c.gemm_panels = 3;
  gp::PairsDevice dev(p, c, 0);
  joseki::cuda::Stream s;
  dev.poison(s);
  for (int rep = 0; rep < 3; ++rep) {
    dev.enqueue_solve(s);
    EXPECT_EQ(dev.download(s), want) << "solve " << rep;
  }
#endif
}

// r16 (the lean partition kernel) as the ladder configures it: whole solves exact over repeated solves with a
// poison between, given values inside tiles, a heavy cell, spilling buckets, several chunks, the test vectors.
TEST(Abc471gHopperGpu, LeanCountSolvesAreExact) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  const gp::PairsRung& r16 = gp::find_rung("p16");
  if (auto why = joseki::measure::unmet(r16.needs, joseki::gpu::needs_facts(0))) GTEST_SKIP() << "r16 " << *why;
  std::vector<ab::Problem> problems = {random_problem(2, 37, 1, 3, 4), random_problem(4'099, 31, 17, 7, 8),
                                       random_problem(100'003, 37, 5'000, 7, 8),
                                       random_problem(300'007, 300, 100'000, 9, 10),
                                       gp::testing::heavy_cell_problem(70'001, 13, 4, 70'000)};
  std::vector<ab::Answer> wants;
  const std::size_t randoms = problems.size();
  const auto [loaded, appended] = answers_and_vectors(problems, wants);
  for (std::size_t i = 0; i < problems.size(); ++i)
    for (int variant = 0; variant < (i < randoms ? 12 : 4); ++variant) {
      gp::PairsConfig c = r16.config();
      c.progress = false;
      c.partition_lean = 1 + variant % 4;  // r16's kernel and its variants 2, 3 and 4
      if (variant / 4 == 1) c.bucket_cap = 8;  // spills into the table
      if (variant / 4 == 2) {                  // several chunks, r07's tiles
        c.chunk_pairs = 1'000;
        c.partition_tile = 24;
      }
      gp::PairsDevice dev(problems[i], c, 0);
      expect_three_solves(dev, wants[i],
                          "variant " + std::to_string(variant) + ", N = " + std::to_string(problems[i].n) + ", K = " +
                              std::to_string(problems[i].k) + (i >= randoms ? " (test vector)" : ""));
    }
  if (loaded == 0) GTEST_SKIP() << "random problems exact; test vectors not found (../shared/testdata/abc471g)";
  EXPECT_GT(appended, 0u) << "no shared test vector with K <= 4096";
#endif
}

// Session 10's spreads (PairsConfig::slices_per_sm: fewer, larger slices, up to 2^16 cells a histogram block)
// under r03's kernel and r16's (variant 4, blocks of 512 and of 256): the table cell by cell against the CPU's
// (spilling buckets, several chunks, given values inside tiles), whole fused solves and the test vectors, and
// the configurations PairsDevice refuses.
TEST(Abc471gHopperGpu, SliceSpreadsAreExact) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  for (const ab::Problem& p : {random_problem(4'099, 31, 17, 7, 8), random_problem(300'007, 2300, 100'000, 11, 12)}) {
    const std::uint32_t kp = gp::padded_k(p.k);
    const std::vector<std::uint64_t> want = gp::cpu_pair_table(p, kp);
    // Kernel shapes: {partition_lean, partition_tile, partition_threads, hist_threads}. r03's kernel; r16's in
    // tiles of 16 (18) and 24; r16's in blocks of 256; r16's with histogram blocks of 1024; r16's in blocks of
    // 128 in tiles of 16 (18) and 24; tiles of 32, three blocks of 256 a SM; tiles of 28 in blocks of 256;
    // variants 5 .. 12 (r20 .. r24, r28, r30, r31; blocks of 256) in tiles of 16 (18), 24 and 28.
    struct Shape {
      int lean, tile, threads, hist;
    };
    std::vector<Shape> shapes = {{0, 0, 512, 512},   {4, 0, 512, 512},  {4, 24, 512, 512}, {4, 0, 256, 512},
                                 {4, 24, 512, 1024}, {4, 0, 128, 512},  {4, 24, 128, 512}, {4, 32, 256, 512},
                                 {4, 28, 256, 512}};
    for (const int lean : {5, 6, 7, 8, 9, 10, 11, 12})
      for (const int tile : {0, 24, 28}) shapes.push_back({lean, tile, 256, 512});
    for (const std::uint32_t spread : {1u, 2u})
      for (std::size_t v = 0; v < shapes.size(); ++v)
        for (const std::uint32_t cap : {0u, 8u})
          for (const std::uint32_t ppt : {0u, 100u}) {
            if ((v == 3 || v >= 5) && spread != 1) continue;
            gp::PairsConfig c;
            c.slices_per_sm = spread;
            c.partition_lean = shapes[v].lean;
            c.partition_tile = shapes[v].tile;
            c.partition_threads = shapes[v].threads;
            c.hist_threads = shapes[v].hist;
            c.fuse = false;
            c.bucket_cap = cap;
            c.pairs_per_thread = ppt;
            if (ppt == 100) c.chunk_pairs = 7'777;  // several chunks
            gp::PairsDevice dev(p, c, 0);
            ASSERT_EQ(dev.counter(), gp::Counter::Partition);
            int sms = 0;
            ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
            EXPECT_LE(dev.slice_plan().slices, spread * static_cast<std::uint32_t>(sms));
            joseki::cuda::Stream s;
            dev.poison(s);
            dev.enqueue_count(s);
            EXPECT_EQ(dev.download_table(s), want) << "N = " << p.n << ", K = " << p.k << ", spread " << spread
                                                   << ", variant " << v << ", cap " << cap << ", ppt " << ppt;
          }
  }
  {  // r29's histogram loads (PairsConfig::hist_loads 1, 2, 4) with one slice a SM and N = 10^7: ~75,000 pairs a
     // slice, so the loads issued together run several rounds and then a tail (unfused: the table, with buckets
     // that fit and buckets of 8 that spill; fused: whole solves of r29's configuration against the CPU answer)
    const ab::Problem p = random_problem(10'000'019, 2300, 100'003, 13, 14);
    const std::uint32_t kp = gp::padded_k(p.k);
    const std::vector<std::uint64_t> want = gp::cpu_pair_table(p, kp);
    const ab::Answer answer = gp::combine_direct(want, kp, p);
    for (const int lean : {8, 11, 12})  // r27's partition kernel, r30's (the paired write-out) and r31's (by four)
    for (const int hist : {512, 1024})
      for (const int loads : {1, 2, 4})
        for (const std::uint32_t cap : {0u, 8u}) {
          if (lean >= 11 && loads == 2) continue;
          gp::PairsConfig c;
          c.slices_per_sm = 1;
          c.partition_lean = lean;
          c.partition_tile = 28;
          c.partition_threads = 256;
          c.hist_threads = hist;
          c.hist_loads = loads;
          c.fuse = false;
          c.bucket_cap = cap;
          gp::PairsDevice dev(p, c, 0);
          joseki::cuda::Stream s;
          dev.poison(s);
          dev.enqueue_count(s);
          EXPECT_EQ(dev.download_table(s), want) << "lean " << lean << ", hist " << hist << ", loads " << loads
                                                 << ", cap " << cap;
        }
    const gp::PairsRung& r29 = gp::find_rung("p29");
    if (!joseki::measure::unmet(r29.needs, joseki::gpu::needs_facts(0)))
      for (const int loads : {2, 4, 0, -1}) {  // 0: r30 (the paired write-out); -1: r31 (by four)
        gp::PairsConfig c = loads > 0 ? r29.config() : gp::find_rung(loads == 0 ? "p30" : "p31").config();
        c.progress = false;
        if (loads > 0) c.hist_loads = loads;
        gp::PairsDevice dev(p, c, 0);
        joseki::cuda::Stream s;
        for (int rep = 0; rep < 2; ++rep) {
          dev.poison(s);
          dev.enqueue_solve(s);
          EXPECT_EQ(dev.download(s), answer) << "r29 / r30 / r31, loads " << loads << ", solve " << rep;
        }
      }
  }
  {  // refused: a spread outside 1..8, lean variants other than 4 in blocks of 256, histogram loads other than 1, 2, 4
    const ab::Problem p = random_problem(4'099, 31, 17, 7, 8);
    gp::PairsConfig c;
    c.slices_per_sm = 9;
    EXPECT_THROW(gp::PairsDevice(p, c, 0), joseki::InputError);
    c.slices_per_sm = 1;
    c.partition_threads = 256;
    c.partition_lean = 1;
    EXPECT_THROW(gp::PairsDevice(p, c, 0), joseki::InputError);
    c.partition_threads = 128;
    c.partition_lean = 0;  // r03's kernel has no blocks of 128
    EXPECT_THROW(gp::PairsDevice(p, c, 0), joseki::InputError);
    c.partition_threads = 512;
    c.partition_lean = 5;  // r20's variant: blocks of 256 only
    EXPECT_THROW(gp::PairsDevice(p, c, 0), joseki::InputError);
    for (const int lean : {6, 7, 8, 9, 10, 11, 12}) {  // r21 .. r24's, r28's, r30's and r31's too
      c.partition_lean = lean;
      EXPECT_THROW(gp::PairsDevice(p, c, 0), joseki::InputError);
      c.partition_threads = 128;
      EXPECT_THROW(gp::PairsDevice(p, c, 0), joseki::InputError);
      c.partition_threads = 512;
    }
    c.partition_lean = 4;
    c.hist_threads = 768;
    EXPECT_THROW(gp::PairsDevice(p, c, 0), joseki::InputError);
    c.hist_threads = 1024;
    for (const int loads : {0, 3, 8}) {
      c.hist_loads = loads;
      EXPECT_THROW(gp::PairsDevice(p, c, 0), joseki::InputError) << "hist_loads " << loads;
    }
  }
  const gp::PairsRung& r17 = gp::find_rung("p17");
  if (auto why = joseki::measure::unmet(r17.needs, joseki::gpu::needs_facts(0))) GTEST_SKIP() << "tables exact; r17 " << *why;
  std::vector<ab::Problem> problems = {random_problem(100'003, 37, 5'000, 7, 8),
                                       random_problem(300'007, 2300, 100'000, 9, 10),
                                       gp::testing::heavy_cell_problem(70'001, 13, 4, 70'000)};
  std::vector<ab::Answer> wants;
  const std::size_t randoms = problems.size();
  const auto [loaded, appended] = answers_and_vectors(problems, wants);
  for (std::size_t i = 0; i < problems.size(); ++i)
    // 1024: partition blocks of 512, histogram blocks of 1024; 3: tiles of 32, three blocks of 256 a SM
    // 28: tiles of 28, blocks of 256; 5 .. 19: r20 .. r34 (variants 5 .. 12, one chunk, tiles of 28 or 24; r29's
    // histogram loads; r33's and r34's skewed combine)
    for (const int threads : {512, 256, 128, 1024, 3, 28, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}) {
      gp::PairsConfig c = r17.config();
      c.progress = false;
      c.slices_per_sm = 1;
      c.partition_threads = threads == 1024 ? 512 : threads == 3 || threads == 28 ? 256 : threads;
      c.hist_threads = threads == 1024 || threads == 3 || threads == 28 ? 1024 : 512;
      if (threads == 3) c.partition_tile = 32;
      if (threads == 28) c.partition_tile = 28;
      if (threads >= 5 && threads <= 19) c = gp::find_rung("p" + std::to_string(15 + threads)).config();  // 18, 19: r33, r34
      c.progress = false;
      gp::PairsDevice dev(problems[i], c, 0);
      expect_three_solves(dev, wants[i],
                          "threads " + std::to_string(threads) + ", N = " + std::to_string(problems[i].n) + ", K = " +
                              std::to_string(problems[i].k) + (i >= randoms ? " (test vector)" : ""));
    }
  if (loaded == 0) GTEST_SKIP() << "random problems exact; test vectors not found (../shared/testdata/abc471g)";
  EXPECT_GT(appended, 0u) << "no shared test vector with K <= 4096";
#endif
}

// r33 (combine kind "wgmma_skew"): the skewed planes and the product on V's zero rows only, whole solves against the
// CPU: V with half ones, a third, nine tenths, all ones (no row: nothing launched), none (every row), three zeros far
// apart (the window's fallback), counts above 127 (upper planes), K = 2500 (slices too large to stage a plane's bytes
// beside them on the H200: each byte from its counter), fused, spilling and in several chunks, three solves with
// poison between; the shared test vectors; and the shapes the kind refuses. The same for r37 (the partition kernel
// counts each pair at its rotated cell, so the table and the planes hold P unrotated by the histograms), and its
// refusal of a combine that reads the planes unrotated.
TEST(Abc471gHopperGpu, SkewedCombineSolvesAreExact) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  const gp::PairsRung& r33 = gp::find_rung("p33");
  if (auto why = joseki::measure::unmet(r33.needs, joseki::gpu::needs_facts(0))) GTEST_SKIP() << "r33 " << *why;
  std::vector<ab::Problem> problems = {random_problem(300'007, 2300, 100'000, 9, 10),
                                       random_problem(100'003, 37, 5'000, 7, 8, 0.3),
                                       random_problem(200'003, 1000, 50, 11, 12, 0.9),
                                       random_problem(4'099, 31, 17, 7, 8, 1.0),
                                       random_problem(4'099, 130, 17, 7, 8, 0.0),
                                       random_problem(50'021, 2300, 3, 3, 4),
                                       gp::testing::heavy_cell_problem(70'001, 13, 4, 70'000),
                                       random_problem(100'003, 2500, 7, 5, 6)};  // one slice a SM: no room for the bytes
  for (auto& v : problems[5].v) v = 1;
  problems[5].v[0] = problems[5].v[1001] = problems[5].v[2299] = 0;
  std::vector<ab::Answer> wants;
  const std::size_t randoms = problems.size();
  const auto [loaded, appended] = answers_and_vectors(problems, wants);
  for (std::size_t i = 0; i < problems.size(); ++i)
    for (int variant = 0; variant < (i < randoms ? 10 : 4); ++variant) {
      // r37 (the partition counts each pair at its rotated cell; the histograms and the slicing write P unrotated):
      // variants 4 .. 6 fused, spilling into the (rotated) table, in several chunks; test vectors: variant 2.
      // r38 (the combine as the histograms' programmatic dependent, the first terms from the histograms): variants
      // 7 .. 9 fused, spilling, in several chunks (no fused count: a plain launch); test vectors: variant 3
      const bool r37 = i < randoms ? variant >= 4 && variant <= 6 : variant == 2;
      const bool r38 = i < randoms ? variant >= 7 : variant == 3;
      gp::PairsConfig c = r38   ? gp::find_rung("p38").config()
                          : r37 ? gp::find_rung("p37").config()
                          : variant == 3 || (i >= randoms && variant == 1) ? gp::find_rung("p34").config()
                                                                           : r33.config();
      c.progress = false;
      if ((variant == 1 || variant == 5 || variant == 8) && i < randoms) c.bucket_cap = 8;  // spills into the table
      if ((variant == 2 || variant == 6 || variant == 9) && i < randoms) c.chunk_pairs = 1'000;  // several chunks
      gp::PairsDevice dev(problems[i], c, 0);
      EXPECT_EQ(dev.combine_kind(), "wgmma_skew");
      expect_three_solves(dev, wants[i],
                          "variant " + std::to_string(variant) + ", N = " + std::to_string(problems[i].n) + ", K = " +
                              std::to_string(problems[i].k) + (i >= randoms ? " (test vector)" : ""));
    }
  gp::PairsConfig bad = r33.config();
  bad.progress = false;
  bad.wgmma.stages = 6;  // r13's six slots: the skewed kernel is built for r15's eight only
  EXPECT_THROW(gp::PairsDevice(problems[0], bad, 0), joseki::InputError);
  // r37's table cell by cell (the count unfused, so the table holds it): every pair at its rotated cell, with buckets
  // that fit and that spill, in one chunk and in several, in tiles of 28 and 24
  for (std::size_t i = 0; i < 3; ++i) {
    const ab::Problem& p = problems[i];
    const std::uint32_t kp = gp::padded_k(p.k);
    const std::vector<std::uint64_t> flat = gp::cpu_pair_table(p, kp);
    std::vector<std::uint64_t> rotated(flat.size(), 0);
    for (std::uint32_t a = 0; a < p.k; ++a)
      for (std::uint32_t b = 0; b < p.k; ++b)
        rotated[static_cast<std::size_t>(a) * kp + gp::skew_col(a, b, p.k)] = flat[static_cast<std::size_t>(a) * kp + b];
    for (int shape = 0; shape < 10; ++shape) {  // 4 .. 7: tiles of 26 (r41), one chunk and several; 6, 7: runs of 52
                                                 // and 100 pairs a thread (the full tiles' path, as at the max case);
                                                 // 8, 9: r42's variant 14 (tiles of given values on the full path)
      gp::PairsConfig c = gp::find_rung("p37").config();
      c.progress = false;
      c.fuse = false;
      if (shape & 1) c.bucket_cap = 8;
      if (shape == 2 || shape == 3) {
        c.chunk_pairs = 7'777;
        c.partition_tile = 24;
      }
      if (shape >= 4) c.partition_tile = 26;
      if (shape == 5 || shape == 7) c.chunk_pairs = 7'777;
      if (shape >= 6) c.pairs_per_thread = shape == 6 || shape == 8 ? 52 : 100;
      if (shape >= 8) c.partition_lean = 14;
      gp::PairsDevice dev(p, c, 0);
      ASSERT_EQ(dev.counter(), gp::Counter::Partition);
      joseki::cuda::Stream s;
      dev.poison(s);
      dev.enqueue_count(s);
      EXPECT_EQ(dev.download_table(s), rotated) << "r37's table, shape " << shape << ", N = " << p.n << ", K = " << p.k;
    }
  }
  // r38's dependent launch without a combine kind, or on a kernel without the TMA pipeline: refused, the knob named
  for (const int variant : {0, 1}) {
    gp::PairsConfig dep = gp::find_rung("p38").config();
    dep.progress = false;
    if (variant == 0) dep.wgmma.tma = 0;
    if (variant == 1) {
      dep.combine_kind = "";
      dep.partition_lean = 12;
    }
    try {
      gp::PairsDevice dev(problems[0], dep, 0);
      ADD_FAILURE() << "combine_dependent accepted, variant " << variant;
    } catch (const joseki::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("combine_dependent"), std::string::npos) << e.what();
    }
  }
  // A partition tile with no kernel for the knobs (tiles of 26 are built for the rotated variants only; 30 for none):
  // refused, with the knob and the tiles that are built named
  for (const int variant : {0, 1}) {
    gp::PairsConfig bad = gp::find_rung(variant == 0 ? "p39" : "p41").config();
    bad.progress = false;
    bad.partition_tile = variant == 0 ? 26 : 30;
    try {
      gp::PairsDevice dev(problems[0], bad, 0);
      ADD_FAILURE() << "partition_tile " << bad.partition_tile << " accepted, variant " << variant;
    } catch (const joseki::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("partition_tile = " + std::to_string(bad.partition_tile)), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(variant == 0 ? "16, 24, 28" : "16, 24, 26, 28"), std::string::npos) << e.what();
    }
  }
  // r37's rotated cells with a combine that reads the planes unrotated (or the built-in combiners) would answer
  // wrong: refused, with the knob and the kind named
  for (const std::string kind : {"wgmma", ""}) {
    gp::PairsConfig rot = gp::find_rung("p37").config();
    rot.progress = false;
    rot.combine_kind = kind;
    try {
      gp::PairsDevice dev(problems[0], rot, 0);
      ADD_FAILURE() << "partition_lean 13 with combine kind '" << kind << "' was accepted";
    } catch (const joseki::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("partition_lean = 13"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("wgmma_skew"), std::string::npos) << e.what();
    }
  }
  if (loaded == 0) GTEST_SKIP() << "random problems exact; test vectors not found (../shared/testdata/abc471g)";
  EXPECT_GT(appended, 0u) << "no shared test vector with K <= 4096";
#endif
}

// r39 (r31 with the plain combine launched as the histograms' programmatic dependent), r40 and r41 (r38 in tiles of 24
// and of 26), r42 (r41 with the given values' tiles on the full path), r43 (r41 with the window copies padded apart),
// r44 (r43 with the next segment's copies before the epilogue; at K = 2300 the combine blocks cross tile boundaries), r45
// (r44 with the rows loaded early), r46 and r47 (r43 with the combine's units split by a segment's weight, 8 and 12),
// r48 (r46 with the lean prologue: at K = 37, 130, 1000 and the test vectors' K, V's copies wrap more than twice), r49
// (r46 with V's copies made on the host), r50 (r49 with a segment weighed as 6), r51, r52 (r49 with the idle warpgroups
// skipping their stages, the split weighing them 1/8 or 2/8 lighter each: random V leaves the last row tile part idle),
// r53 (r49 with the last column tile on the epilogue's fast path: K = 2300's last tile holds 124 columns, K = 37's
// only tile 37, K = 1000's 104, K = 130's 2), r54 (r53 with the split found once a block in 32-bit arithmetic), r55
// (r54 with the idle warpgroups skipping their stages, the 32-bit split weighing them 1/8 lighter), r56, r57 (r54 with
// four and three stages copied ahead: segments shorter than that, the slots' phases with a shorter lead), r58, r59 (two
// and one ahead):
// whole solves fused, with buckets that spill into the table, in several chunks (no fused count: a plain launch),
// three solves with poison between, on random problems, a heavy cell and the shared test vectors.
TEST(Abc471gHopperGpu, DependentCombineRungsAreExact) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  const gp::PairsRung& r39 = gp::find_rung("p39");
  if (auto why = joseki::measure::unmet(r39.needs, joseki::gpu::needs_facts(0))) GTEST_SKIP() << "r39 " << *why;
  std::vector<ab::Problem> problems = {random_problem(300'007, 2300, 100'000, 9, 10),
                                       random_problem(100'003, 37, 5'000, 7, 8, 0.3),
                                       random_problem(200'003, 1000, 50, 11, 12, 0.9),
                                       random_problem(4'099, 130, 17, 7, 8, 0.0),
                                       gp::testing::heavy_cell_problem(70'001, 13, 4, 70'000)};
  std::vector<ab::Answer> wants;
  const std::size_t randoms = problems.size();
  const auto [loaded, appended] = answers_and_vectors(problems, wants);
  // Each rung three times on a random problem (fused, spilling, in several chunks; from r41 on the first with runs of 52
  // pairs a thread, the max case's two full tiles), once on a test vector.
  constexpr const char* rungs[] = {"p39", "p40", "p41", "p42", "p43", "p44", "p45", "p46", "p47", "p48", "p49", "p50", "p51", "p52", "p53", "p54", "p55", "p56", "p57", "p58", "p59", "p60", "p62", "p63", "p64", "p65", "p67", "p68", "p69"};
  constexpr int n_rungs = static_cast<int>(std::size(rungs));
  for (std::size_t i = 0; i < problems.size(); ++i)
    for (int variant = 0; variant < (i < randoms ? 3 * n_rungs : n_rungs); ++variant) {
      const int which = i < randoms ? variant / 3 : variant;
      const char* rung = rungs[which];
      gp::PairsConfig c = gp::find_rung(rung).config();
      c.progress = false;
      if (i < randoms && variant % 3 == 1) c.bucket_cap = 8;      // spills into the table
      if (i < randoms && variant % 3 == 2) c.chunk_pairs = 1'000;  // several chunks
      if (i < randoms && variant % 3 == 0 && which >= 2) c.pairs_per_thread = 52;  // two full tiles a thread (max case)
      gp::PairsDevice dev(problems[i], c, 0);
      EXPECT_EQ(dev.combine_kind(), which == 0 ? "wgmma" : "wgmma_skew");
      expect_three_solves(dev, wants[i],
                          std::string(rung) + ", variant " + std::to_string(variant) + ", N = " +
                              std::to_string(problems[i].n) + ", K = " + std::to_string(problems[i].k) +
                              (i >= randoms ? " (test vector)" : ""));
    }
  if (loaded == 0) GTEST_SKIP() << "random problems exact; test vectors not found (../shared/testdata/abc471g)";
  EXPECT_GT(appended, 0u) << "no shared test vector with K <= 4096";
#endif
}

// r60, r61 (PairsConfig::spread_given): the partition's given pairs in shorter runs over the wave's free threads. The max
// case's shape (N = 7e6, M = 1e5: on the H200 runs of 41 over 2439 threads, the others 52), the same with a bucket cap that
// spills and in chunks (the given pairs only in the first), N = 300,007 with runs of 52 (the given pairs in runs of one)
// and M = 1 (nothing to spread): whole solves against the CPU, three with poison between. Refused without the lean kernel.
TEST(Abc471gHopperGpu, SpreadGivenRunsAreExact) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  const gp::PairsRung& r60 = gp::find_rung("p60");
  if (auto why = joseki::measure::unmet(r60.needs, joseki::gpu::needs_facts(0))) GTEST_SKIP() << "r60 " << *why;
  const ab::Problem max_case = random_problem(7'000'000, 2300, 100'000, 13, 14),
                    small = random_problem(300'007, 2300, 100'000, 9, 10), none = random_problem(300'007, 2300, 1, 9, 10);
  for (const ab::Problem* p : {&max_case, &small, &none}) {
    const std::uint32_t kp = gp::padded_k(p->k);
    const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(*p, kp), kp, *p);
    for (int variant = 0; variant < 12; ++variant) {  // 3 .. 5: r61 (r32's unrotated count and plain combine); 6 .. 8:
      // r64; 9 .. 11: r66 (r61 with r64's runs)
      const char* ids[] = {"p60", "p61", "p64", "p66"};
      gp::PairsConfig c = gp::find_rung(ids[variant / 3]).config();
      c.progress = false;
      if (variant % 3 == 1) c.bucket_cap = p == &max_case ? 40'000 : 8;      // spills into the table
      if (variant % 3 == 2) c.chunk_pairs = p == &max_case ? 1'000'000 : 1'000;  // several chunks
      if (p != &max_case) c.pairs_per_thread = 52;
      gp::PairsDevice dev(*p, c, 0);
      expect_three_solves(dev, want, std::string(ids[variant / 3]) + ", variant " + std::to_string(variant) + ", N = " + std::to_string(p->n) +
                                         ", M = " + std::to_string(p->m()));
    }
  }
  // r64 in chunks of 2^20 where the first chunk's plan fits with no tail and the second's does not (session 22's review:
  // the first chunk's layout, left in place, made the second's launch divide by zero)
  {
    const ab::Problem two = random_problem(2'097'153, 2300, 2995, 15, 16);
    const std::uint32_t kp = gp::padded_k(two.k);
    const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(two, kp), kp, two);
    for (const char* id : {"p64", "p65"}) {
      gp::PairsConfig c = gp::find_rung(id).config();
      c.progress = false;
      c.chunk_pairs = 1ULL << 20;
      gp::PairsDevice dev(two, c, 0);
      expect_three_solves(dev, want, std::string(id) + " in chunks of 2^20, N = 2,097,153, M = 2995");
    }
  }
  gp::PairsConfig plain = r60.config();
  plain.partition_lean = 0;
  try {
    gp::PairsDevice dev(small, plain, 0);
    ADD_FAILURE() << "spread_given without the lean partition kernel was accepted";
  } catch (const joseki::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("PairsConfig::spread_given (r60)"), std::string::npos) << e.what();
  }
  // r62's and r63's knobs need the lean kernel too
  for (const char* id : {"p62", "p63", "p64"}) {
    gp::PairsConfig c = gp::find_rung(id).config();
    c.partition_lean = 0;
    if (id[2] != '2') c.count_trigger = false;  // r63's, r64's own knob alone
    if (id[2] == '4') c.spread_given = false;
    try {
      gp::PairsDevice dev(small, c, 0);
      ADD_FAILURE() << id << " without the lean partition kernel was accepted";
    } catch (const joseki::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(id[2] == '2'   ? "count_trigger (r62)"
                                           : id[2] == '3' ? "cursor_lines (r63)"
                                                          : "tail_runs (r64)"),
                std::string::npos)
          << e.what();
    }
  }
#endif
}

// r69 (PairsConfig::combine_flags): the combine released by the histograms' count of ended blocks, which its last block
// sets back to zero. Whole solves against the CPU: five back to back (the graph replayed: every solve relies on the
// previous one's reset), then after a poison two more; V all ones (no combine block: the counters cleared by a memset,
// then a solve that waits again), V all zeros, counts above 127 (upper planes), K off the tile sizes, the max case's K;
// refused without the dependent skewed combine.
TEST(Abc471gHopperGpu, FlagReleaseSolvesAreExact) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  const gp::PairsRung& r69 = gp::find_rung("p69");
  if (auto why = joseki::measure::unmet(r69.needs, joseki::gpu::needs_facts(0))) GTEST_SKIP() << "r69 " << *why;
  const std::vector<ab::Problem> problems = {random_problem(300'007, 2300, 100'000, 9, 10),
                                             random_problem(4'099, 31, 17, 7, 8, 1.0),
                                             random_problem(4'099, 130, 17, 7, 8, 0.0),
                                             gp::testing::heavy_cell_problem(70'001, 13, 4, 70'000),
                                             random_problem(100'003, 37, 5'000, 7, 8, 0.3)};
  for (const ab::Problem& p : problems) {
    const std::uint32_t kp = gp::padded_k(p.k);
    const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
    gp::PairsConfig c = r69.config();
    c.progress = false;
    gp::PairsDevice dev(p, c, 0);
    joseki::cuda::Stream s;
    dev.poison(s);
    for (int rep = 0; rep < 7; ++rep) {
      if (rep == 5) dev.poison(s);
      dev.enqueue_solve(s);
      EXPECT_EQ(dev.download(s), want) << "r69, solve " << rep << ", N = " << p.n << ", K = " << p.k;
    }
    EXPECT_GT(dev.graph_kernel_nodes(), 0) << "the later solves are graph replays";
  }
  // Refused where nothing would reset the count or wait for it: without the dependent launch, or another combine kind.
  gp::PairsConfig bad = r69.config();
  bad.combine_dependent = false;
  EXPECT_THROW(gp::PairsDevice(problems[0], bad, 0), joseki::InputError);
  bad = gp::find_rung("p39").config();
  bad.combine_flags = true;
  EXPECT_THROW(gp::PairsDevice(problems[0], bad, 0), joseki::InputError);
#endif
}

// r35 (operand ss on the TMA kernel: circ(V) from its Hankel view) and r36 (seven groups in flight): whole solves against the CPU at K off the tile
// sizes (small K: a stage's 64 bytes wrap H's index more than once), the max case's K with counts above 127 (upper
// planes), V all ones and none, fused, spilling, in several chunks and in blocks of 128 rows, three solves with poison
// between; the shared test vectors.
TEST(Abc471gHopperGpu, HankelCombineSolvesAreExact) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  const gp::PairsRung& r35 = gp::find_rung("p35");
  if (auto why = joseki::measure::unmet(r35.needs, joseki::gpu::needs_facts(0))) GTEST_SKIP() << "r35 " << *why;
  std::vector<ab::Problem> problems = {random_problem(300'007, 2300, 100'000, 9, 10),
                                       random_problem(100'003, 37, 5'000, 7, 8, 0.3),
                                       random_problem(200'003, 1000, 50, 11, 12, 0.9),
                                       random_problem(4'099, 31, 17, 7, 8, 1.0),
                                       random_problem(4'099, 130, 17, 7, 8, 0.0),
                                       random_problem(9'001, 3, 17, 3, 4),
                                       gp::testing::heavy_cell_problem(70'001, 13, 4, 70'000),
                                       random_problem(100'003, 2500, 7, 5, 6)};
  std::vector<ab::Answer> wants;
  const std::size_t randoms = problems.size();
  const auto [loaded, appended] = answers_and_vectors(problems, wants);
  for (std::size_t i = 0; i < problems.size(); ++i)
    for (int variant = 0; variant < (i < randoms ? 6 : 3); ++variant) {
      // variants 4 and 5 (test vectors: 2): r36, seven commit groups in flight; 5 in several chunks
      gp::PairsConfig c = variant >= 4 || (i >= randoms && variant == 2) ? gp::find_rung("p36").config() : r35.config();
      c.progress = false;
      if (variant == 5) c.chunk_pairs = 1'000;
      if (variant == 1 && i < randoms) c.bucket_cap = 8;  // spills into the table
      if (variant == 2) c.chunk_pairs = 1'000;            // several chunks: the slicing pass writes the planes
      if (variant == 3 || (i >= randoms && variant == 1)) c.wgmma.warpgroups = 2;  // blocks of 128 rows
      gp::PairsDevice dev(problems[i], c, 0);
      expect_three_solves(dev, wants[i],
                          "variant " + std::to_string(variant) + ", N = " + std::to_string(problems[i].n) + ", K = " +
                              std::to_string(problems[i].k) + (i >= randoms ? " (test vector)" : ""));
    }
  if (loaded == 0) GTEST_SKIP() << "random problems exact; test vectors not found (../shared/testdata/abc471g)";
  EXPECT_GT(appended, 0u) << "no shared test vector with K <= 4096";
#endif
}

// A short run for compute-sanitizer (memcheck, racecheck): r05, r06 with r07's tiles and r17's lean kernel,
// and r16's lean kernel in r03's tiles, on two shapes, replays after a poison.
// The combine's trace (PairsConfig::trace_combine, a diagnostic of `scale hopper --trace-csv`): on r46's solve at
// K = 2300 the answer stays exact, every block that ran wrote ordered clocks, at least one segment and its stages, the
// stages add up to the same total in two solves, and the parse and summary agree with the blocks.
TEST(Abc471gHopperGpu, CombineTraceIsConsistent) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  const gp::PairsRung& r46 = gp::find_rung("p46");
  if (auto why = joseki::measure::unmet(r46.needs, joseki::gpu::needs_facts(0))) GTEST_SKIP() << "r46 " << *why;
  const ab::Problem p = random_problem(300'007, 2300, 100'000, 9, 10);
  const std::uint32_t kp = gp::padded_k(p.k);
  const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
  gp::PairsConfig c = r46.config();
  c.progress = false;
  c.trace_combine = true;
  gp::PairsDevice dev(p, c, 0);
  joseki::cuda::Stream s;
  std::uint64_t totals[2] = {0, 0};
  for (int rep = 0; rep < 2; ++rep) {
    dev.poison(s);
    dev.enqueue_solve(s);
    EXPECT_EQ(dev.download(s), want) << "solve " << rep << " with the trace";
    const std::vector<gp::TraceBlock> blocks = gp::parse_combine_trace(dev.combine_trace(s));
    ASSERT_FALSE(blocks.empty());
    for (const gp::TraceBlock& b : blocks) {
      totals[rep] += b.stages;
      if (b.stages == 0) continue;
      EXPECT_GE(b.segments, 1u) << "block " << b.block;
      EXPECT_LE(b.segments, b.stages) << "block " << b.block;
      EXPECT_GT(b.loops, 0.0) << "block " << b.block;
      EXPECT_GT(b.epilogues, 0.0) << "block " << b.block;
      EXPECT_LE(b.loops + b.epilogues, b.end - b.go + 1e-3) << "block " << b.block;
    }
    const gp::TraceSummary t = gp::summarize_trace(blocks);
    EXPECT_EQ(t.blocks, blocks.size());
    EXPECT_LE(t.end_min, t.end_median);
    EXPECT_LE(t.end_median, t.end_max);
    EXPECT_GT(t.stage, 0.0);
  }
  EXPECT_GT(totals[0], 0u);
  EXPECT_EQ(totals[0], totals[1]) << "the blocks' stages add up to the same units in both solves";
#endif
}

TEST(Abc471gHopperGpu, SanitizerShapes) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  if (auto why = joseki::measure::unmet(gp::combiner_needs(gp::Combiner::Gemm, 2300), joseki::gpu::needs_facts(0)))
    GTEST_SKIP() << *why;
  for (const ab::Problem& p : {random_problem(4'099, 37, 17, 5, 6), random_problem(300'007, 300, 100'000, 9, 10)}) {
    const std::uint32_t kp = gp::padded_k(p.k);
    const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
    for (const int shape : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}) {
      const int panels = shape == 1 ? 2 : 1;
      gp::PairsConfig c;
      c.combiner = gp::Combiner::Gemm;
      c.graph = true;
      c.gemm_panels = panels;
      c.partition_tile = shape == 1 || shape == 3 ? 24 : 0;  // r07's tiles with r06's panels
      c.partition_lean = shape == 0 ? 0 : 4;   // r17's and r16's lean partition kernel
      if (shape >= 3) {  // session 10: one slice a SM, r16's kernel in blocks of 256 or 128, histogram blocks of 1024
        c.slices_per_sm = 1;
        c.partition_threads = shape == 4 ? 128 : 256;
        c.hist_threads = 1024;
        if (shape == 5) c.partition_tile = 32;  // three blocks of 256 a SM
        if (shape == 6) c.partition_lean = 5;   // r20's unrolled write-out
        if (shape == 7) c.partition_lean = 6;   // r21: no barrier at a tile's end (racecheck's shape)
        if (shape == 8) c.partition_lean = 8;   // r23: r21's barriers, 4's write-out, prefetched given values
        if (shape == 9) c.partition_lean = 9;   // r24: r19's kernel with r23's prefetch
        if (shape == 10) c.partition_lean = 10;  // r28: tiles of given values on the full path
        if (shape == 11) {                       // r29: r23's kernel, four histogram loads in flight
          c.partition_lean = 8;
          c.hist_loads = 4;
        }
        if (shape >= 12) {  // r30: the write-out in pairs (holes, 32-bit stores), tiles of 28; r31: in groups of
                            // four (up to three holes, 64-bit stores), tiles of 24 with buckets of 8 that spill, and 28
          c.partition_lean = shape == 12 ? 11 : 12;
          c.partition_tile = shape == 13 ? 24 : 28;
          if (shape == 13) c.bucket_cap = 8;
        }
      }
      gp::PairsDevice dev(p, c, 0);
      joseki::cuda::Stream s;
      dev.poison(s);
      for (int rep = 0; rep < 3; ++rep) {
        dev.enqueue_solve(s);
        EXPECT_EQ(dev.download(s), want) << "solve " << rep << ", shape " << shape << ", K = " << p.k;
      }
    }
  }
  // r35's Hankel operand under the sanitizers: fused and in several chunks, blocks of 256 and 128 rows.
  if (!joseki::measure::unmet(gp::find_rung("p35").needs, joseki::gpu::needs_facts(0))) {
    for (const ab::Problem& p : {random_problem(4'099, 37, 17, 5, 6), random_problem(300'007, 300, 100'000, 9, 10)}) {
      const std::uint32_t kp = gp::padded_k(p.k);
      const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
      for (const int variant : {0, 1, 2, 3, 4}) {  // 3, 4: r36 (seven groups in flight), fused and in several chunks
        gp::PairsConfig c = gp::find_rung(variant >= 3 ? "p36" : "p35").config();
        c.progress = false;
        if (variant == 1 || variant == 4) c.chunk_pairs = 1'000;
        if (variant == 2) c.wgmma.warpgroups = 2;
        gp::PairsDevice dev(p, c, 0);
        joseki::cuda::Stream s;
        dev.poison(s);
        for (int rep = 0; rep < 2; ++rep) {
          dev.enqueue_solve(s);
          EXPECT_EQ(dev.download(s), want) << "r35, variant " << variant << ", solve " << rep << ", K = " << p.k;
        }
      }
    }
  }
  // r33's skewed combine under the sanitizers: fused (the histograms write the skewed planes), with spilling buckets,
  // and in several chunks (the slicing pass writes them); V with half ones, and with three zeros 1000 apart (a tile
  // wider than the window: the fallback's global atomics).
  if (!joseki::measure::unmet(gp::find_rung("p33").needs, joseki::gpu::needs_facts(0))) {
    ab::Problem sparse = random_problem(20'011, 2300, 17, 5, 6);
    for (auto& v : sparse.v) v = 1;
    sparse.v[3] = sparse.v[1004] = sparse.v[2299] = 0;
    for (const ab::Problem& p : {random_problem(4'099, 37, 17, 5, 6), random_problem(300'007, 300, 100'000, 9, 10), sparse}) {
      const std::uint32_t kp = gp::padded_k(p.k);
      const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
      for (const int variant : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36}) {
        // r34: blocks of 128 rows; 4 .. 6: r37 (the partition counts at rotated cells) fused, spilling, in chunks;
        // 7, 8: r38 (the combine as the histograms' programmatic dependent) fused, spilling; 9: r39 (the plain
        // combine as their dependent); 10, 11: r40, r41 (r38 in tiles of 24, of 26); 12: r42 (given tiles, full path);
        // 13, 14: r43 (padded windows), r44 (early copies: the sparse V's blocks run several segments); 15: r45 (early
        // rows); 16, 17: r46, r47 (the units split by a segment's weight: the sparse V's blocks run several segments);
        // 18: r48 (the lean prologue); 19: r49 (V's copies made on the host); 20: r50 (r49, a segment weighed as 6);
        // 21, 22: r51, r52 (idle warpgroups skip their stages: the sparse V's one tile has three, K = 37's and 300's some);
        // 23: r53 (the last column tile on the epilogue's fast path: K = 37's only tile, K = 300's third; the sparse V's
        // tiles do not fit the window and keep the general path)
        // 24: r54 (the split in 32 bits; the sparse V's several segments a block); 25: r55 (r54 with the idle warpgroups
        // skipping their stages: the sparse V's one tile has three idle, K = 37's and 300's some); 26, 27: r56, r57 (four
        // and three stages copied ahead); 28, 29: r58, r59 (two and one); 30: r60 (the given values' pairs in shorter runs:
        // K = 300's M = 100,000 over runs of one pair); 31, 32: r62 (the histograms launched as the partition's blocks
        // start), r63 (the cursors one a line); 33, 34: r64 (the runs in whole warps), r65 (r64 with r62's trigger);
        // 35: r67 (the histograms' previous maximum read as they start); 36: r69 (the combine released by the histograms'
        // count of ended blocks)
        gp::PairsConfig c = gp::find_rung(variant == 36   ? "p69"
                                          : variant == 35 ? "p67"
                                          : variant == 34 ? "p65"
                                          : variant == 33 ? "p64"
                                          : variant == 32 ? "p63"
                                          : variant == 31 ? "p62"
                                          : variant == 30 ? "p60"
                                          : variant == 29 ? "p59"
                                          : variant == 28 ? "p58"
                                          : variant == 27 ? "p57"
                                          : variant == 26 ? "p56"
                                          : variant == 25 ? "p55"
                                          : variant == 24 ? "p54"
                                          : variant == 23 ? "p53"
                                          : variant == 22 ? "p52"
                                          : variant == 21 ? "p51"
                                          : variant == 20 ? "p50"
                                          : variant == 19 ? "p49"
                                          : variant == 18 ? "p48"
                                          : variant == 17 ? "p47"
                                          : variant == 16 ? "p46"
                                          : variant == 15 ? "p45"
                                          : variant == 14 ? "p44"
                                          : variant == 13 ? "p43"
                                          : variant == 12 ? "p42"
                                          : variant == 11 ? "p41"
                                          : variant == 10 ? "p40"
                                          : variant == 9 ? "p39"
                                          : variant == 3 ? "p34"
                                          : variant >= 7 ? "p38"
                                          : variant >= 4 ? "p37"
                                                         : "p33")
                                .config();
        c.progress = false;
        if (variant == 1 || variant == 5 || variant == 8) c.bucket_cap = 8;
        if (variant == 2 || variant == 6) c.chunk_pairs = 1'000;
        if (variant >= 11) c.pairs_per_thread = 52;  // r41's, r42's two full tiles of 26 a thread
        gp::PairsDevice dev(p, c, 0);
        joseki::cuda::Stream s;
        dev.poison(s);
        for (int rep = 0; rep < 2; ++rep) {
          dev.enqueue_solve(s);
          EXPECT_EQ(dev.download(s), want) << "r33/r37..r67, variant " << variant << ", solve " << rep << ", K = " << p.k;
        }
      }
    }
  }
  // r29's loads issued together (PairsConfig::hist_loads) under the sanitizers: ~15,000 pairs a slice, histogram
  // blocks of 512 and two or four loads, so the rounds of loads run (shape 11's slices are too small for them) and a
  // tail; on r29's solve and on r31's (holes in every bucket, fused histograms).
  if (!joseki::measure::unmet(gp::find_rung("p29").needs, joseki::gpu::needs_facts(0))) {
    const ab::Problem p = random_problem(2'000'003, 37, 17, 3, 4);
    const std::uint32_t kp = gp::padded_k(p.k);
    const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
    for (const char* rung : {"p29", "p31"})
      for (const int loads : {2, 4}) {
        gp::PairsConfig c = gp::find_rung(rung).config();
        c.progress = false;
        c.hist_threads = 512;
        c.hist_loads = loads;
        gp::PairsDevice dev(p, c, 0);
        joseki::cuda::Stream s;
        for (int rep = 0; rep < 2; ++rep) {
          dev.poison(s);
          dev.enqueue_solve(s);
          EXPECT_EQ(dev.download(s), want) << rung << " with histogram blocks of 512, " << loads << " loads, solve " << rep;
        }
      }
  }
#endif
}

// r08 (count kind "dsmem", r08_dsmem_count.cu): skipped with needs.hpp's reason where clusters are unavailable (sm < 90).
#define JOSEKI_REQUIRE_DSMEM()                                                                      \
  if (auto why = joseki::measure::unmet(gp::dsmem_needs(), joseki::gpu::needs_facts(0))) {         \
    GTEST_SKIP() << "r08's DSMEM count " << *why;                                                  \
  }

#ifdef JOSEKI_HAVE_CUDA
// The DSMEM count's table against the CPU's, after a poison, for one configuration.
void expect_dsmem_table(const ab::Problem& p, std::uint32_t cluster, std::uint32_t cap, std::uint32_t ppt,
                        std::uint64_t chunk, std::uint64_t round = gp::ROUND_PAIRS_MAX) {
  const std::uint32_t kp = gp::padded_k(p.k);
  gp::PairsConfig c;
  c.count_kind = "dsmem";
  c.dsmem_cluster = cluster;
  c.bucket_cap = cap;
  c.pairs_per_thread = ppt;
  c.chunk_pairs = chunk;
  c.round_pairs = round;
  c.progress = false;
  gp::PairsDevice dev(p, c, 0);
  ASSERT_EQ(dev.counter(), gp::Counter::Kind);
  ASSERT_EQ(dev.count_kind(), "dsmem");
  struct {
    std::uint64_t rows, ranges, cluster;
  } pl{dev.count_extra("dsmem_rows"), dev.count_extra("dsmem_ranges"), dev.count_extra("dsmem_cluster")};
  ASSERT_GT(pl.rows, 0u);
  EXPECT_EQ(pl.cluster, cluster);
  joseki::cuda::Stream s;
  for (int rep = 0; rep < 2; ++rep) {  // the cursors are left zero for the next count
    dev.poison(s);
    dev.enqueue_count(s);
    EXPECT_EQ(dev.download_table(s), gp::cpu_pair_table(p, kp))
        << "N = " << p.n << ", K = " << p.k << ", M = " << p.m() << ", cluster " << cluster << ", cap " << cap
        << ", ppt " << ppt << ", chunk " << chunk << ", round " << round << " (" << pl.rows << " rows a block, "
        << pl.ranges << " ranges), count " << rep;
  }
}
#endif

// r08's table cell by cell: N = 1 and 2, K + 1, sizes off every multiple, given values only / mostly /
// hardly, runs of one tile, many tiles and a ragged last one, spilling buckets (a forced tiny cap and a
// skewed input whose one range gets every pair), several chunks, and the 64-bit multi-round path.
TEST(Abc471gHopperGpu, SmallDsmemCountTablesAreExact) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_DSMEM();
#ifdef JOSEKI_HAVE_CUDA
  const ab::Problem problems[] = {random_problem(1, 5, 1, 1, 2),           random_problem(2, 37, 0, 3, 4),
                                  random_problem(301, 300, 0, 5, 6),       random_problem(4'099, 31, 17, 7, 8),
                                  random_problem(100'003, 37, 5'000, 9, 10), random_problem(300'007, 300, 100'000, 11, 12),
                                  random_problem(200'003, 2300, 1'001, 13, 14), random_problem(50'021, 4096, 7, 15, 16),
                                  gp::testing::heavy_cell_problem(70'001, 13, 4, 17)};
  for (const ab::Problem& p : problems)
    for (const std::uint32_t cluster : {8u, 16u})
      for (const std::uint32_t cap : {0u, 8u}) {
        expect_dsmem_table(p, cluster, cap, 0, 1ULL << 28);
        expect_dsmem_table(p, cluster, cap, 7, 1ULL << 28);                 // 7 pairs a thread: a ragged tile
        if (p.n > 1000) expect_dsmem_table(p, cluster, cap, 100, 7'777);    // many tiles, several chunks
      }
  // 64-bit counters: rounds of 40'000 pairs flushed into the wide table.
  expect_dsmem_table(random_problem(300'007, 300, 100'000, 11, 12), 8, 0, 0, 1ULL << 28, 40'000);
  expect_dsmem_table(random_problem(300'007, 300, 100'000, 11, 12), 16, 0, 0, 9'999, 40'000);
  // Few symbols, many pairs: 4 cells of one range take all 3e6 pairs (the bucket spills at its cap).
  expect_dsmem_table(random_problem(3'000'001, 2, 1, 19, 20), 8, 0, 0, 1ULL << 28);
  // A cluster size other than 8 or 16 is refused with the value.
  gp::PairsConfig bad;
  bad.count_kind = "dsmem";
  bad.dsmem_cluster = 4;
  const ab::Problem p = random_problem(1'000, 37, 1, 1, 1);
  EXPECT_THROW(gp::PairsDevice(p, bad, 0), joseki::InputError);
#endif
}

// The bench's A/B variants of r08's kernels (ranking by __match_any_sync; call 1's generic atom.add), each
// count's table against the CPU's, with and without spilling buckets.
TEST(Abc471gHopperGpu, SmallDsmemKernelVariantsAreExact) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_DSMEM();
#ifdef JOSEKI_HAVE_CUDA
  for (const ab::Problem& p : {random_problem(4'099, 31, 17, 7, 8), random_problem(300'007, 300, 100'000, 11, 12)}) {
    const std::vector<std::uint64_t> want = gp::cpu_pair_table(p, gp::padded_k(p.k));
    for (const std::uint32_t cap : {0u, 8u}) {
      gp::PairsConfig c;
      c.count_kind = "dsmem";
      c.bucket_cap = cap;
      gp::PairsDevice dev(p, c, 0);
      joseki::cuda::Stream s;
      for (const bool match : {false, true})
        for (const bool generic : {false, true}) {
          dev.poison(s);
          dev.enqueue_zero(s);
          dev.enqueue_count_phase(s, 1, match);
          dev.enqueue_count_phase(s, 2, generic);
          EXPECT_EQ(dev.download_table(s), want)
              << "N = " << p.n << ", K = " << p.k << ", cap " << cap << ", match " << match << ", generic " << generic;
        }
      EXPECT_THROW(dev.enqueue_count_phase(s, 3), joseki::RunError);
    }
  }
#endif
}

// r08's whole solve (GEMM combine after the slicing pass) exact over repeated solves with a poison between,
// and on the shared test vectors.
TEST(Abc471gHopperGpu, SmallDsmemSolvesAreExact) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_DSMEM();
#ifdef JOSEKI_HAVE_CUDA
  if (auto why = joseki::measure::unmet(gp::combiner_needs(gp::Combiner::Gemm, 2300), joseki::gpu::needs_facts(0)))
    GTEST_SKIP() << *why;
  std::vector<ab::Problem> problems = {random_problem(1, 5, 1, 1, 2), random_problem(2, 37, 1, 3, 4),
                                       random_problem(301, 300, 7, 5, 6), random_problem(100'003, 37, 5'000, 7, 8),
                                       random_problem(300'007, 300, 100'000, 9, 10),
                                       gp::testing::heavy_cell_problem(70'001, 13, 4, 70'000)};
  std::vector<ab::Answer> wants;
  const auto [loaded, vectors_run] = answers_and_vectors(problems, wants);
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const ab::Problem& p = problems[i];
    for (const std::uint32_t cluster : {8u, 16u}) {
      gp::PairsConfig c;
      c.combiner = gp::Combiner::Gemm;
      c.count_kind = "dsmem";
      c.dsmem_cluster = cluster;
      c.progress = false;
      gp::PairsDevice dev(p, c, 0);
      ASSERT_EQ(dev.counter(), gp::Counter::Kind);
  ASSERT_EQ(dev.count_kind(), "dsmem");
      EXPECT_FALSE(dev.fused()) << "r08 writes the table; the slicing pass makes the planes";
      expect_three_solves(dev, wants[i],
                          "cluster " + std::to_string(cluster) + ", N = " + std::to_string(p.n) + ", K = " +
                              std::to_string(p.k) + (i >= 6 ? " (test vector)" : ""));
    }
  }
  if (loaded == 0) GTEST_SKIP() << "random problems exact; test vectors not found (../shared/testdata/abc471g)";
  EXPECT_GT(vectors_run, 0u) << "no shared test vector with K <= 4096";
#endif
}

// A short run for compute-sanitizer (memcheck, racecheck): r08's count and solve on two shapes, clusters of
// 8 and 16, one with spilling buckets and several chunks.
TEST(Abc471gHopperGpu, DsmemSanitizerShapes) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_DSMEM();
#ifdef JOSEKI_HAVE_CUDA
  for (const ab::Problem& p : {random_problem(4'099, 37, 17, 5, 6), random_problem(20'011, 300, 1'000, 9, 10)})
    for (const std::uint32_t cluster : {8u, 16u}) {
      expect_dsmem_table(p, cluster, 0, 0, 1ULL << 28);
      expect_dsmem_table(p, cluster, 8, 7, 3'001);
    }
  if (auto why = joseki::measure::unmet(gp::combiner_needs(gp::Combiner::Gemm, 2300), joseki::gpu::needs_facts(0)))
    GTEST_SKIP() << "tables exact; the whole solve needs " << *why;
  const ab::Problem p = random_problem(20'011, 300, 1'000, 9, 10);
  const std::uint32_t kp = gp::padded_k(p.k);
  const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
  gp::PairsConfig c;
  c.combiner = gp::Combiner::Gemm;
  c.count_kind = "dsmem";
  gp::PairsDevice dev(p, c, 0);
  joseki::cuda::Stream s;
  dev.poison(s);
  for (int rep = 0; rep < 2; ++rep) {
    dev.enqueue_solve(s);
    EXPECT_EQ(dev.download(s), want) << "solve " << rep;
  }
#endif
}

TEST(Abc471gHopperGpu, MaxCaseDsmemExact) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_DSMEM();
#ifdef JOSEKI_HAVE_CUDA
  if (auto why = joseki::measure::unmet(gp::combiner_needs(gp::Combiner::Gemm, 2300), joseki::gpu::needs_facts(0)))
    GTEST_SKIP() << *why;
  const ab::Problem p = random_problem(7'000'000, 2300, 100'000, 2026, 7);
  const ab::Answer want = gp::solve_pairs_reference(p);
  for (const std::uint32_t cluster : {8u, 16u}) {
    gp::PairsConfig c;
    c.combiner = gp::Combiner::Gemm;
    c.count_kind = "dsmem";
    c.dsmem_cluster = cluster;
    gp::PairsDevice dev(p, c, 0);
    joseki::cuda::Stream s;
    dev.poison(s);
    for (int rep = 0; rep < 2; ++rep) {
      dev.enqueue_solve(s);
      EXPECT_EQ(dev.download(s), want) << "cluster " << cluster << ", solve " << rep;
    }
  }
#endif
}

TEST(Abc471gHopperGpu, MaxCaseWholeGraphExact) {
  JOSEKI_REQUIRE_GPU();
#ifdef JOSEKI_HAVE_CUDA
  if (auto why = joseki::measure::unmet(gp::combiner_needs(gp::Combiner::Gemm, 2300), joseki::gpu::needs_facts(0)))
    GTEST_SKIP() << *why;
  const ab::Problem p = random_problem(7'000'000, 2300, 100'000, 2026, 7);
  const ab::Answer want = gp::solve_pairs_reference(p);
  gp::PairsConfig c;
  c.combiner = gp::Combiner::Gemm;
  c.graph = true;
  gp::PairsDevice dev(p, c, 0);
  joseki::cuda::Stream s;
  dev.poison(s);
  for (int rep = 0; rep < 3; ++rep) {
    dev.enqueue_solve(s);
    EXPECT_EQ(dev.download(s), want) << "solve " << rep;
  }
  EXPECT_EQ(dev.graph_unavailable(), "");
  EXPECT_EQ(dev.graph_captures(), 1);
  for (const int panels : {3, 4}) {  // r06: 3 x 768 rows; 640, 640, 640 and 384 rows
    c.gemm_panels = panels;
    gp::PairsDevice pd(p, c, 0);
    pd.poison(s);
    for (int rep = 0; rep < 2; ++rep) {
      pd.enqueue_solve(s);
      EXPECT_EQ(pd.download(s), want) << panels << " panels, solve " << rep;
    }
  }
#endif
}

}  // namespace
