// The GPU ladder's own kernel code, run on the CPU: this file compiles every rung's .cu with the
// host emulation of gpu_direct/emu.hpp (threads as fibers, __syncthreads as real barriers, shared
// memory per block), so indexing, chunk boundaries, tails, tiles, padding, the bit-sliced counters
// and the device-side generator are checked exactly against the plain reference on any machine.
// The GPU tests (tests/gpu/test_abc471g_gpu.cpp) run the same rungs on the device.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "experiments/abc471g/gpu_direct/cases.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "experiments/abc471g/problem.hpp"
#include "gpu_facts.hpp"
#include "measure/ladder.hpp"
#include "measure/record.hpp"

// Everything above is ordinary host code; from here on the rungs' .cu files are compiled as host
// C++ against the emulation (namespace joseki::abc471g::gpu_emu).
#define JOSEKI_GPU_EMULATION 1
#include "experiments/abc471g/gpu_direct/ladder.hpp"
// clang-format off
#include "experiments/abc471g/gpu_direct/common.cu"
#include "gpu_direct_rungs.inc"  // every gNN_*.cu (tests/CMakeLists.txt)
#include "../rungs/abc471g_t01_two_lanes.cu"  // the test-only rung (adding a rung the documented way)
// clang-format on

namespace {

using namespace joseki;
using namespace joseki::abc471g;
namespace E = joseki::abc471g::gpu_emu;
namespace L = joseki::abc471g::ladder;
namespace C = joseki::abc471g::gpu_cases;
namespace emu = joseki::abc471g::emu;

// Restores the emulator's options when a test ends (even through a failed ASSERT).
struct EmuOptionsGuard {
  emu::Options saved = emu::options();
  ~EmuOptionsGuard() { emu::options() = saved; }
};

const gpu_api::RungOps& emu_ops(const std::string& id) {
  static const std::map<std::string, gpu_api::RungOps> ops = [] {
    std::map<std::string, gpu_api::RungOps> m;
#define JK_RUNG(id_, ...) m[#id_] = E::id_##_ops();
#include "experiments/abc471g/gpu_direct/rungs.def"
#undef JK_RUNG
    return m;
  }();
  return ops.at(id);
}

struct Prepared {
  Problem p;
  std::vector<std::uint32_t> a;
  Answer want;
};

Prepared prepare(const C::Case& c) {
  Prepared x{c.problem, C::generate_all(c.problem), {}};
  x.want = c.expected ? *c.expected : C::reference_answer(c.problem, x.a);
  return x;
}

// One emulated solve with a poisoned output and scratch; "" when exact, "skip" when not runnable.
std::string emu_check(const L::RungInfo& r, const Prepared& x, const gpu_api::Config& cfg) {
  const gpu_api::RungOps& ops = emu_ops(r.id);
  const gpu_api::Shape shape{x.p.n, x.p.k, x.p.m()};
  if (!ops.check(shape, cfg).empty()) return "skip";
  std::vector<std::uint32_t> answer(x.p.k);
  std::memset(answer.data(), 0xA5, answer.size() * 4);
  std::vector<uint4> scratch((ops.scratch_bytes(shape, cfg) + 15) / 16 + 1);
  std::memset(scratch.data(), 0xA5, scratch.size() * 16);
  gpu_api::DeviceProblem dp;
  dp.shape = shape;
  dp.seed = x.p.seed;
  dp.d_a = r.a_on_device ? nullptr : x.a.data();  // a rung that generates A must not read it
  dp.d_b = x.p.b.data();
  dp.d_v = x.p.v.data();
  dp.d_answer = answer.data();
  dp.d_scratch = scratch.data();
  ops.launch(dp, cfg, nullptr);
  return C::compare_answers(Answer(answer.begin(), answer.end()), x.want);
}

// ---- the pieces ----------------------------------------------------------------------------

TEST(Abc471gGpuEmu, DeviceGeneratorMatchesTheHostOne) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t s = rng() & kMaxSeed, d = i < 100 ? rng() % 100000 : rng();
    EXPECT_EQ(E::lcg_jump(s, d), lcg_jump(s, d)) << "s=" << s << " d=" << d;
    const std::uint32_t k = 1 + static_cast<std::uint32_t>(rng() % 3000);
    EXPECT_EQ(E::pcg_mod(s, k), pcg_value(s, k));
  }
  // A negative distance (mod 2^64) steps backwards: the state before element 0 is reachable.
  const std::uint64_t s0 = 12345;
  EXPECT_EQ(E::lcg_jump(E::lcg_jump(s0, ~0ull), 1), s0);
  EXPECT_EQ(E::lcg_jump(s0, 0), s0);
  EXPECT_EQ(E::lcg_jump(s0, 3), lcg_step(lcg_step(lcg_step(s0))));
}

