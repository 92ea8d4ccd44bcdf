// The reduction ladder without a GPU: the reference, the CPU rungs at every SIMD level,
// sizes and offsets from the user, the random data, the registry's consistency, grid
// sizing and knob checks, the 16-byte split the vector rungs use, the tie rule, the ratios,
// and the harness's CPU path (GPU rungs skipped with the reason when there is no GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "backend/cpu/cpu_info.hpp"
#include "backend/gpu.hpp"
#include "experiments/reduce/cpu_sum.hpp"
#include "experiments/reduce/harness.hpp"
#include "measure/errors.hpp"

using namespace joseki;
using namespace joseki::reduce;

namespace {

DeviceShape h200() { return {132, 2048, 228 * 1024, 227 * 1024}; }

std::vector<std::uint32_t> random_words(std::size_t n, std::uint64_t seed) {
  const HostData d = generate(n, seed);
  return {d.data(), d.data() + n};
}

template <class F>
std::string input_error_text(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "<no InputError>";
}

}  // namespace

TEST(ReduceReference, WrapsModulo2To32) {
  const std::uint32_t a[] = {0xFFFFFFFFu, 2u};
  EXPECT_EQ(reference_sum(a, 2), 1u);
  const std::vector<std::uint32_t> big(1000, 0x80000001u);  // 1000 * (2^31 + 1) mod 2^32 = 1000
  EXPECT_EQ(reference_sum(big.data(), big.size()), 1000u);
  EXPECT_EQ(reference_sum(a, 0), 0u);
}

TEST(ReduceCpu, EveryRungAtEveryLevelMatchesTheReference) {
  const std::vector<std::uint32_t> w = random_words((1u << 20) + 3 + 3, 42);
  std::vector<cpu::SimdLevel> levels = {cpu::SimdLevel::Scalar};
  for (cpu::SimdLevel s : {cpu::SimdLevel::Avx2, cpu::SimdLevel::Avx512, cpu::SimdLevel::Neon})
    if (cpu::cpu_features().has(s)) levels.push_back(s);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{15}, std::size_t{31}, std::size_t{255},
                        std::size_t{100003}, (std::size_t{1} << 20) + 3})
    for (std::size_t off = 0; off < 4; ++off) {
      const std::uint32_t want = reference_sum(w.data() + off, n);
      for (cpu::SimdLevel l : levels) {
        EXPECT_EQ(sum_one_core(w.data() + off, n, l), want) << "n=" << n << " off=" << off << " " << to_string(l);
        EXPECT_EQ(sum_all_cores(w.data() + off, n, l), want) << "n=" << n << " off=" << off << " " << to_string(l);
      }
    }
}

TEST(ReduceWorkload, ParsesSizes) {
  EXPECT_EQ(parse_size("16777216"), 16777216u);
  EXPECT_EQ(parse_size("2^24"), 16777216u);
  EXPECT_EQ(parse_size("2**20"), 1048576u);
  EXPECT_EQ(parse_size("2^20+3"), 1048579u);
  EXPECT_EQ(parse_size("2^24-1"), 16777215u);
  EXPECT_EQ(parse_size("1"), 1u);
  EXPECT_EQ(parse_size("2^30"), std::size_t{1} << 30);
}

TEST(ReduceWorkload, RejectsBadSizesNamingThem) {
  for (const char* bad : {"0", "-5", "abc", "2^", "2^x", "1e6", "", "2^40", "2^0-1", "99999999999999999999999"}) {
    const std::string msg = input_error_text([&] { parse_size(bad); });
    EXPECT_NE(msg.find("--n"), std::string::npos) << bad << ": " << msg;
    EXPECT_NE(msg.find(std::string("'") + bad + "'"), std::string::npos) << bad << ": " << msg;
  }
}

TEST(ReduceWorkload, OffsetsAndLabels) {
  EXPECT_EQ(parse_offset("3"), 3u);
  EXPECT_NE(input_error_text([] { parse_offset("-1"); }).find("'-1'"), std::string::npos);
  EXPECT_NE(input_error_text([] { parse_offset("5000"); }).find("'5000'"), std::string::npos);
  EXPECT_EQ(size_label(1u << 24), "16777216 (2^24)");
  EXPECT_EQ(size_label((1u << 20) + 3), "1048579 (2^20+3)");
  EXPECT_EQ(size_label(31), "31");
}

