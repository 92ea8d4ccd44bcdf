// The probe registry (every probe of issue 7 registered once, in order, with its rules),
// the CPU mirrors' self-consistency, and the start-up probe, which runs without a GPU.
#include <gtest/gtest.h>

#include <set>

#include "experiments/probes/device_common.hpp"
#include "experiments/probes/mirrors.hpp"
#include "experiments/probes/probe.hpp"

using namespace joseki::probes;

TEST(ProbeRegistry, EveryProbeOfTheIssueIsRegisteredOnceInOrder) {
  const std::vector<std::string> want = {"exec",     "divergence", "coalescing", "banks",  "caches", "caches_l2",
                                         "atomics",  "fences",     "barriers",   "occupancy", "launch",
                                         "startup",  "profile",    "diagnose", "dsmem",  "tma",       "mma"};
  EXPECT_EQ(ProbeRegistry::names(), want);
  std::set<int> orders;
  for (const auto& p : ProbeRegistry::all()) {
    EXPECT_FALSE(p.title.empty()) << p.name;
    EXPECT_FALSE(p.rules.empty()) << p.name;
    EXPECT_TRUE(p.run) << p.name;
    EXPECT_TRUE(orders.insert(p.order).second) << "duplicate order " << p.order;
    EXPECT_EQ(p.needs_gpu, p.name != "startup") << p.name;
  }
  EXPECT_EQ(ProbeRegistry::find("nosuch"), nullptr);
  ASSERT_NE(ProbeRegistry::find("banks"), nullptr);
  EXPECT_EQ(ProbeRegistry::find("banks")->name, "banks");
}

TEST(ProbeRecords, VerdictRecordCarriesRuleVerdictFigure) {
  const auto r = verdict_record("banks", "padding", "padding removes conflicts", Verdict::Holds, "31.8 x", 31.8, "x");
  EXPECT_EQ(r.experiment, "probe.banks");
  EXPECT_EQ(r.variant, "verdict:padding");
  EXPECT_EQ(r.scope, "VALUE");
  EXPECT_EQ(r.extra.at("rule"), "padding removes conflicts");
  EXPECT_EQ(r.extra.at("verdict"), "holds");
  EXPECT_EQ(r.extra.at("figure"), "31.8 x");
  ASSERT_TRUE(r.summary);
  EXPECT_DOUBLE_EQ(r.summary->median, 31.8);
  EXPECT_EQ(r.samples.size(), 1u);
  const auto s = skipped_record("caches", "chase_latency", "t", "no GPU: x");
  EXPECT_TRUE(s.skipped);
  EXPECT_TRUE(s.samples.empty());
  EXPECT_FALSE(s.summary);
}

// The scope is typed (issue 14 removed the text overload); records carry the schema's names.
TEST(ProbeRecords, ScopeIsWrittenAsTheSchemasName) {
  const auto ext = make_record("banks", "v", "t", Scope::External, "hot", "cycles");
  EXPECT_EQ(ext.scope, "EXTERNAL");
  EXPECT_EQ(ext.backend, "process");
  EXPECT_EQ(ext.unit, "cycles");
  const auto gpu = make_record("banks", "v", "t", Scope::GpuCompute, "hot");
  EXPECT_EQ(gpu.scope, "GPU_COMPUTE");
  EXPECT_EQ(gpu.backend, "cuda");
  EXPECT_EQ(make_record("launch", "v", "t", Scope::CpuCompute, "hot").scope, "CPU_COMPUTE");
  EXPECT_EQ(skipped_record("banks", "v", "t", "no GPU").scope, "GPU_COMPUTE");
  EXPECT_EQ(skipped_record("banks", "v", "t", "why", Scope::CpuCompute).scope, "CPU_COMPUTE");
}

TEST(ProbeRecords, UnitCostsAreFoundInRecords) {
  auto r = value_record("atomics", "x", "t", 1.0, "s");
  add_unit_cost(r, "atomic_same_op_s", 2.5e-9);
  EXPECT_DOUBLE_EQ(find_unit_cost({r}, "atomic_same_op_s"), 2.5e-9);
  EXPECT_LT(find_unit_cost({r}, "barrier_s"), 0);
}

TEST(ProbeMirrors, StridedPartialsPartitionTheElements) {
  const std::uint32_t seed = 99;
  const std::size_t n = 10007;
  for (std::size_t stride : {1, 3, 32})
    for (int blocks : {1, 5}) {
      const auto p = mirror::strided_partials(n, stride, 2, seed, blocks, 64);
      std::uint32_t sum = 0, want = 0;
      for (auto v : p) sum += v;
      for (std::size_t i = 0; i < n; ++i) want += mix32(i * stride + 2, seed);
      EXPECT_EQ(sum, want) << "stride " << stride << " blocks " << blocks;
    }
  std::uint32_t t = 0;
  for (std::size_t i = 0; i < 12345; ++i) t += mix32(i, 5);
  EXPECT_EQ(mirror::total(12345, 5), t);
}

