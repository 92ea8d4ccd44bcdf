// r09 (issue 19): the gpu-pairs combine on wgmma (sm_90a), exact against the CPU references on fresh
// random pair tables and V: K off every tile size (1 .. 2301), counts needing one, two and three planes,
// garbage in the planes' padding (rows and columns >= K must not count), the answer poisoned before
// every run, both operand variants (rs: the circulant's fragments from registers; ss: from shared
// memory) x 2 or 4 warpgroups x 64 or 128 bytes per stage, and the real max case's table. Skipped, visibly and with the reason, without a GPU, without
// sm_90a code in the build, or on a GPU without wgmma.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/bench_wgmma.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/reference.hpp"
#include "experiments/abc471g/gpu_pairs/test_support.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "gpu_test.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/buffer.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"
#endif

namespace {

namespace ab = joseki::abc471g;
namespace gp = joseki::abc471g::pairs;
using gp::testing::random_problem;

#define JOSEKI_REQUIRE_WGMMA(kp)                                                    \
  do {                                                                              \
    JOSEKI_REQUIRE_GPU();                                                           \
    if (const std::string why_ = gp::wgmma_combine_unavailable((kp), 0); !why_.empty()) \
      GTEST_SKIP() << "r09 wgmma combine: " << why_;                                \
  } while (0)

// A random table: cells < K drawn below `limit`, the padding (rows or columns >= K, < kp) garbage
// below 256 unless `clean_padding`.
std::vector<std::uint64_t> random_table(std::uint32_t k, std::uint32_t kp, std::uint64_t limit, std::uint64_t seed,
                                        bool clean_padding = false) {
  std::mt19937_64 g(seed);
  std::vector<std::uint64_t> t(static_cast<std::size_t>(kp) * kp, 0);
  for (std::uint32_t a = 0; a < kp; ++a)
    for (std::uint32_t b = 0; b < kp; ++b) {
      const bool inside = a < k && b < k;
      if (inside)
        t[static_cast<std::size_t>(a) * kp + b] = g() % limit;
      else if (!clean_padding)
        t[static_cast<std::size_t>(a) * kp + b] = g() % 256;
    }
  return t;
}

#ifdef JOSEKI_HAVE_CUDA
void expect_exact(const std::vector<std::uint64_t>& table, std::uint32_t kp, const ab::Problem& p, const char* what,
                  bool also_direct) {
  const ab::Answer want = gp::combine_ntt_host(table, kp, p);
  if (also_direct) {
    ASSERT_EQ(gp::combine_direct(table, kp, p), want) << "the two CPU references disagree (" << what << ")";
  }
  gp::WgmmaCombineFixture fx(table, kp, p);
  joseki::cuda::Stream s;
  for (const gp::WgmmaShape& sh : gp::WGMMA_SHAPES)
    for (int rep = 0; rep < 2; ++rep) {
      const ab::Answer got = fx.run(sh, s);
      ASSERT_EQ(got.size(), want.size());
      std::size_t bad = 0, first = 0;
      for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i] && bad++ == 0) first = i;
      EXPECT_EQ(bad, 0u) << what << ": K = " << p.k << ", planes " << fx.planes() << ", operand "
                         << gp::wgmma_shape_name(sh) << ", run " << rep
                         << ": first wrong answer at k = " << first << ": got " << got[first] << ", expected "
                         << want[first];
    }
}
#endif

TEST(Abc471gWgmmaGpu, RandomTablesAreExactOffTheTileSizes) {
  JOSEKI_REQUIRE_WGMMA(2304);
#ifdef JOSEKI_HAVE_CUDA
  std::uint64_t seed = 1;
  for (const std::uint32_t k : {1u, 2u, 63u, 127u, 128u, 129u, 200u, 333u}) {
    const std::uint32_t kp = gp::padded_k(k);
    const ab::Problem p = random_problem(5, k, 1, 7 + k, 100 + k);
    for (const std::uint64_t limit : {std::uint64_t{4}, std::uint64_t{128}, std::uint64_t{300}, std::uint64_t{1} << 20}) {
      ++seed;
      expect_exact(random_table(k, kp, limit, seed), kp, p, "random table", true);
    }
  }
#endif
}

TEST(Abc471gWgmmaGpu, LargeKRandomTablesAreExact) {
  JOSEKI_REQUIRE_WGMMA(2432);
#ifdef JOSEKI_HAVE_CUDA
  for (const std::uint32_t k : {2300u, 2301u}) {
    const std::uint32_t kp = gp::padded_k(k);
    const ab::Problem p = random_problem(5, k, 1, 17, k);
    expect_exact(random_table(k, kp, 3, 40 + k), kp, p, "max-case magnitudes", false);
    expect_exact(random_table(k, kp, 1u << 16, 50 + k), kp, p, "three planes", false);
  }
#endif
}

TEST(Abc471gWgmmaGpu, VowelCornersAreExact) {  // V all ones (no mask passes), V all zeros but one
  JOSEKI_REQUIRE_WGMMA(384);
#ifdef JOSEKI_HAVE_CUDA
  for (const double vp : {1.0, 0.02}) {
    ab::Problem p = random_problem(5, 300, 1, 3, 4, vp);
    if (vp < 1) p.v[17] = 1;
    expect_exact(random_table(300, 384, 1000, 9), 384, p, vp == 1.0 ? "V all ones" : "V sparse", true);
  }
#endif
}

