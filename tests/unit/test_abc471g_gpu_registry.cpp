// The GPU ladder's host side, without a GPU: the registry made from rungs.def (ids, predecessors,
// selection), the cases and the reference, and the gpu-direct solver's behaviour when it cannot
// run (no GPU or a CPU-only build: GpuUnavailable; K above its limit: InputError naming K).
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <set>

#include "backend/gpu.hpp"
#include "experiments/abc471g/cost/dispatch.hpp"
#include "experiments/abc471g/gpu_direct/ladder.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "measure/errors.hpp"
#include "measure/ladder.hpp"

namespace {

using namespace joseki;
using namespace joseki::abc471g;
namespace L = joseki::abc471g::ladder;
namespace C = joseki::abc471g::gpu_cases;

// Adding a rung is one file (gNN_slug.cu) and one JK_RUNG line in rungs.def, nothing else: every
// rung file has its line and every line its file (the emulation test includes every file by glob,
// the validation configurations sit on the line).
TEST(Abc471gGpuRegistry, AddingARungIsOneFileAndOneLine) {
  namespace fs = std::filesystem;
  std::set<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(JOSEKI_SOURCE_DIR) / "src/experiments/abc471g/gpu_direct")) {
    const std::string name = e.path().filename().string();
    if (name.size() > 4 && name[0] == 'g' && std::isdigit(static_cast<unsigned char>(name[1])) &&
        e.path().extension() == ".cu")
      files.insert(name);
  }
  std::set<std::string> expected;
  for (const L::RungInfo& r : L::rungs()) {
    expected.insert(r.id + "_" + r.slug + ".cu");
    EXPECT_FALSE(r.validation.empty()) << r.id << ": its validation configurations (rungs.def)";
    EXPECT_EQ(L::validation_configs(r).front().block, r.defaults.block) << r.id;
  }
  EXPECT_EQ(files, expected) << "each rung: gNN_slug.cu + one JK_RUNG line";
}

TEST(Abc471gGpuRegistry, RungsAreUniqueOrderedAndLinked) {
  const auto& rs = L::rungs();
  ASSERT_GE(rs.size(), 15u);
  std::set<std::string> ids, variants, seen;
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const L::RungInfo& r = rs[i];
    EXPECT_EQ(r.rung, static_cast<int>(i + 1));
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_TRUE(variants.insert(r.variant()).second) << r.variant();
    EXPECT_FALSE(r.name.empty() || r.technique.empty() || r.slug.empty()) << r.id;
    if (i == 0) EXPECT_EQ(r.predecessor, "");
    else EXPECT_TRUE(seen.count(r.predecessor)) << r.id << "'s predecessor " << r.predecessor << " is not earlier";
    EXPECT_GE(r.defaults.block, 1) << r.id;
    seen.insert(r.id);
  }
  EXPECT_EQ(L::baseline_rung().id, "g01");
  EXPECT_EQ(L::final_rung().variant(), "g15_warp_summed");
  EXPECT_TRUE(L::final_rung().a_on_device) << "gpu-direct: only b and V cross the bus";
}

TEST(Abc471gGpuRegistry, FindAndSelectByIdSlugOrVariant) {
  EXPECT_EQ(L::find_rung("g05").slug, "bitsliced_ripple");
  EXPECT_EQ(L::find_rung("bitsliced_ripple").id, "g05");
  EXPECT_EQ(L::find_rung("g05_bitsliced_ripple").id, "g05");
  try {
    L::find_rung("g99");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("g99"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("g13"), std::string::npos) << "lists the rungs";
  }
  const auto sel = L::select_rungs("g13,g01,g13");
  ASSERT_EQ(sel.size(), 2u);
  EXPECT_EQ(sel[0]->id, "g01");  // ladder order, no duplicates
  EXPECT_EQ(sel[1]->id, "g13");
  EXPECT_EQ(L::select_rungs("all").size(), L::rungs().size());
  EXPECT_THROW(L::select_rungs("g01,,g02"), InputError);
}

TEST(Abc471gGpuRegistry, ValidationConfigsStartWithTheDefaults) {
  for (const L::RungInfo& r : L::rungs()) {
    const auto cfgs = L::validation_configs(r);
    ASSERT_GE(cfgs.size(), 2u) << r.id << ": needs a small configuration besides the default";
    EXPECT_EQ(cfgs[0].block, r.defaults.block);
    EXPECT_EQ(cfgs[0].chunk, r.defaults.chunk);
  }
}