TEST(Abc471gGpuEmu, PairRiseIsTheSumOfTwoExclusiveRises) {
  for (unsigned bits = 0; bits < 8; ++bits) {
    const std::uint32_t c0 = bits & 1, c1 = (bits >> 1) & 1, c2 = (bits >> 2) & 1;
    const unsigned rises = (c1 && !c0) + (c2 && !c1);
    EXPECT_LE(rises, 1u);
    EXPECT_EQ(E::pair_rise<std::uint32_t>(c0, c1, c2) & 1u, rises) << bits;
  }
}

template <class W>
void check_counters() {
  constexpr int L = 8 * sizeof(W), P = 16;
  std::mt19937_64 rng(7);
  W c[P] = {};
  std::vector<std::uint32_t> want(L, 0);
  for (int round = 0; round < 200; ++round) {
    W d[16];
    for (auto& x : d) x = static_cast<W>(rng());
    for (int b = 0; b < L; ++b)
      for (const W x : d) want[b] += static_cast<std::uint32_t>((x >> b) & 1u);
    E::ripple_add<4>(c, E::compress16(c[0], c[1], c[2], c[3], d));
    const W one = static_cast<W>(rng());
    for (int b = 0; b < L; ++b) want[b] += static_cast<std::uint32_t>((one >> b) & 1u);
    if (round % 2) E::ripple_add<0>(c, one);
    else E::ripple_add_full<0>(c, one);
    for (int b = 0; b < L; ++b) ASSERT_EQ(E::lane_value(c, b), want[b]) << "round " << round << " lane " << b;
  }
}

TEST(Abc471gGpuEmu, BitSlicedCountersCountEveryLane32) { check_counters<std::uint32_t>(); }
TEST(Abc471gGpuEmu, BitSlicedCountersCountEveryLane64) { check_counters<std::uint64_t>(); }

TEST(Abc471gGpuEmu, EmulatorReportsADivergentBarrier) {
  auto bad = [](unsigned* out) {
    if (threadIdx.x == 0) return;  // exits before the barrier the others wait at
    __syncthreads();
    out[threadIdx.x] = 1;
  };
  std::vector<unsigned> out(64);
  EXPECT_THROW(JK_LAUNCH(bad, 1, 64, 0, nullptr, out.data()), std::logic_error);
}

TEST(Abc471gGpuEmu, EmulatorBarriersOrderSharedMemory) {
  // Each thread writes its slot, waits, reads its neighbour's: right only with a working barrier.
  auto k = [](unsigned* out) {
    __shared__ unsigned s[128];
    s[threadIdx.x] = threadIdx.x * 3 + blockIdx.x;
    __syncthreads();
    out[blockIdx.x * 128 + threadIdx.x] = s[(threadIdx.x + 1) % 128];
  };
  EmuOptionsGuard guard;
  for (emu::Order order : {emu::Order::Forward, emu::Order::Reverse}) {
    emu::options().order = order;
    std::vector<unsigned> out(3 * 128);
    JK_LAUNCH(k, 3, 128, 0, nullptr, out.data());
    for (unsigned b = 0; b < 3; ++b)
      for (unsigned t = 0; t < 128; ++t) ASSERT_EQ(out[b * 128 + t], ((t + 1) % 128) * 3 + b);
  }
}

// ---- every rung ------------------------------------------------------------------------------

class Abc471gGpuEmuRung : public ::testing::TestWithParam<std::string> {};

