// gpu-pairs on the GPU: the count table cell by cell against the CPU's, both combiners against
// CPU references (poisoned outputs, sizes off every tile and vector width, heavy cells that need
// several byte planes, the 64-bit multi-round path), the shared vectors, the registry solvers,
// the multi-GPU split (ranks sharing one GPU, and NCCL across GPUs when there are several), and
// the asynchronous context start. Skipped, visibly, without a GPU.
#include <gtest/gtest.h>

#include "experiments/abc471g/gpu_multi/multi.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/gpu_pairs/reference.hpp"
#include "experiments/abc471g/gpu_pairs/startup.hpp"
#include "experiments/abc471g/gpu_pairs/test_support.hpp"
#include "backend/gpu.hpp"
#include "gpu_test.hpp"
#include "measure/needs.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/buffer.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"
#endif

// Skips, with the reason, a test that combines on the tensor cores where this GPU (or the code this
// build runs on it: a compute_75 PTX build) has no mma.sync m16n8k32.
#define JOSEKI_REQUIRE_TENSOR_CORES()                                                                   \
  do {                                                                                                  \
    if (auto why_ = joseki::measure::unmet(joseki::abc471g::pairs::combiner_needs(                     \
                                               joseki::abc471g::pairs::Combiner::TensorCore, 2300),     \
                                           joseki::gpu::needs_facts(0)))                                \
      GTEST_SKIP() << *why_;                                                                            \
  } while (0)