TEST(Abc471gGpuRegistry, TunedRungsAndTheirFollowersShareOneGeometry) {
  int tuned = 0;
  for (const L::RungInfo& r : L::rungs()) {
    if (!r.tuned_by.empty()) ++tuned;
    if (r.geometry_of.empty()) continue;
    const L::RungInfo& src = L::find_rung(r.geometry_of);
    EXPECT_LT(src.rung, r.rung) << r.id << " runs at the geometry of a later rung";
    EXPECT_FALSE(src.tuned_by.empty()) << r.id << " follows " << src.id << ", which is not tuned";
    EXPECT_TRUE(src.geometry_of.empty()) << "one level only";
    EXPECT_EQ(r.defaults.block, src.defaults.block) << r.id;
    EXPECT_EQ(r.defaults.chunk, src.defaults.chunk) << r.id;
    EXPECT_EQ(&L::geometry_source(r), &src);
  }
  EXPECT_GE(tuned, 2) << "g02 (chunk) and g08 (block x chunk) are tuned rungs";
  EXPECT_FALSE(L::find_rung("g02").tuned_by.empty());
  EXPECT_FALSE(L::find_rung("g08").tuned_by.empty());
  EXPECT_EQ(L::find_rung("g09").geometry_of, "g08");
}

TEST(Abc471gGpuRegistry, GeometryNoteSaysWhereTheRowsConfigurationComesFrom) {
  const L::RungInfo& g08 = L::find_rung("g08");
  const L::RungInfo& g09 = L::find_rung("g09");
  const L::RungInfo& g07 = L::find_rung("g07");
  // No sweep in this run: the defaults, which for a tuned rung are a recorded choice.
  EXPECT_NE(L::geometry_note(g08, false).find(g08.tuned_by), std::string::npos) << L::geometry_note(g08, false);
  EXPECT_EQ(L::geometry_note(g07, false), "defaults");
  EXPECT_EQ(L::geometry_note(g07, true), "defaults") << "g07 is not tuned: a sweep does not move it";
  for (const L::RungInfo* r : {&g08, &g09})
    EXPECT_NE(L::geometry_note(*r, true).find("this run's sweep of g08"), std::string::npos) << r->id;
  EXPECT_NE(L::geometry_note(g09, true).find("the geometry of g08"), std::string::npos);
}

// The ladder in the measurement core's terms: one RungSpec per rungs.def line, records' variant =
// id_slug, predecessors by variant, g01 the one baseline, tuned rungs' rows at their sweep's choice
// and their followers at the same geometry.
TEST(Abc471gGpuRegistry, RungSpecsForTheCoresLadder) {
  const measure::Ladder lad = L::make_ladder(L::select_rungs("all"), 2300);
  ASSERT_EQ(lad.rungs.size(), L::rungs().size());
  EXPECT_EQ(lad.experiment, "abc471g");
  EXPECT_NO_THROW(lad.check());
  ASSERT_NE(lad.baseline(), nullptr);
  EXPECT_EQ(lad.baseline()->slug, "g01_lane_per_thread");
  for (std::size_t i = 0; i < lad.rungs.size(); ++i) {
    const measure::RungSpec& s = lad.rungs[i];
    const L::RungInfo& r = L::rungs()[i];
    EXPECT_EQ(s.id, r.id);
    EXPECT_EQ(s.slug, r.variant());
    EXPECT_EQ(s.position, r.rung);
    EXPECT_EQ(s.backend, "cuda");
    EXPECT_EQ(std::any_cast<const L::RungInfo*>(s.impl), &r);
    if (!r.predecessor.empty()) {
      EXPECT_EQ(s.predecessor, L::find_rung(r.predecessor).variant());
    }
    EXPECT_EQ(s.config_from, r.geometry_of);
    EXPECT_EQ(s.sweep_sets_row, !r.tuned_by.empty()) << r.id;
    EXPECT_EQ(s.validation_configs.size(), r.validation.size());
    const gpu_api::Config back = L::config_of(r, s.defaults);
    EXPECT_EQ(back.block, r.defaults.block);
    EXPECT_EQ(back.chunk, r.defaults.chunk);
  }
  // The one-wave rungs carry chunk "one wave" (the records' axes), which is chunk 0 to a launcher.
  const measure::RungSpec* g13 = lad.find("g13");
  ASSERT_NE(g13, nullptr);
  EXPECT_EQ(g13->defaults.get_str("chunk"), "one wave");
  EXPECT_EQ(L::config_of(L::find_rung("g13"), g13->defaults).chunk, 0);
  EXPECT_FALSE(lad.find("g01")->defaults.has("chunk")) << "g01 has no chunks";
  // A selection keeps the predecessor's full name (records' ladder.previous).
  const measure::Ladder quick = L::make_ladder(L::select_rungs("g01,g15"), 2300);
  EXPECT_EQ(quick.find("g15")->predecessor, "g14_transposed_table");
}

