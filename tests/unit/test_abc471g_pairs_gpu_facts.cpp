// gpu-pairs' planners fed the facts of six real GPUs (gpu_facts.hpp): the combiners' shared memory at
// K, the partition's histogram slices; what a GPU cannot run is an unmet need that says why.
#include <gtest/gtest.h>

#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "gpu_facts.hpp"
#include "measure/needs.hpp"

using namespace joseki;
using joseki::test::facts;
using joseki::test::Gpu;
using joseki::test::gpus;

// gpu-pairs: the combiners' shared memory at K against each GPU (the tensor-core bank grows with K,
// the NTT's two transforms with the next power of two >= 2K - 1), the partition's histogram slice.
TEST(GpuFactsPairs, CombinersFitOrSayWhyOnEveryGpu) {
  namespace gp = abc471g::pairs;
  for (const Gpu& g : gpus()) {
    const measure::DeviceFacts d = facts(g);
    SCOPED_TRACE(g.name);
    // The histograms: one slice of at most 2^14 counters per block.
    EXPECT_LE(std::int64_t{gp::SLICE_MAX_CELLS} * 4, g.smem_optin);
    const gp::SlicePlan sp = gp::plan_slices(std::uint64_t{2304} * 2304, static_cast<std::uint32_t>(g.sms));
    EXPECT_LE(sp.size, gp::SLICE_MAX_CELLS);
    EXPECT_GE(std::uint64_t{sp.slices} * sp.size, std::uint64_t{2304} * 2304);
    for (std::uint32_t k : {2u, 100u, 2300u, 4096u, 10000u, 16384u}) {
      for (gp::Combiner c : {gp::Combiner::Ntt, gp::Combiner::TensorCore, gp::Combiner::Gemm}) {
        if (c == gp::Combiner::Ntt && k > gp::NTT_MAX_K) continue;
        const measure::Needs n = gp::combiner_needs(c, k);
        const auto why = measure::unmet(n, d);
        const bool fits = n.smem_per_block <= g.smem_optin;
        const bool has_mma = c == gp::Combiner::Ntt || g.major * 10 + g.minor >= 80;
        EXPECT_EQ(!why.has_value(), fits && has_mma) << gp::combiner_name(c) << " K=" << k << ": " << why.value_or("runs");
        if (why) {
          EXPECT_EQ(why->rfind("needs ", 0), 0u) << *why;
        }
      }
    }
  }
  // The max case (K = 2300) on the tensor cores runs on every Ampere-or-newer GPU of the six; its NTT
  // combiner (two 8192-long transforms, 128 KiB) needs more shared memory than a T4 or an RTX 30/40 has.
  const measure::Needs tc = gp::combiner_needs(gp::Combiner::TensorCore, 2300);
  const measure::Needs ntt = gp::combiner_needs(gp::Combiner::Ntt, 2300);
  EXPECT_EQ(ntt.smem_per_block, 128 * 1024);
  for (const Gpu& g : gpus()) {
    const bool ampere = g.major >= 8;
    EXPECT_EQ(measure::unmet(tc, facts(g)).has_value(), !ampere) << g.name;
    EXPECT_EQ(measure::unmet(ntt, facts(g)).has_value(), g.smem_optin < 128 * 1024) << g.name;
  }
}