namespace {

namespace ab = joseki::abc471g;
namespace gp = joseki::abc471g::pairs;
using gp::testing::random_problem;

struct Shape {
  std::uint64_t n;
  std::uint32_t k;
  std::uint64_t m;
};

// Sizes off the block (256), the tile (64/128), the 32-wide k step and the 4-counter vector.
const Shape SMALL[] = {{1, 1, 1},      {1, 37, 1},     {2, 1, 1},      {2, 3, 2},         {3, 2, 1},          {1000, 1, 1},
                       {1000, 7, 1000}, {4099, 31, 17}, {100003, 37, 5000}, {65537, 129, 1},    {200001, 255, 3},
                       {300007, 300, 100000}};

ab::Answer reference(const ab::Problem& p) {
  const std::uint32_t kp = gp::padded_k(p.k);
  return gp::combine_ntt_host(gp::cpu_pair_table(p, kp), kp, p);
}

#ifdef JOSEKI_HAVE_CUDA

std::vector<std::uint64_t> gpu_table(const ab::Problem& p, gp::PairsConfig c) {
  c.fuse = false;  // the fused count writes planes, not a table
  gp::PairsDevice dev(p, c, 0);
  joseki::cuda::Stream s;
  dev.poison(s);
  dev.enqueue_count(s);
  return dev.download_table(s);
}

ab::Answer gpu_answer(const ab::Problem& p, const gp::PairsConfig& c) {
  gp::PairsDevice dev(p, c, 0);
  joseki::cuda::Stream s;
  dev.poison(s);
  dev.enqueue_solve(s);
  return dev.download(s);
}

bool gpu_wide(const ab::Problem& p, const gp::PairsConfig& c) { return gp::PairsDevice(p, c, 0).wide(); }

#else  // CPU-only build: the tests below report themselves skipped (JOSEKI_REQUIRE_GPU) before these run.

std::vector<std::uint64_t> gpu_table(const ab::Problem&, gp::PairsConfig) {
  throw joseki::GpuUnavailable("built without CUDA");
}
ab::Answer gpu_answer(const ab::Problem&, const gp::PairsConfig&) { throw joseki::GpuUnavailable("built without CUDA"); }
bool gpu_wide(const ab::Problem&, const gp::PairsConfig&) { throw joseki::GpuUnavailable("built without CUDA"); }

#endif

TEST(Abc471gPairsGpu, SmallCountTableIsExact) {
  JOSEKI_REQUIRE_GPU();
  for (const Shape& sh : SMALL)
    for (std::uint32_t ppt : {0u, 1u, 3u, 16u, 1000u}) {
      const ab::Problem p = random_problem(sh.n, sh.k, sh.m, sh.n * 13 + sh.k, sh.n + ppt);
      gp::PairsConfig c;
      c.counter = gp::Counter::Atomic;
      c.pairs_per_thread = ppt;
      ASSERT_EQ(gpu_table(p, c), gp::cpu_pair_table(p, gp::padded_k(p.k)))
          << "N = " << sh.n << ", K = " << sh.k << ", M = " << sh.m << ", pairs per thread " << ppt;
    }
}

// The partition count: chunks that cut runs anywhere (1 pair, odd sizes, the default), and
// buckets so small that most pairs spill into the table (the path a skewed input takes).
TEST(Abc471gPairsGpu, SmallPartitionTableIsExact) {
  JOSEKI_REQUIRE_GPU();
  struct Knobs {
    std::uint64_t chunk;
    std::uint32_t cap;
    int threads;
  };
  for (const Shape& sh : SMALL)
    for (const Knobs kn : {Knobs{1ULL << 27, 0, 512}, Knobs{1ULL << 27, 0, 256}, Knobs{1, 0, 512}, Knobs{7'777, 0, 256},
                           Knobs{65'536, 8, 512}, Knobs{100'001, 64, 256}}) {
      if (kn.chunk == 1 && sh.n > 1000) continue;  // one launch pair per pair: keep it short
      const ab::Problem p = random_problem(sh.n, sh.k, sh.m, sh.n * 31 + sh.k, sh.n + kn.chunk);
      gp::PairsConfig c;
      c.counter = gp::Counter::Partition;
      c.chunk_pairs = kn.chunk;
      c.bucket_cap = kn.cap;
      c.partition_threads = kn.threads;
      ASSERT_EQ(gp::effective_counter(p, c), gp::Counter::Partition);
      ASSERT_EQ(gpu_table(p, c), gp::cpu_pair_table(p, gp::padded_k(p.k)))
          << "N = " << sh.n << ", K = " << sh.k << ", M = " << sh.m << ", chunk " << kn.chunk << ", cap " << kn.cap
          << ", threads " << kn.threads;
    }
}

// Runs of many tiles per thread (the fast path, the tile-to-tile hand-over, a run crossing M inside a
// tile, a short last tile), for both block sizes, on tables up to 1024 slices (K = 3001, 4096), and a
// generated input so skewed (K = 2) that the fast path spills into the table.
TEST(Abc471gPairsGpu, SmallPartitionRunsOfManyTiles) {
  JOSEKI_REQUIRE_GPU();
  const Shape shapes[] = {{50'003, 37, 777}, {20'001, 129, 1}, {30'011, 3001, 5}, {30'011, 4096, 20'000}, {40'009, 2, 1}};
  for (const Shape& sh : shapes)
    for (const int threads : {256, 512})
      for (const std::uint32_t run : {15u, 16u, 17u, 33u, 100u}) {
        const ab::Problem p = random_problem(sh.n, sh.k, sh.m, sh.n + sh.k + run, threads + run);
        gp::PairsConfig c;
        c.counter = gp::Counter::Partition;
        c.partition_threads = threads;
        c.pairs_per_thread = run;
        c.bucket_cap = sh.k == 2 ? 8 : 0;
        ASSERT_EQ(gp::effective_counter(p, c), gp::Counter::Partition);
        ASSERT_EQ(gpu_table(p, c), gp::cpu_pair_table(p, gp::padded_k(p.k)))
            << "N = " << sh.n << ", K = " << sh.k << ", M = " << sh.m << ", threads " << threads << ", run " << run;
      }
}

// Above the partition's limit (Kp > 4096) the atomic count runs, and the answers stay exact.
TEST(Abc471gPairsGpu, SmallPartitionFallsBackAboveItsK) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  const ab::Problem p = random_problem(30'011, 4200, 11, 4200, 9);
  ASSERT_EQ(gp::effective_counter(p, gp::PairsConfig{}), gp::Counter::Atomic);
  ASSERT_EQ(gpu_table(p, gp::PairsConfig{}), gp::cpu_pair_table(p, gp::padded_k(p.k)));
  EXPECT_EQ(gpu_answer(p, gp::PairsConfig{}), ab::find_solver("cpu-direct").solve(p, {}).answer);
}

TEST(Abc471gPairsGpu, SmallBothCombinersExact) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  for (const Shape& sh : SMALL) {
    const ab::Problem p = random_problem(sh.n, sh.k, sh.m, sh.n * 17 + sh.k, sh.k);
    const ab::Answer want = reference(p);
    for (int tile = 0; tile < gp::TC_TILE_COUNT; ++tile) {
      gp::PairsConfig c;
      c.combiner = gp::Combiner::TensorCore;
      c.tile = tile;
      EXPECT_EQ(gpu_answer(p, c), want) << "tensor cores, tile " << tile << ", N = " << sh.n << ", K = " << sh.k;
    }
    for (const bool fuse : {true, false})
      for (const bool lt : {true, false}) {
        gp::PairsConfig g;  // the GEMM combiner: fused or from the table, cuBLASLt or mma.sync for plane 0
        g.combiner = gp::Combiner::Gemm;
        g.fuse = fuse;
        g.use_cublaslt = lt;
        EXPECT_EQ(gpu_answer(p, g), want) << "gemm, fuse " << fuse << ", cuBLASLt " << lt << ", N = " << sh.n
                                          << ", K = " << sh.k;
      }
    gp::PairsConfig n;
    n.combiner = gp::Combiner::Ntt;
    EXPECT_EQ(gpu_answer(p, n), want) << "NTT, N = " << sh.n << ", K = " << sh.k;
  }
}

// The GEMM combiner's fused count keeps the table zero between solves (spilled slices clear
// their cells), so the same device solves again without zeroing it: three solves in a row, with
// and without spills, on random input and on one heavy cell (upper planes written by one slice,
// zeroed for the others by the prep kernel); and cuBLASLt really runs (else: skipped, saying why).
TEST(Abc471gPairsGpu, SmallGemmRepeatedSolvesStayExact) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
#ifdef JOSEKI_HAVE_CUDA
  const ab::Problem problems[] = {random_problem(2, 37, 1, 3, 4), random_problem(4'099, 37, 17, 5, 6), random_problem(100'003, 37, 5'000, 7, 8),
                                  random_problem(300'007, 300, 100'000, 9, 10),
                                  gp::testing::heavy_cell_problem(70'000, 13, 4, 70'000)};
  std::string unavailable;
  for (const ab::Problem& p : problems) {
    const std::uint32_t kp = gp::padded_k(p.k);
    const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
    for (const std::uint32_t cap : {0u, 8u}) {
      gp::PairsConfig c;
      c.combiner = gp::Combiner::Gemm;
      c.bucket_cap = cap;
      gp::PairsDevice dev(p, c, 0);
      ASSERT_TRUE(dev.fused()) << "N = " << p.n;
      ASSERT_FALSE(gp::PairsDevice(ab::Problem(random_problem(1, 37, 1, 1, 2)), c, 0).fused()) << "no pair, no planes";
      if (!dev.gemm()) unavailable = dev.gemm_unavailable();
      joseki::cuda::Stream s;
      dev.poison(s);
      for (int rep = 0; rep < 3; ++rep) {
        dev.enqueue_solve(s);
        EXPECT_EQ(dev.download(s), want) << "solve " << rep << ", N = " << p.n << ", K = " << p.k << ", cap " << cap;
      }
    }
  }
  if (!unavailable.empty()) GTEST_SKIP() << "answers exact on mma.sync, but cuBLASLt did not run: " << unavailable;
#endif
}

// A short run for racecheck: both combiners' shared-memory phases on two sizes.
TEST(Abc471gPairsGpu, SmallRaceShapes) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  for (const Shape& sh : {Shape{4099, 37, 17}, Shape{20001, 129, 1}}) {
    const ab::Problem p = random_problem(sh.n, sh.k, sh.m, 77, sh.k);
    const ab::Answer want = reference(p);
    EXPECT_EQ(gpu_answer(p, gp::PairsConfig{}), want) << "K = " << sh.k;
    gp::PairsConfig small;
    small.partition_threads = 256;
    small.chunk_pairs = 3'001;  // several chunks, each with a short last tile
    EXPECT_EQ(gpu_answer(p, small), want) << "256 threads, K = " << sh.k;
    for (const int threads : {256, 512})  // many tiles per thread: the tile-to-tile hand-over
      for (const std::uint32_t run : {37u, 33u}) {  // 33 on 512 threads: tiles of 18 pairs (2, not 3)
        gp::PairsConfig tiles;
        tiles.partition_threads = threads;
        tiles.pairs_per_thread = run;
        EXPECT_EQ(gpu_answer(p, tiles), want) << threads << " threads, runs of " << run << ", K = " << sh.k;
        tiles.bucket_cap = 8;  // and with most pairs spilling
        EXPECT_EQ(gpu_answer(p, tiles), want)
            << threads << " threads, runs of " << run << ", buckets of 8, K = " << sh.k;
      }
    gp::PairsConfig n;
    n.combiner = gp::Combiner::Ntt;
    EXPECT_EQ(gpu_answer(p, n), want) << "NTT, K = " << sh.k;
  }
}