TEST_P(Abc471gGpuEmuRung, ExactOnEdgeCasesAtEveryValidationConfiguration) {
  const L::RungInfo& r = L::find_rung(GetParam());
  int runs = 0;
  for (const C::Case& c : C::edge_cases()) {
    const Prepared x = prepare(c);
    for (const gpu_api::Config& cfg : L::validation_configs(r)) {
      const std::string res = emu_check(r, x, cfg);
      if (res == "skip") continue;
      ++runs;
      EXPECT_EQ(res, "") << r.id << " on " << c.name << " at block " << cfg.block << " chunk " << cfg.chunk;
    }
  }
  EXPECT_GT(runs, 20) << "too few runnable cases for " << r.id;
}

TEST_P(Abc471gGpuEmuRung, ExactOnTheSmallTestVectors) {
  const L::RungInfo& r = L::find_rung(GetParam());
  const auto vectors = C::load_vectors(C::testdata_dir());
  if (vectors.empty()) GTEST_SKIP() << "no test vectors in " << C::testdata_dir() << " (set JOSEKI_TESTDATA)";
  int runs = 0;
  for (const C::Case& c : vectors) {
    if (static_cast<double>(c.problem.n) * c.problem.k > 2e7) continue;  // the 1e6 x 2300 one: GPU tests only
    const Prepared x = prepare(c);
    for (const gpu_api::Config& cfg : L::validation_configs(r)) {
      const std::string res = emu_check(r, x, cfg);
      if (res == "skip") continue;
      ++runs;
      EXPECT_EQ(res, "") << r.id << " on " << c.name << " at block " << cfg.block << " chunk " << cfg.chunk;
    }
  }
  EXPECT_GT(runs, 0);
}

TEST_P(Abc471gGpuEmuRung, ThreadOrderDoesNotChangeTheAnswer) {
  // Threads run barrier interval by barrier interval; reversing their order would expose a
  // read of shared memory that no barrier separates from its write.
  const L::RungInfo& r = L::find_rung(GetParam());
  const C::Case c = C::builtin_case("small");
  const Prepared x = prepare(c);
  EmuOptionsGuard guard;
  emu::options().order = emu::Order::Reverse;
  for (const gpu_api::Config& cfg : L::validation_configs(r)) {
    const std::string res = emu_check(r, x, cfg);
    if (res != "skip") {
      EXPECT_EQ(res, "") << r.id << " (reverse order) at block " << cfg.block;
    }
  }
}