TEST(Abc471gGpuRegistry, ReferenceMatchesBruteOnTheEdgeCases) {
  for (const C::Case& c : C::edge_cases())
    EXPECT_EQ(C::compare_answers(C::reference_answer(c.problem), find_solver("brute").solve(c.problem, {}).answer), "")
        << c.name;
}

TEST(Abc471gGpuRegistry, EdgeCasesCoverTheBoundaries) {
  bool k1 = false, n1 = false, m_eq_n = false, k_odd_tail = false, k_full = false, n_odd = false;
  for (const C::Case& c : C::edge_cases()) {
    const auto& p = c.problem;
    k1 |= p.k == 1;
    n1 |= p.n == 1;
    m_eq_n |= p.m() == p.n && p.n > 2;
    k_odd_tail |= p.k % 32 != 0 && p.k % 64 != 0 && p.k > 64;
    k_full |= p.k == 2304;
    n_odd |= p.n % 32 != 0 && p.n > 1000;
  }
  EXPECT_TRUE(k1 && n1 && m_eq_n && k_odd_tail && k_full && n_odd);
}

TEST(Abc471gGpuRegistry, CompareAnswersNamesTheFirstMismatches) {
  EXPECT_EQ(C::compare_answers({1, 2, 3}, {1, 2, 3}), "");
  const std::string d = C::compare_answers({1, 9, 3}, {1, 2, 3});
  EXPECT_NE(d.find("k=1: got 9, expected 2"), std::string::npos) << d;
  EXPECT_NE(C::compare_answers({1}, {1, 2}), "");
}

TEST(Abc471gGpuRegistry, TestVectorsLoadWithTheirOutputs) {
  const auto v = C::load_vectors(C::testdata_dir());
  if (v.empty()) GTEST_SKIP() << "no test vectors in " << C::testdata_dir() << " (set JOSEKI_TESTDATA)";
  for (const C::Case& c : v) {
    ASSERT_TRUE(c.expected) << c.name;
    EXPECT_EQ(c.expected->size(), c.problem.k) << c.name;
  }
}

TEST(Abc471gGpuRegistry, BuiltinCasesAreTheMaxAndASmallOne) {
  const C::Case mx = C::builtin_case("max");
  EXPECT_EQ(mx.problem.n, 7'000'000u);
  EXPECT_EQ(mx.problem.k, 2300u);
  EXPECT_EQ(mx.problem.m(), 100'000u);
  EXPECT_EQ(C::builtin_case("small").problem.k, 300u);
  EXPECT_THROW(C::builtin_case("huge"), InputError);
}

TEST(Abc471gGpuRegistry, GpuDirectRejectsKAboveItsLimitBeforeLookingForAGpu) {
  InstanceSpec s;
  s.n = 10;
  s.k = 4000;
  s.m = 1;
  try {
    find_solver("gpu-direct").solve(make_problem(s), {});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("K = 4000"), std::string::npos) << e.what();
  }
}

TEST(Abc471gGpuRegistry, GpuDirectWithoutAGpuIsGpuUnavailable) {
  if (L::built_with_cuda() && joseki::gpu::availability().ok) GTEST_SKIP() << "a GPU is present (see the GPU tests)";
  try {
    find_solver("gpu-direct").solve(C::builtin_case("small").problem, {});
    FAIL() << "expected GpuUnavailable";
  } catch (const GpuUnavailable& e) {
    EXPECT_FALSE(std::string(e.what()).empty());
  }
}

TEST(Abc471gGpuRegistry, AutoNeverPicksGpuDirectWhereItCannotRun) {
  MachineShape m;
  m.threads = 2;
  const Choice c = choose_solver({7'000'000, 2300, 100'000}, m);
  EXPECT_NE(c.solver, "gpu-direct") << c.explanation;  // the max case: the CPU wins (context creation)
  bool listed = false;
  for (const auto& e : c.candidates)
    if (e.solver == "gpu-direct") {
      listed = true;
      if (!L::built_with_cuda()) {
        EXPECT_TRUE(e.infeasible.has_value());
      }
    }
  EXPECT_TRUE(listed) << c.explanation;
  const Choice big = choose_solver({10, 5000, 1}, m);
  for (const auto& e : big.candidates) {
    if (e.solver == "gpu-direct") {
      EXPECT_TRUE(e.infeasible.has_value()) << "K = 5000 is above its limit";
    }
  }
}

TEST(Abc471gGpuRegistry, TheLadderWithoutCudaOrGpuIsGpuUnavailable) {
  if (L::built_with_cuda() && joseki::gpu::availability().ok) GTEST_SKIP() << "a GPU is present";
  EXPECT_THROW(L::DeviceCase(C::builtin_case("small").problem, 0), GpuUnavailable);
}

}  // namespace