// One cell holding almost every count: the product needs 3 byte planes (and 4 at N = 2e7).
void heavy(std::uint64_t n) {
  {
    const ab::Problem p = gp::testing::heavy_cell_problem(n, 13, 4, n);
    const std::uint32_t kp = gp::padded_k(p.k);
    const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
    EXPECT_EQ(gpu_answer(p, gp::PairsConfig{}), want) << "N = " << n;
    gp::PairsConfig g;
    g.combiner = gp::Combiner::Gemm;  // upper planes written by one slice, fused when one chunk
    EXPECT_EQ(gpu_answer(p, g), want) << "gemm, N = " << n;
    gp::PairsConfig c;
    c.combiner = gp::Combiner::Ntt;
    EXPECT_EQ(gpu_answer(p, c), want) << "NTT, N = " << n;
  }
}

TEST(Abc471gPairsGpu, SmallHeavyCellThreePlanes) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  heavy(70'000);
}

TEST(Abc471gPairsGpu, HeavyCellFourPlanes) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  heavy(20'000'000);
}

// Rounds of a few thousand pairs force the 64-bit path (flush after each round) on a small N.
TEST(Abc471gPairsGpu, SmallWideRoundsMatch) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  const ab::Problem p = random_problem(250'001, 41, 777, 5, 6);
  for (std::uint64_t rp : {1ULL, 4'096ULL, 100'000ULL}) {
    gp::PairsConfig c;
    c.round_pairs = rp;
    const std::uint64_t n = rp == 1 ? 300 : p.n;  // one pair per round: keep it short
    ab::Problem q = p;
    q.n = n;
    EXPECT_TRUE(gpu_wide(q, c));
    ASSERT_EQ(gpu_table(q, c), gp::cpu_pair_table(q, gp::padded_k(q.k))) << "round " << rp;
    EXPECT_EQ(gpu_answer(q, c), reference(q)) << "round " << rp;
    gp::PairsConfig chunked = c;  // chunks inside rounds
    chunked.chunk_pairs = 1'000;
    ASSERT_EQ(gpu_table(q, chunked), gp::cpu_pair_table(q, gp::padded_k(q.k))) << "chunked, round " << rp;
    c.combiner = gp::Combiner::Ntt;
    EXPECT_EQ(gpu_answer(q, c), reference(q)) << "NTT, round " << rp;
  }
}