std::vector<std::string> rung_ids() {
  std::vector<std::string> ids;
  for (const auto& r : L::rungs()) ids.push_back(r.id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(AllRungs, Abc471gGpuEmuRung, ::testing::ValuesIn(rung_ids()),
                         [](const auto& info) { return info.param; });

TEST(Abc471gGpuEmu, OneWaveGridAtAnySizeOfMachine) {
  // g13..g15 split N over SMs x blocks per SM; whatever the machine, the answer is the same.
  const Prepared x = prepare(C::edge_cases()[13]);  // N = 20011, K = 1000
  EmuOptionsGuard guard;
  for (const char* id : {"g13", "g14", "g15"}) {
    const L::RungInfo& r = L::find_rung(id);
    for (int sms : {1, 2, 5, 64, 500}) {
      emu::options().sm_count = sms;
      EXPECT_EQ(emu_check(r, x, r.defaults), "") << id << " on " << sms << " SMs";
    }
  }
}

// Every rung at the max case's K (2300) on the facts of real GPUs (gpu_facts.hpp): the least shared
// memory per block (a T4's 64 KiB, 40 SMs), the fewest SMs (an RTX 3060 Laptop's 30, 99 KiB) and the
// most (a B200's 148, 227 KiB). Every launch must fit there (the emulator refuses more shared memory
// than the GPU allows) and be exact.
TEST(Abc471gGpuEmu, EveryRungFitsTheSixGpusAtTheMaxK) {
  abc471g::InstanceSpec spec;
  spec.n = 3001;  // shared memory depends on K, not N; off every tile and chunk
  spec.m = 700;
  spec.k = 2300;
  const Prepared x = prepare(C::Case{"max-k", abc471g::make_problem(spec), std::nullopt});
  EmuOptionsGuard guard;
  for (const joseki::test::Gpu& g : joseki::test::gpus()) {
    if (g.name != std::string("Tesla T4") && g.name != std::string("RTX 3060 Laptop") && g.name != std::string("B200"))
      continue;
    emu::options().sm_count = g.sms;
    emu::options().smem_optin = static_cast<std::size_t>(g.smem_optin);
    for (const auto& r : L::rungs()) {
      std::string got;
      try {
        got = emu_check(r, x, r.defaults);
      } catch (const std::exception& e) {
        got = e.what();
      }
      EXPECT_TRUE(got.empty() || got == "skip") << g.name << " " << r.id << ": " << got;
    }
  }
}

TEST(Abc471gGpuEmu, WarpTransposeTransposesAnyBitMatrix) {
  // Each lane holds a random row; afterwards lane i must hold column i, in every warp of the block.
  auto k = [](const std::uint32_t* in, std::uint32_t* out) {
    const unsigned t = threadIdx.x;
    out[t] = E::lean::warp_transpose32(in[t], t & 31u);
  };
  std::mt19937 rng(32);
  std::vector<std::uint32_t> in(64), out(64, 0xA5A5A5A5u);
  for (auto& v : in) v = static_cast<std::uint32_t>(rng());
  JK_LAUNCH(k, 1, 64, 0, nullptr, in.data(), out.data());
  for (unsigned w = 0; w < 2; ++w)
    for (unsigned i = 0; i < 32; ++i)
      for (unsigned j = 0; j < 32; ++j)
        ASSERT_EQ((out[32 * w + i] >> j) & 1u, (in[32 * w + j] >> i) & 1u) << "warp " << w << " (" << i << ", " << j << ")";
}

TEST(Abc471gGpuEmu, ShuffleExchangesWithinEachWarpOnly) {
  auto k = [](std::uint32_t* out) {
    const unsigned t = threadIdx.x;
    const std::uint32_t a = t * 7 + 1;
    const std::uint32_t b = __shfl_xor_sync(E::lean::FULL_WARP, a, 8);
    const std::uint32_t c = __shfl_xor_sync(E::lean::FULL_WARP, b + t, 16);  // a second, back to back
    out[t] = c;
  };
  EmuOptionsGuard guard;
  for (emu::Order order : {emu::Order::Forward, emu::Order::Reverse}) {
    emu::options().order = order;
    std::vector<std::uint32_t> out(96);
    JK_LAUNCH(k, 1, 96, 0, nullptr, out.data());
    for (unsigned t = 0; t < 96; ++t) {
      const unsigned p = t ^ 16u, pp = p ^ 8u;  // c(t) = b(p) + p, b(p) = a(p ^ 8)
      ASSERT_EQ(out[t], pp * 7 + 1 + p) << t;
    }
  }
}

TEST(Abc471gGpuEmu, WarpSumOfCountersIsTheSumOfTheLanes) {
  // Four streams' 10-plane counters (random values below 1009 per lane) summed across the warp and
  // decoded: every lane's total, once, in the answers.
  constexpr int P = 10;
  std::mt19937 rng(15);
  std::vector<std::uint32_t> counts(32 * 32);  // [thread][lane]
  for (auto& c : counts) c = rng() % 1009;
  std::vector<std::uint32_t> planes(32 * P, 0);
  for (unsigned t = 0; t < 32; ++t)
    for (unsigned b = 0; b < 32; ++b)
      for (int q = 0; q < P; ++q) planes[t * P + q] |= ((counts[t * 32 + b] >> q) & 1u) << b;
  const std::uint32_t words = 8, k = 250;  // words 0..7, lane b of word w is shift w + 8b
  auto kern = [&](std::uint32_t* answer) {
    const unsigned t = threadIdx.x;
    std::uint32_t mine[P];
    for (int q = 0; q < P; ++q) mine[q] = planes[t * P + q];
    E::lean::warp_sum_decode(mine, t & 31u, t & 7u, words, k, answer);
  };
  std::vector<std::uint32_t> answer(k, 0);
  JK_LAUNCH(kern, 1, 32, 0, nullptr, answer.data());
  for (std::uint32_t kk = 0; kk < k; ++kk) {
    const unsigned w = kk % words, b = kk / words;
    std::uint32_t want = 0;
    for (unsigned g = 0; g < 4; ++g) want += counts[(w + 8 * g) * 32 + b];
    ASSERT_EQ(answer[kk], want) << "shift " << kk;
  }
}

TEST(Abc471gGpuEmu, PreconditionsNameTheValue) {
  const gpu_api::Shape big{1000, 2305, 1};
  EXPECT_NE(emu_ops("g10").check(big, {128, 1000}).find("2305"), std::string::npos);
  EXPECT_NE(emu_ops("g05").check({1000, 10, 1}, {64, 70000}).find("70000"), std::string::npos);
  EXPECT_NE(emu_ops("g11").check({1000, 10, 1}, {100, 1000}).find("100"), std::string::npos);
  EXPECT_NE(emu_ops("g11").check({1000, 10, 1}, {128, 40000}).find("40000"), std::string::npos);
  EXPECT_EQ(emu_ops("g12").check({1000, 2560, 1}, {128, 1000}), "");  // 8 x 5 words of 64 lanes
}

// ---- the ladder protocol on the host emulation -------------------------------------------------

// A measure::Runner that runs a rung's emulated kernels on the CPU: the same protocol as the CUDA
// DirectRunner (setup -> poison -> run -> exact compare, timed runs), backend "cuda-emulated".
class EmuRunner : public measure::Runner {
 public:
  explicit EmuRunner(const C::Case& c) : m_x(prepare(c)) {}
  std::string backend() const override { return "cuda-emulated"; }
  measure::Scope scope() const override { return measure::Scope::CpuCompute; }
  measure::DeviceFacts device() const override {  // the emulation: an sm_90 part of emu::options().sm_count SMs
    measure::DeviceFacts d;
    d.present = true;
    d.name = "host emulation (emu.hpp)";
    d.cc_major = 9;
    d.cc_minor = 0;
    return d;
  }
  std::optional<std::string> setup(const measure::RungSpec& s, const measure::Point& p) override {
    m_rung = std::any_cast<const L::RungInfo*>(s.impl);
    m_cfg = L::config_of(*m_rung, p);
    const std::string why = L::check(*m_rung, shape(), m_cfg);
    if (!why.empty()) return why;
    m_scratch.assign((m_rung->ops->scratch_bytes(shape(), m_cfg) + 15) / 16 + 1, uint4{});
    return std::nullopt;
  }
  void poison_output() override {
    m_answer.assign(m_x.p.k, 0xA5A5A5A5u);
    std::memset(m_scratch.data(), 0xA5, m_scratch.size() * 16);
  }
  void run() override {
    gpu_api::DeviceProblem dp;
    dp.shape = shape();
    dp.seed = m_x.p.seed;
    dp.d_a = m_rung->a_on_device ? nullptr : m_x.a.data();
    dp.d_b = m_x.p.b.data();
    dp.d_v = m_x.p.v.data();
    dp.d_answer = m_answer.data();
    dp.d_scratch = m_scratch.data();
    m_rung->ops->launch(dp, m_cfg, nullptr);
    ++runs[m_rung->variant()];
  }
  std::string compare() override { return C::compare_answers(Answer(m_answer.begin(), m_answer.end()), m_x.want); }
  double timed_run() override {
    const double t0 = measure::steady_seconds();
    run();
    return measure::steady_seconds() - t0;
  }
  measure::Work work() const override {
    measure::Work w;
    w.elements = static_cast<double>(m_x.p.n) * m_x.p.k;
    return w;
  }
  std::map<std::string, int> runs;

 private:
  gpu_api::Shape shape() const { return {m_x.p.n, m_x.p.k, m_x.p.m()}; }
  Prepared m_x;
  const L::RungInfo* m_rung = nullptr;
  gpu_api::Config m_cfg;
  std::vector<std::uint32_t> m_answer;
  std::vector<uint4> m_scratch;
};

// Adding a rung to the direct ladder, the documented way (docs/ABC471G_GPU.md, "Adding a rung"):
// one file (tests/rungs/abc471g_t01_two_lanes.cu: kernel, RungOps, RungInfo) plus one line that puts
// it in the ladder. The ladder then validates it (poisoned output, exact, at its defaults and its
// validation configurations), sweeps it with the tie rule, times it, ratios it by its declared
// predecessor, and lists it in the one table, all through measure::run_ladder. Here the kernels
// run on the host emulation (so it runs in CI, without a GPU); without a runner for its backend
// the same rung is a skipped row whose reason says so.
TEST(Abc471gGpuEmuLadder, AddingARungIsOneFileAndOneLine) {
  const L::RungInfo t01 = E::t01_info();
  std::vector<L::RungInfo> rungs{L::find_rung("g01"), L::find_rung("g05")};
  for (L::RungInfo& r : rungs) r.ops = &emu_ops(r.id);  // the emulated kernels of the ladder's rungs
  measure::Ladder lad{"abc471g", {}};
  for (const L::RungInfo& r : rungs) lad.rungs.push_back(L::rung_spec(r, 300));
  lad.rungs.push_back(L::rung_spec(t01, 300));  // <- the one registration line
  for (measure::RungSpec& s : lad.rungs) s.backend = "cuda-emulated";
  ASSERT_NE(lad.find("t01"), nullptr);
  EXPECT_EQ(lad.find("t01")->slug, "t01_two_lanes");
  EXPECT_EQ(lad.find("t01")->predecessor, "g01_lane_per_thread");
  ASSERT_TRUE(lad.find("t01")->sweep.has_value()) << "its file declares a block sweep";

  const C::Case c = C::builtin_case("small");
  EmuRunner runner(c);
  measure::LadderOptions lo;
  lo.sweep = true;
  lo.rule.min_samples = 3;
  lo.rule.max_samples = 3;
  lo.rule.timeout_s = 5;
  lo.rule.min_time_s = 0;
  lo.warmup.min_runs = 0;
  lo.warmup.min_time_s = 0;
  lo.workload.set("case", c.name);
  const measure::LadderResult res = measure::run_ladder(lad, {&runner}, lo);
  EXPECT_TRUE(res.failures.empty()) << res.failures.front();
  int validated = 0;
  for (const measure::ValidationResult& v : res.validations)
    if (v.variant == "t01_two_lanes") {
      EXPECT_TRUE(v.ok) << v.message;
      ++validated;
    }
  EXPECT_EQ(validated, 3) << "its defaults and its two validation configurations";
  EXPECT_GE(runner.runs["t01_two_lanes"], 2 * 3 + 2 * 3) << "each configuration run twice, and every sweep point";
  const measure::Record* row = nullptr;
  int sweep_points = 0;
  for (const measure::Record& r : res.records) {
    if (r.variant != "t01_two_lanes") continue;
    if (!r.ladder.sweep.empty()) ++sweep_points;
    else row = &r;
  }
  EXPECT_EQ(sweep_points, 3);
  ASSERT_NE(row, nullptr);
  ASSERT_TRUE(row->is_ladder_row());
  EXPECT_EQ(row->validation, "exact");
  EXPECT_GT(row->summary->median, 0);
  ASSERT_TRUE(row->ladder.x_previous.has_value()) << "x previous: against g01, its declared predecessor";
  EXPECT_EQ(row->ladder.previous, "g01_lane_per_thread");
  EXPECT_EQ(row->ladder.baseline, "g01_lane_per_thread");
  const std::string table = measure::ladder_table(res.records);
  EXPECT_NE(table.find("t01_two_lanes"), std::string::npos) << table;
  EXPECT_NE(measure::sweep_table(res.records).find("t01_two_lanes"), std::string::npos);

  // The same ladder where no runner of its backend exists: a skipped row with the reason.
  lo.sweep = false;
  const measure::LadderResult none = measure::run_ladder(lad, {}, lo);
  const std::string t2 = measure::ladder_table(none.records);
  EXPECT_NE(t2.find("t01_two_lanes"), std::string::npos);
  EXPECT_NE(t2.find("skipped: no cuda-emulated runner in this run"), std::string::npos) << t2;
}

}  // namespace