TEST(ProbeMirrors, TileAndBankSums) {
  // Row reads of lane l sum column l; column reads of lane l sum row l; stride 32 reads row l.
  std::uint32_t row = 0, col = 0;
  for (int c = 0; c < 32; ++c) {
    row += mix32(2 * 1024 + 5 * 32 + c, 1);
    col += mix32(2 * 1024 + c * 32 + 5, 1);
  }
  EXPECT_EQ(mirror::tile_sum(1, 2, 5, true, 3), 3 * row);
  EXPECT_EQ(mirror::tile_sum(1, 2, 5, false, 3), 3 * col);
  std::uint32_t s1 = 0;
  for (int k = 0; k < 32; ++k) s1 += mix32(2048 + 5 + 32 * k, 1);
  EXPECT_EQ(mirror::bank_stride_sum(1, 1, 5, 1, 2, 2048), 2 * s1);
}

TEST(ProbeMirrors, WorkingSetReadWrapsAround) {
  // 10 words, 3 blocks: block 2 starts at (10 / 3) * 2 = 6 and reads 6..9, 0..3 (per_block 8).
  std::uint32_t want = 0;
  for (std::size_t p : {6, 7, 8, 9, 0, 1, 2, 3})
    for (std::size_t w = 0; w < 4; ++w) want += mix32(p * 4 + w, 7);
  EXPECT_EQ(mirror::ws_read_partial(10, 8, 3, 2, 7), want);
}

TEST(ProbeMirrors, DivergenceModesAndChains) {
  const float x = 0.37f;
  EXPECT_EQ(mirror::divergence(0, x, 1, 0, 64, 32), path_a(x, 64));
  EXPECT_EQ(mirror::divergence(1, x, 0, 0, 64, 32), path_b(x, 32));
  EXPECT_EQ(mirror::divergence(2, x, 3, 0, 64, 32), path_b(x, 32));  // odd lane
  EXPECT_EQ(mirror::divergence(3, x, 2, 0, 64, 32), path_a(x, 64));  // even lane
  EXPECT_EQ(mirror::divergence(4, x, 0, 1, 64, 32), path_b(x, 32));  // odd block
  EXPECT_EQ(mirror::divergence(5, x, 32, 0, 64, 32), path_b(x, 32)); // odd warp
  EXPECT_NE(path_a(x, 64), path_b(x, 32));
  EXPECT_EQ(fma_chains<1>(x, 10), path_a(x, 10));  // one chain = path A's map
  EXPECT_EQ(mirror::lcg_iterate(7, 0), 7u);
  EXPECT_EQ(mirror::lcg_iterate(7, 2), lcg_step(lcg_step(7)));
}

TEST(ProbeStartup, RunsWithoutAGpuAndSplitsTheScopes) {
  ProbeOptions o;
  o.quick = true;
  const auto recs = ProbeRegistry::find("startup")->run(o);
  bool plain_total = false, link_verdict = false;
  for (const auto& r : recs) {
    EXPECT_EQ(r.experiment, "probe.startup");
    if (r.variant == "PLAIN" && r.axes.has("part") && r.axes.get_str("part") == "total") {
      plain_total = true;
      ASSERT_TRUE(r.summary);
      EXPECT_GT(r.summary->median, 0);
      EXPECT_EQ(r.scope, "EXTERNAL");
      const double sum = r.extra.at("pre_main_s").get<double>() + r.extra.at("in_main_s").get<double>() +
                         r.extra.at("post_main_s").get<double>();
      EXPECT_GT(sum, 0);
      EXPECT_LT(sum, 1.5 * r.summary->max);  // medians of the parts are close to the total
      EXPECT_EQ(r.validation, "not-applicable") << r.validation;
    }
    if (r.variant == "verdict:link" && !r.skipped) link_verdict = r.extra.contains("verdict");
    if (r.variant == "CONTEXT" && r.skipped) {
      EXPECT_FALSE(r.skipped->empty());
    }
  }
  EXPECT_TRUE(plain_total) << "no PLAIN record";
#ifdef JOSEKI_HAVE_CUDA
  EXPECT_TRUE(link_verdict) << "a CUDA build has CUDA_LINK, so the link verdict is measured";
#else
  (void)link_verdict;
#endif
}