TEST(Abc471gWgmmaGpu, MaxCaseTableIsExact) {
  JOSEKI_REQUIRE_WGMMA(2304);
#ifdef JOSEKI_HAVE_CUDA
  const ab::Problem p = ab::make_problem(ab::InstanceSpec{});
  const std::uint32_t kp = gp::padded_k(p.k);
  const std::vector<std::uint64_t> table = gp::cpu_pair_table(p, kp);
  expect_exact(table, kp, p, "the max case's pair table", false);
#endif
}

TEST(Abc471gWgmmaGpu, BadArgumentsAreRefused) {
  JOSEKI_REQUIRE_WGMMA(128);
#ifdef JOSEKI_HAVE_CUDA
  joseki::cuda::DeviceBuffer<std::uint8_t> planes(128 * 128), v(128);
  joseki::cuda::DeviceBuffer<std::uint64_t> answer(128);
  gp::WgmmaCombineArgs a;
  a.d_planes = planes.data();
  a.d_v = v.data();
  a.d_answer = answer.data();
  a.k = 100;
  a.kp = 100;  // not a multiple of 128
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Rs, nullptr), std::invalid_argument);
  a.kp = 128;
  a.k = 129;  // above kp
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Ss, nullptr), std::invalid_argument);
  a.k = 100;
  a.warpgroups = 3;
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Rs, nullptr), std::invalid_argument);
  a.warpgroups = 2;
  a.stage_bytes = 32;
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Rs, nullptr), std::invalid_argument);
  a.stage_bytes = 64;
  a.stages = 6;  // 6 stage slots: rs with a group in flight only
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Rs, nullptr), std::invalid_argument);
  a.inflight = 1;
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Ss, nullptr), std::invalid_argument);
  a.stages = 5;
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Rs, nullptr), std::invalid_argument);
  a.stages = 4;
  a.inflight = 2;
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Rs, nullptr), std::invalid_argument);
  a.inflight = 0;
  a.pad_copies = 2;
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Rs, nullptr), std::invalid_argument);
  a.pad_copies = 1;
  a.inflight = 1;
  a.tma = 1;  // the TMA pipeline: rs, a group in flight, padded copies, six 64-byte stages only
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Rs, nullptr), std::invalid_argument) << "stages 4";
  a.stages = 6;
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Ss, nullptr), std::invalid_argument);
  a.stage_bytes = 128;
  EXPECT_THROW(gp::launch_wgmma_combine(a, gp::WgmmaOperand::Rs, nullptr), std::invalid_argument);
#endif
}

// r09 inside the solve (combine kind "wgmma", the ladder's p09): fused single chunk, spills, several chunks
// (the slicing pass writes the planes), a heavy cell (several planes), with and without the graph, every
// shape, repeated solves and a poison in between.
TEST(Abc471gWgmmaGpu, WholeSolvesWithTheWgmmaCombineAreExact) {
  JOSEKI_REQUIRE_WGMMA(384);
#ifdef JOSEKI_HAVE_CUDA
  const ab::Problem problems[] = {random_problem(2, 37, 1, 3, 4), random_problem(100'003, 37, 5'000, 7, 8),
                                  random_problem(300'007, 300, 100'000, 9, 10),
                                  gp::testing::heavy_cell_problem(70'000, 13, 4, 70'000)};
  for (const ab::Problem& p : problems) {
    const std::uint32_t kp = gp::padded_k(p.k);
    const ab::Answer want = gp::combine_direct(gp::cpu_pair_table(p, kp), kp, p);
    for (int variant = 0; variant < 4; ++variant) {
      for (const gp::WgmmaShape& sh : gp::WGMMA_SHAPES) {
        gp::PairsConfig c;
        c.combiner = gp::Combiner::Gemm;
        c.combine_kind = "wgmma";
        c.wgmma = sh;
        c.graph = variant != 3;
        c.bucket_cap = variant == 1 ? 8u : 0u;    // spills into the table
        if (variant == 2) c.chunk_pairs = 1'000;  // several chunks: the slicing pass writes the planes
        gp::PairsDevice dev(p, c, 0);
        EXPECT_FALSE(dev.gemm()) << "r09 loads no cuBLASLt";
        joseki::cuda::Stream s;
        for (int rep = 0; rep < 3; ++rep) {
          if (rep == 1) dev.poison(s);
          dev.enqueue_solve(s);
          EXPECT_EQ(dev.download(s), want) << "solve " << rep << ", variant " << variant << ", shape "
                                           << gp::wgmma_shape_name(sh)
                                           << ", N = " << p.n << ", K = " << p.k;
        }
      }
    }
  }
#endif
}

// Small shapes for compute-sanitizer (memcheck, racecheck): the device step runs this one alone.
TEST(Abc471gWgmmaGpu, SanitizerShapes) {
  JOSEKI_REQUIRE_WGMMA(256);
#ifdef JOSEKI_HAVE_CUDA
  for (const std::uint32_t k : {63u, 129u}) {  // one block; several blocks, segments and planes
    const std::uint32_t kp = gp::padded_k(k);
    expect_exact(random_table(k, kp, 300, k), kp, random_problem(5, k, 1, 5, k), "sanitizer shape", false);
  }
#endif
}

}  // namespace