TEST(Abc471gPairsGpu, MaxCaseBothCombinersExact) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  const ab::Problem p = random_problem(7'000'000, 2300, 100'000, 20261129, 1);
  const std::uint32_t kp = gp::padded_k(p.k);
  const auto table = gp::cpu_pair_table(p, kp);
  ASSERT_EQ(gpu_table(p, gp::PairsConfig{}), table);
  gp::PairsConfig atomic;
  atomic.counter = gp::Counter::Atomic;
  ASSERT_EQ(gpu_table(p, atomic), table);
  const ab::Answer want = gp::combine_ntt_host(table, kp, p);
  EXPECT_EQ(want, ab::find_solver("cpu-direct").solve(p, {}).answer) << "the two CPU references disagree";
  EXPECT_EQ(gpu_answer(p, gp::PairsConfig{}), want);
  gp::PairsConfig g;
  g.combiner = gp::Combiner::Gemm;
  EXPECT_EQ(gpu_answer(p, g), want) << "gemm (fused)";
  gp::PairsConfig c;
  c.combiner = gp::Combiner::Ntt;
  EXPECT_EQ(gpu_answer(p, c), want);
}

TEST(Abc471gPairsGpu, SmallSharedVectors) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  const auto vectors = gp::testing::load_vectors();
  if (vectors.empty()) GTEST_SKIP() << "test vectors not found (../shared/testdata/abc471g; set JOSEKI_TESTDATA)";
  for (const auto& v : vectors)
    for (const char* name : {"gpu-pairs", "gpu-pairs-gemm", "gpu-pairs-ntt", "gpu-multi"})
      EXPECT_EQ(ab::find_solver(name).solve(v.problem, {}).answer, v.answer) << name << " on " << v.name;
}