TEST(ReduceWorkload, RandomDataIsReproducibleVariedAndChunkIndependent) {
  const auto a = random_words(3'000'001, 7), b = random_words(3'000'001, 7), c = random_words(3'000'001, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  const auto prefix = random_words(1001, 7);  // the same words whatever the length (and so the chunking)
  EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), a.begin()));
  const std::set<std::uint32_t> distinct(a.begin(), a.begin() + 10000);
  EXPECT_GT(distinct.size(), 9990u);
  EXPECT_NE(reference_sum(a.data(), a.size()), 0u);
}

TEST(ReduceWorkload, SlowVariantHook) {
  EXPECT_TRUE(parse_slow_variants(nullptr).empty());
  EXPECT_TRUE(parse_slow_variants("").empty());
  const SlowVariants s = parse_slow_variants("cpu_one_core:3,r06_single_pass:2");
  EXPECT_EQ(s.at("cpu_one_core"), 3);
  EXPECT_EQ(s.at("r06_single_pass"), 2);
  for (const char* bad : {"cpu_one_core", "cpu_one_core:0", "cpu_one_core:x", ":3", "a:1001"})
    EXPECT_NE(input_error_text([&] { parse_slow_variants(bad); }).find("JOSEKI_SLOW_VARIANT"), std::string::npos)
        << bad;
}

TEST(ReduceWorkload, SizesBeyondHostMemoryAreBadInputNamingTheSize) {
  const std::string msg = input_error_text([] { require_host_memory(MAX_N, 0); });
  EXPECT_NE(msg.find(std::to_string(MAX_N)), std::string::npos) << msg;
  EXPECT_NO_THROW(require_host_memory(1u << 20, 3));
}

TEST(ReduceRegistry, IsConsistent) {
  const auto& v = rungs();
  std::set<std::string> seen;
  int last_rung = 0;
  bool gpu_seen = false;
  for (const Rung& r : v) {
    SCOPED_TRACE(r.slug);
    EXPECT_TRUE(seen.insert(r.slug).second) << "duplicate slug";
    if (r.id != r.slug) {
      EXPECT_TRUE(seen.insert(r.id).second) << "duplicate id";
    }
    EXPECT_FALSE(r.name.empty());
    EXPECT_FALSE(r.technique.empty());
    EXPECT_FALSE(r.preconditions.empty());
    if (!r.predecessor.empty()) {
      EXPECT_TRUE(seen.count(r.predecessor)) << "predecessor must come earlier";
    }
    if (!r.config_from.empty()) {
      EXPECT_EQ(find_rung(r.config_from).grid, r.grid) << "config_from needs the same knobs";
    }
    if (r.is_gpu()) {
      gpu_seen = true;
      EXPECT_GE(r.rung, last_rung) << "rung numbers follow the ladder order";
      last_rung = r.rung;
      EXPECT_EQ(r.cpu, nullptr);
#ifdef JOSEKI_HAVE_CUDA
      EXPECT_NE(r.launch, nullptr);
#else
      EXPECT_EQ(r.launch, nullptr);
#endif
      EXPECT_EQ(check_knobs(r, resolve_knobs(r.defaults, h200()), h200()), std::nullopt) << "defaults run on an H200";
      if (r.swept) {
        const auto pts = sweep_for(r, 1u << 24, h200()).points();
        EXPECT_GE(std::count_if(pts.begin(), pts.end(), [](const auto& p) { return !p.skip_reason; }), 4);
      }
    } else {
      EXPECT_FALSE(gpu_seen) << "CPU baselines come first";
      EXPECT_NE(r.cpu, nullptr);
      EXPECT_EQ(r.rung, 0);
    }
  }
  EXPECT_EQ(find_rung("cub").slug, BASELINE);
  EXPECT_EQ(find_rung("cpu_one_core").backend, Backend::Cpu);
  EXPECT_EQ(find_rung("cpu_all_cores").backend, Backend::Cpu);
  EXPECT_EQ(find_rung("r03").slug, "r03_coarsen");
  EXPECT_TRUE(find_rung("r03").swept);
}