TEST(Abc471gPairsGpu, SmallRegistrySolverReportsScopes) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  const ab::Problem p = random_problem(123'457, 300, 1000, 42, 42);
  const ab::SolveResult r = ab::find_solver("gpu-pairs").solve(p, {});
  EXPECT_EQ(r.answer, ab::find_solver("brute").solve(p, {}).answer);
  ASSERT_TRUE(r.gpu_compute_s.has_value());
  ASSERT_TRUE(r.gpu_pipeline_s.has_value());
  EXPECT_GT(*r.gpu_compute_s, 0);
  EXPECT_LE(*r.gpu_compute_s, *r.gpu_pipeline_s);
  EXPECT_TRUE(r.phases_s.count("count") && r.phases_s.count("combine"));
}

void multi_agree(const std::vector<Shape>& shapes) {
  for (const Shape& sh : shapes) {
    const ab::Problem p = random_problem(sh.n, sh.k, sh.m, sh.n, sh.k);
    const ab::Answer want = reference(p);
    for (int ranks : {1, 2, 3, 5}) {  // ranks > pairs leaves some ranges empty
      ab::multi::MultiConfig c;
      c.devices = {0};
      c.ranks = ranks;
      const ab::multi::MultiResult r = ab::multi::solve_multi(p, c);
      EXPECT_EQ(r.answer, want) << "N = " << sh.n << ", " << ranks << " ranks on GPU 0 (" << r.reduction << ")";
    }
    const joseki::gpu::Availability av = joseki::gpu::availability();
    if (av.device_count >= 2) {
      ab::multi::MultiConfig all;  // every GPU, NCCL when it loads
      const ab::multi::MultiResult r = ab::multi::solve_multi(p, all);
      EXPECT_EQ(r.answer, want) << "N = " << sh.n << " on " << av.device_count << " GPUs (" << r.reduction << ")";
      all.nccl = false;
      EXPECT_EQ(ab::multi::solve_multi(p, all).answer, want) << "peer copies";
    }
  }
}

TEST(Abc471gPairsGpu, SmallMultiRanksAgree) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  multi_agree({Shape{3, 5, 1}, Shape{8, 5, 2}, Shape{100'003, 37, 500}});
}

TEST(Abc471gPairsGpu, MultiRanksAgreeK2300) {
  JOSEKI_REQUIRE_GPU();
  JOSEKI_REQUIRE_TENSOR_CORES();
  multi_agree({Shape{1'000'001, 2300, 1000}});
}

TEST(Abc471gPairsGpu, SmallAsyncContext) {
  JOSEKI_REQUIRE_GPU();
  gp::startup::begin_context_async(0);
  EXPECT_GE(gp::startup::await_context(0), 0.0);
  EXPECT_TRUE(gp::startup::context_times().started);
  EXPECT_LT(gp::startup::await_context(0), 0.5);  // already there
}

}  // namespace