TEST(ReduceRegistry, SelectsRungsInLadderOrder) {
  EXPECT_EQ(select_rungs({}).size(), rungs().size());
  EXPECT_EQ(select_rungs({"all"}).size(), rungs().size());
  const auto two = select_rungs({"r05,cpu_one_core"});
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0]->slug, "cpu_one_core");
  EXPECT_EQ(two[1]->slug, "r05_vector_loads");
  EXPECT_EQ(select_rungs({"cub", "r00_cub"}).size(), 1u);
  const std::string msg = input_error_text([] { select_rungs({"cpu_one_core,bogus"}); });
  EXPECT_NE(msg.find("'bogus'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("r06_single_pass"), std::string::npos) << "lists the names: " << msg;
}

TEST(ReducePlan, GridFollowsTheSizeAndTheDevice) {
  const DeviceShape d = h200();
  auto plan = [&](const char* name, std::size_t n) {
    const Rung& r = find_rung(name);
    return plan_launch(r, resolve_knobs(r.defaults, d), n, d);
  };
  EXPECT_EQ(plan("r01", 1).grid, 1);
  EXPECT_EQ(plan("r01", std::size_t{1} << 30).grid, 1 << 22);
  EXPECT_EQ(plan("r03", 1u << 24).grid, 132 * 8);  // one full wave
  EXPECT_EQ(plan("r03", 1000).grid, 4);
  EXPECT_EQ(plan("r06", 1u << 20).grid, 256);  // 2^18 words / (256 threads x 4)
  EXPECT_EQ(plan("r06", 1u << 28).grid, 132 * 8);
  EXPECT_EQ(plan("r06", 1).grid, 1);
  EXPECT_EQ(plan("r08", 1u << 28).grid, 132 * 2);
  EXPECT_EQ(plan("r08", 1u << 28).dynamic_smem, 128u + 4 * 16 * 1024);
  EXPECT_EQ(plan("r02", 1000).dynamic_smem, 256 * 4u);
}

TEST(ReducePlan, KnobPreconditionsSayWhy) {
  const DeviceShape d = h200();
  Knobs k = find_rung("r03").defaults;
  k.block = 96;
  EXPECT_NE(check_knobs(find_rung("r03"), k, d).value_or("").find("power of two"), std::string::npos);
  EXPECT_EQ(check_knobs(find_rung("r04"), k, d), std::nullopt);  // shuffles take any multiple of 32
  k = find_rung("r06").defaults;
  k.unroll = 3;
  EXPECT_NE(check_knobs(find_rung("r06"), k, d).value_or("").find("unroll 3"), std::string::npos);
  k = find_rung("r08").defaults;
  k.stages = 16;
  k.chunk_kib = 16;
  EXPECT_TRUE(check_knobs(find_rung("r08"), k, d).has_value());
  k.stages = 4;
  k.blocks_per_sm = 4;  // 4 x (64 KiB + ...) > 228 KiB
  EXPECT_NE(check_knobs(find_rung("r08"), k, d).value_or("").find("do not fit"), std::string::npos);
}

TEST(ReducePlan, SweepsSkipWithReasonsAndTheTieRulePrefersFewerThreads) {
  const DeviceShape d = h200();
  const Rung& r03 = find_rung("r03");
  const auto pts = sweep_for(r03, 1u << 20, d).points();
  const auto skipped = std::count_if(pts.begin(), pts.end(), [](const auto& p) { return p.skip_reason.has_value(); });
  EXPECT_GT(skipped, 0) << "more threads than elements at 2^20";
  for (const auto& p : pts)
    if (p.skip_reason) {
      EXPECT_NE(p.skip_reason->find("fewer than one element"), std::string::npos);
    }
  std::vector<measure::Candidate> c = {{knobs_point(r03, {256, 8}), 1.00e-3},
                                       {knobs_point(r03, {256, 4}), 1.01e-3},
                                       {knobs_point(r03, {128, 2}), 1.10e-3}};
  const measure::TieChoice t = measure::choose(tie_rule_for(r03), c);
  EXPECT_EQ(t.fastest, 0u);
  EXPECT_EQ(t.chosen, 1u);  // within 2 % and fewer threads
  EXPECT_NE(t.explanation.find("fewer threads"), std::string::npos) << t.explanation;
  for (const auto& p : sweep_for(find_rung("r06"), 1u << 24, d).points())
    if (!p.skip_reason) {
      EXPECT_LE(p.point.get_int("block") * p.point.get_int("blocks_per_sm"), 2048);
    }
}

TEST(ReduceVecSplit, CoversEveryElementOnceWithAlignedBody) {
  for (std::uintptr_t base : {0x1000u, 0x1004u, 0x1008u, 0x100Cu})
    for (std::size_t n = 0; n < 70; ++n) {
      const VecSplit s = vec_split(base, n);
      EXPECT_EQ(s.head + 4 * s.nvec + s.tail, n) << base << " " << n;
      EXPECT_LE(s.head, 3u);
      EXPECT_LE(s.tail, 3u);
      if (s.nvec > 0) {
        EXPECT_EQ((base + 4 * s.head) % 16, 0u);
      }
      if (n >= 4 + s.head) {
        EXPECT_GT(s.nvec, 0u);
      }
    }
}

// Emulates the whole grid of the vector rungs (r05..r07) with the index functions their
// kernels use: every 16-byte word read exactly once, none past the end, and every thread's
// share of the rest at most UNROLL words (issued together).
TEST(ReduceTileWalk, EveryWordOnceForAnyGrid) {
  const unsigned grids[] = {1, 3, 7, 64};
  const unsigned blocks[] = {32, 96, 256};
  const unsigned unrolls[] = {1, 2, 4, 8};
  const std::size_t sizes[] = {0, 1, 31, 32, 255, 1024, 4099, 65536 + 17};
  for (unsigned grid : grids)
    for (unsigned block : blocks)
      for (unsigned unroll : unrolls)
        for (std::size_t nvec : sizes) {
          std::vector<int> seen(nvec, 0);
          const TileWalk w = tile_walk(nvec, block, grid, unroll);
          const std::size_t threads = static_cast<std::size_t>(grid) * block;
          for (unsigned b = 0; b < grid; ++b)
            for (unsigned t = 0; t < block; ++t) {
              for (std::size_t k = 0; k < w.rounds; ++k)
                for (unsigned u = 0; u < unroll; ++u) {
                  const std::size_t i = tile_word(w, k, b, t) + static_cast<std::size_t>(u) * block;
                  ASSERT_LT(i, nvec);
                  ++seen[i];
                }
              for (unsigned u = 0; u < unroll; ++u) {
                const std::size_t i = rest_word(w, static_cast<std::size_t>(b) * block + t) + u * threads;
                if (i < nvec) ++seen[i];
              }
            }
          for (std::size_t i = 0; i < nvec; ++i)
            ASSERT_EQ(seen[i], 1) << "word " << i << " nvec=" << nvec << " grid=" << grid << " block=" << block
                                  << " unroll=" << unroll;
        }
}

// The same for r08's bulk chunks: every byte of the body in exactly one chunk, chunks of whole
// 16-byte words, no chunk longer than chunk_bytes.
TEST(ReduceChunkWalk, EveryByteOnceForAnyGrid) {
  for (unsigned grid : {1u, 5u, 264u})
    for (unsigned chunk : {16u, 4096u, 16384u})
      for (std::size_t nvec : {std::size_t{0}, std::size_t{1}, std::size_t{1023}, std::size_t{1024},
                               std::size_t{1025}, std::size_t{70001}}) {
        const std::size_t body = nvec * 16;
        const std::size_t chunks = (body + chunk - 1) / chunk;
        std::vector<int> seen(nvec, 0);
        for (unsigned b = 0; b < grid; ++b)
          for (std::size_t k = 0; k < chunks_of_block(chunks, b, grid); ++k) {
            const std::size_t c = chunk_index(b, k, grid);
            ASSERT_LT(c, chunks);
            const unsigned bytes = chunk_size(body, chunk, c);
            ASSERT_GT(bytes, 0u);
            ASSERT_LE(bytes, chunk);
            ASSERT_EQ(bytes % 16, 0u);
            for (std::size_t wd = c * chunk / 16; wd < (c * chunk + bytes) / 16; ++wd) ++seen[wd];
          }
        for (std::size_t i = 0; i < nvec; ++i) ASSERT_EQ(seen[i], 1) << i << " grid=" << grid << " chunk=" << chunk;
      }
}

TEST(ReduceRatios, AgainstPredecessorAndCubWithinEachGroup) {
  auto rec = [](const std::string& variant, int rung, const std::string& mode, double median) {
    measure::Record r;
    r.variant = variant;
    r.rung = rung;
    r.mode = mode;
    r.axes.set("n", std::int64_t{1024});
    r.axes.set("offset", std::int64_t{0});
    measure::Stats s;
    s.n = 1;
    s.median = median;
    r.summary = s;
    const Rung* g = nullptr;
    for (const Rung& x : rungs())
      if (x.slug == variant) g = &x;
    if (g && !g->predecessor.empty()) r.ladder.previous = g->predecessor;
    return r;
  };
  std::vector<measure::Record> v = {rec("r00_cub", 0, "cold", 2.0), rec("r05_vector_loads", 5, "cold", 1.0),
                                    rec("r06_single_pass", 6, "cold", 0.5), rec("r06_single_pass", 6, "hot", 0.1)};
  v.push_back(rec("r06_single_pass", -1, "cold", 0.01));
  v.back().ladder.sweep = "r06_single_pass";
  add_ratios(v);
  EXPECT_DOUBLE_EQ(v[1].ladder.x_baseline.value(), 2.0);
  EXPECT_EQ(v[1].ladder.baseline, BASELINE);
  EXPECT_DOUBLE_EQ(v[2].ladder.x_previous.value(), 2.0);
  EXPECT_DOUBLE_EQ(v[2].ladder.x_baseline.value(), 4.0);
  EXPECT_FALSE(v[3].ladder.x_previous.has_value()) << "no r05 in the hot group";
  EXPECT_FALSE(v[3].ladder.x_baseline.has_value());
  EXPECT_FALSE(v[4].ladder.x_baseline.has_value()) << "sweep points are not ladder rows";
}

TEST(ReduceHarness, MismatchTextNamesThePoison) {
  EXPECT_NE(mismatch_text(0xA5A5A5A5u, 7).find("poison"), std::string::npos);
  EXPECT_EQ(mismatch_text(1, 2).find("poison"), std::string::npos);
}

TEST(ReduceHarness, CpuRungsAreExactAndGpuRungsSkippedWithoutGpu) {
  RunOptions o;
  o.sizes = {(1u << 16) + 3};
  o.offsets = {0, 3};
  o.rungs = select_rungs({});
  o.rule.min_samples = 2;
  o.rule.min_time_s = 0;
  o.rule.timeout_s = 0.05;
  o.seed = 99;
  o.slow = {{"cpu_one_core", 3}};
  const RunResult res = run(o);
  EXPECT_TRUE(res.failures.empty()) << res.failures.front();
  const bool gpu = gpu::availability().ok;
  int cpu_records = 0;
  for (const auto& r : res.records) {
    SCOPED_TRACE(r.variant);
    if (r.backend == "cpu") {
      ++cpu_records;
      EXPECT_EQ(r.validation, "exact");
      ASSERT_TRUE(r.summary);
      EXPECT_EQ(r.mode, "cold");
      EXPECT_EQ(r.extra["seed"].get<std::uint64_t>(), 99u);
      if (r.variant == "cpu_one_core") {
        EXPECT_EQ(r.extra["slow_factor"], 3);
      }
      if (r.variant == "cpu_all_cores") {
        EXPECT_TRUE(r.ladder.x_previous.has_value());
      }
    } else if (!gpu) {
      ASSERT_TRUE(r.skipped);
      EXPECT_EQ(r.skipped->rfind("no GPU", 0), 0u) << *r.skipped;
    }
  }
  EXPECT_EQ(cpu_records, 4);  // 2 rungs x 2 offsets x 1 mode
  if (!gpu) {
    EXPECT_EQ(res.records.size(), rungs().size() * 2);
  }
}

TEST(ReduceHarness, ValidateOnlyChecksEverySizeAndOffsetAndTimesNothing) {
  RunOptions o;
  o.sizes = {1, 31, 255};
  o.offsets = {0, 1, 2, 3};
  o.rungs = select_rungs({"cpu_one_core,cpu_all_cores"});
  o.validate_only = true;
  const RunResult res = run(o);
  EXPECT_TRUE(res.records.empty());
  ASSERT_EQ(res.validations.size(), 2u * 3 * 4);
  for (const auto& v : res.validations) {
    EXPECT_TRUE(v.ok) << v.message;
  }
}
