// ABC471G solvers: every test vector for every CPU solver; every solver against brute on many
// small random cases and the edge cases; every SIMD level and thread count of cpu-direct; the
// FFT combine's limb split on counts large enough to need it; the solvers' preconditions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backend/cpu/cpu_info.hpp"
#include "backend/cpu/parallel.hpp"
#include "experiments/abc471g/bench.hpp"
#include "experiments/abc471g/cpu/direct.hpp"
#include "experiments/abc471g/cpu/fft_combine.hpp"
#include "experiments/abc471g/cpu/pairs.hpp"
#include "experiments/abc471g/cost/costs.hpp"
#include "experiments/abc471g/cost/dispatch.hpp"
#include "experiments/abc471g/io.hpp"
#include "experiments/abc471g/problem.hpp"
#include "measure/errors.hpp"

using namespace joseki::abc471g;
namespace fs = std::filesystem;
using joseki::cpu::SimdLevel;

namespace {

const std::vector<std::string> CPU_SOLVERS = {"cpu-direct", "cpu-pairs", "editorial", "auto"};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The first folder that exists: JOSEKI_ABC471G_TESTDATA, then paths relative to the working
// directory (the repository root under ctest and on the GPU host), then to the source tree.
std::string first_dir(const std::vector<std::string>& relative) {
  std::vector<std::string> c;
  for (const auto& r : relative) c.push_back(r);
  for (const auto& r : relative) c.push_back(std::string(JOSEKI_SOURCE_DIR) + "/" + r);
  for (const auto& d : c)
    if (fs::is_directory(d)) return d;
  return "";
}

// The shared vectors (../shared/testdata/abc471g, or where the device staging put them).
std::string shared_vectors() {
  if (const char* e = std::getenv("JOSEKI_ABC471G_TESTDATA"); e && fs::is_directory(e)) return e;
  return first_dir({"../shared/testdata/abc471g", ".device/testdata/abc471g"});
}

std::vector<fs::path> inputs_in(const std::string& dir) {
  std::vector<fs::path> v;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".in") v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<SimdLevel> levels() {
  std::vector<SimdLevel> l{SimdLevel::Scalar};
  for (SimdLevel s : {SimdLevel::Avx2, SimdLevel::Avx512, SimdLevel::Neon})
    if (joseki::cpu::cpu_features().has(s)) l.push_back(s);
  return l;
}

Answer run(const std::string& solver, const Problem& p, int threads = 0) {
  SolveOptions o;
  o.threads = threads;
  return find_solver(solver).solve(p, o).answer;
}

void expect_same(const Answer& want, const Answer& got, const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  int shown = 0;
  for (std::size_t k = 0; k < want.size(); ++k)
    if (want[k] != got[k] && shown++ < 5) ADD_FAILURE() << what << ": shift " << k << ": " << got[k] << " != " << want[k];
}

void check_vector_dir(const std::string& dir, const std::vector<std::string>& solvers) {
  const auto ins = inputs_in(dir);
  ASSERT_FALSE(ins.empty()) << dir;
  for (const auto& in : ins) {
    const Problem p = parse_problem_text(slurp(in));
    const std::string want = slurp(fs::path(in).replace_extension(".out"));
    for (const auto& s : solvers) {
      if (s == "brute" && static_cast<double>(p.n) * p.k > 3e9) continue;
      EXPECT_EQ(format_answer(run(s, p)), want) << s << " on " << in.filename();
    }
  }
}

Problem make(std::uint64_t n, std::uint32_t k, std::uint64_t m, std::uint64_t seed, std::mt19937_64& rng,
             int vowels /* -1 random, 0 none, 1 all */) {
  Problem p;
  p.n = n;
  p.k = k;
  p.seed = seed;
  for (std::uint64_t i = 0; i < m; ++i) p.b.push_back(static_cast<std::uint32_t>(rng() % k));
  for (std::uint32_t j = 0; j < k; ++j) p.v.push_back(vowels < 0 ? static_cast<std::uint8_t>(rng() & 1) : vowels);
  return p;
}

}  // namespace

TEST(Abc471gSolvers, SharedVectorsForEveryCpuSolver) {
  const std::string dir = shared_vectors();
  if (dir.empty()) GTEST_SKIP() << "test vectors not found (../shared/testdata/abc471g or JOSEKI_ABC471G_TESTDATA)";
  std::vector<std::string> s = CPU_SOLVERS;
  s.push_back("brute");
  check_vector_dir(dir, s);
}

TEST(Abc471gSolvers, OwnGeneratedCasesForEveryCpuSolver) {
  std::vector<std::string> s = CPU_SOLVERS;
  s.push_back("brute");
  const std::string dir = first_dir({"tests/data/abc471g"});
  ASSERT_FALSE(dir.empty()) << "tests/data/abc471g not found from " << fs::current_path();
  check_vector_dir(dir, s);
}

TEST(Abc471gSolvers, DirectAtEverySimdLevelAndThreadCount) {
  std::mt19937_64 rng(21);
  std::vector<Problem> ps;
  ps.push_back(make(300000, 100, 150000, 77, rng, -1));   // several time-direction tasks, M inside one
  ps.push_back(make(70001, 1025, 3, kMaxSeed, rng, -1));  // K just above a multiple of 512
  ps.push_back(make(65, 2300, 65, 0, rng, -1));           // M = N
  for (const Problem& p : ps) {
    const Answer want = run("brute", p);
    for (const SimdLevel l : levels())
      for (const int t : {1, 2, 3, 5}) {
        SolveOptions o;
        o.threads = t;
        expect_same(want, cpu::solve_direct(p, o, l).answer,
                    std::string("cpu-direct ") + joseki::cpu::to_string(l) + " threads " + std::to_string(t));
      }
    for (const int t : {1, 3}) {
      SolveOptions o;
      o.threads = t;
      for (const SimdLevel l : levels())
        expect_same(want, cpu::solve_pairs(p, o, l).answer, "cpu-pairs threads " + std::to_string(t));
    }
  }
}

TEST(Abc471gSolvers, RandomSmallCasesAgainstBrute) {
  std::mt19937_64 rng(2026);
  const std::uint32_t ks[] = {1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257, 511, 512, 513, 1000, 1023, 2300};
  const std::uint64_t ns[] = {1, 2, 3, 10, 63, 64, 65, 127, 128, 129, 1000, 4097, 20000};
  for (int trial = 0; trial < 120; ++trial) {
    const std::uint32_t k = ks[rng() % std::size(ks)];
    const std::uint64_t n = ns[rng() % std::size(ns)];
    std::uint64_t m = 1 + rng() % n;
    if (trial % 5 == 0) m = n;
    if (trial % 7 == 0) m = 1;
    std::uint64_t seed = rng() & kMaxSeed;
    if (trial % 6 == 0) seed = 0;
    if (trial % 6 == 1) seed = kMaxSeed;
    const int vowels = trial % 9 == 0 ? 1 : trial % 9 == 1 ? 0 : -1;
    const Problem p = make(n, k, m, seed, rng, vowels);
    const Answer want = run("brute", p);
    const std::string what = "N=" + std::to_string(n) + " K=" + std::to_string(k) + " M=" + std::to_string(m) +
                             " seed=" + std::to_string(seed);
    for (const auto& s : CPU_SOLVERS) expect_same(want, run(s, p, 1 + trial % 3), s + " " + what);
    for (const SimdLevel l : levels())
      expect_same(want, cpu::solve_direct(p, SolveOptions{}, l).answer,
                  std::string("cpu-direct ") + joseki::cpu::to_string(l) + " " + what);
    if (vowels == 1) {
      for (std::uint32_t x = 0; x < k; ++x) ASSERT_EQ(want[x], 1u) << "all vowels: one syllable";
    }
    if (vowels == 0) {
      for (std::uint32_t x = 0; x < k; ++x) ASSERT_EQ(want[x], 0u) << "no vowels: no syllable";
    }
  }
}

TEST(Abc471gSolvers, EdgeCases) {
  std::mt19937_64 rng(9);
  struct Case {
    std::uint64_t n;
    std::uint32_t k;
    std::uint64_t m, seed;
    int vowels;
  };
  const Case cases[] = {{1, 1, 1, 0, 1},     {1, 1, 1, 0, 0},          {1000, 1, 1, 5, 1},   {1, 2300, 1, 0, -1},
                        {2, 2300, 2, 0, -1}, {5000, 2300, 1, kMaxSeed, -1}, {4096, 64, 4096, 3, -1},
                        {777, 4096, 2, 1, -1}};
  for (const Case& c : cases) {
    const Problem p = make(c.n, c.k, c.m, c.seed, rng, c.vowels);
    const Answer want = run("brute", p);
    for (const auto& s : CPU_SOLVERS) expect_same(want, run(s, p), s + " N=" + std::to_string(c.n) + " K=" + std::to_string(c.k));
  }
  // The largest K: direct (and auto) only; the pair solvers refuse it by name.
  const Problem big = make(300, kMaxK, 10, 12, rng, -1);
  const Answer want = run("brute", big);
  expect_same(want, run("cpu-direct", big), "cpu-direct K=65536");
  expect_same(want, run("auto", big), "auto K=65536");
  EXPECT_THROW(run("cpu-pairs", big), joseki::InputError);
  EXPECT_THROW(run("editorial", big), joseki::InputError);
}

TEST(Abc471gSolvers, EditorialRefusesNBeyondItsModulus) {
  std::mt19937_64 rng(1);
  const Problem p = make(998244354, 10, 1, 0, rng, -1);
  try {
    run("editorial", p);
    FAIL() << "accepted";
  } catch (const joseki::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("998244353"), std::string::npos) << e.what();
  }
}

TEST(Abc471gFftCombine, LimbSplitKeepsHugeCountsExact) {
  // Counts near 2^44: the a-priori bound exceeds 1/4, so the combine must split into limbs.
  std::mt19937_64 rng(4);
  for (const std::uint32_t k : {1u, 2u, 37u, 64u}) {
    cpu::PairTable t;
    t.k = k;
    t.row_stride = 2 * (k / 2 + 1);
    t.mem = cpu::HugeBuffer(sizeof(double) * k * t.row_stride);
    t.data = t.mem.as<double>();
    std::vector<std::uint8_t> v(k);
    for (auto& x : v) x = static_cast<std::uint8_t>(rng() & 1);
    if (k > 1) v[0] = 0, v[1] = 1;
    std::vector<std::uint64_t> c(static_cast<std::size_t>(k) * k);
    for (auto& x : c) x = (1ULL << 44) - (rng() % 4096);
    for (std::uint32_t a = 0; a < k; ++a)
      for (std::uint32_t b = 0; b < k; ++b) {
        const double x = static_cast<double>(c[a * k + b]);
        t.data[a * t.row_stride + b] = x;
        t.max_count = std::max(t.max_count, x);
        t.sum_sq += x * x;
      }
    cpu::CombineReport rep;
    const auto got = cpu::combine_fft(t, v, joseki::cpu::ThreadPool::global(), rep);
    if (k >= 37) {
      EXPECT_GT(rep.limbs, 1) << "bound " << rep.bound;
    }
    EXPECT_LE(rep.bound, 0.25);
    for (std::uint32_t s = 0; s < k; ++s) {
      __extension__ unsigned __int128 want = 0;  // sums of counts near 2^44 over K^2 cells
      for (std::uint32_t a = 0; a < k; ++a)
        for (std::uint32_t b = 0; b < k; ++b)
          if (!v[(a + s) % k] && v[(b + s) % k]) want += c[a * k + b];
      ASSERT_EQ(got[s], static_cast<std::uint64_t>(want)) << "K " << k << " shift " << s;
    }
  }
  EXPECT_LT(cpu::fft_error_bound(1e6, 2300), cpu::fft_error_bound(1e7, 2300));
}

TEST(Abc471gAuto, ExplainsItsChoiceWithEveryCandidate) {
  std::mt19937_64 rng(3);
  const Problem p = make(100000, 2300, 10, 1, rng, -1);
  SolveOptions o;
  o.explain = true;
  const SolveResult r = find_solver("auto").solve(p, o);
  EXPECT_NE(r.solver, "auto");
  EXPECT_NE(r.explanation.find("cpu-direct"), std::string::npos) << r.explanation;
  EXPECT_NE(r.explanation.find("cpu-pairs"), std::string::npos) << r.explanation;
  const Choice c = choose_solver({100000, 9000, 10}, machine_shape(o));
  bool pairs_infeasible = false;
  for (const auto& e : c.candidates) pairs_infeasible = pairs_infeasible || (e.solver == "cpu-pairs" && e.infeasible);
  EXPECT_TRUE(pairs_infeasible) << c.explanation;
  EXPECT_EQ(c.solver, "cpu-direct");
}

// Issue 14 item 4: the warm start is the solver's hook (no name test in the CLI), and the cost
// model has its own folder with no include arrow between it and any solver folder but the
// estimator registry (cost/estimator.hpp).
TEST(Abc471gAuto, WarmStartIsTheSolversHook) {
  for (const Solver& s : solver_registry()) {
    if (s.name == "auto") {
      EXPECT_FALSE(s.warm_start) << "auto has no hook of its own: `solve` warms the solver auto_plan chose";
    } else if (s.needs_gpu) {
      EXPECT_TRUE(s.warm_start) << s.name << ": a GPU solver starts its context while the input is read";
    } else {
      EXPECT_FALSE(s.warm_start) << s.name;
    }
  }
}

// Issue 17: the "GPU cannot win" rule. Every GPU estimate is a fixed cost of a process in some device
// state plus a non-negative solve time, so a best CPU estimate below the smaller fixed cost means no
// GPU solver can be chosen; at or above it the GPU solvers must be estimated.
TEST(Abc471gAuto, GpuCannotWinOnlyBelowTheSmallestFixedCost) {
  auto cpu = [](const char* name, double s, bool ok = true) {
    CostEstimate e{name, s, "", std::nullopt};
    if (!ok) e.infeasible = "cannot run";
    return e;
  };
  const auto why = gpu_cannot_win({cpu("cpu-pairs", 0.030), cpu("cpu-direct", 0.004)}, 0.300, 0.180);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("cpu-direct ~4.000 ms"), std::string::npos) << *why;
  EXPECT_NE(why->find("held state, 180.0 ms"), std::string::npos) << *why;
  // The best feasible CPU estimate counts: an infeasible cheaper one does not.
  EXPECT_FALSE(gpu_cannot_win({cpu("cpu-pairs", 0.001, false), cpu("cpu-direct", 0.200)}, 0.300, 0.180));
  // At or above the smaller fixed cost the GPU could win: it must be asked.
  EXPECT_FALSE(gpu_cannot_win({cpu("cpu-direct", 0.180)}, 0.300, 0.180));
  EXPECT_FALSE(gpu_cannot_win({cpu("cpu-direct", 0.250)}, 0.300, 0.180));
  // Whichever state is cheaper bounds it (a cost file whose idle figure is the smaller one).
  const auto idle = gpu_cannot_win({cpu("cpu-direct", 0.100)}, 0.150, 0.200);
  ASSERT_TRUE(idle.has_value());
  EXPECT_NE(idle->find("idle state, 150.0 ms"), std::string::npos) << *idle;
  EXPECT_FALSE(gpu_cannot_win({cpu("cpu-direct", 0.160)}, 0.150, 0.200));
  // No CPU solver can run: the GPU solvers must be asked.
  EXPECT_FALSE(gpu_cannot_win({cpu("cpu-direct", 0.001, false)}, 0.300, 0.180));
  EXPECT_FALSE(gpu_cannot_win({}, 0.300, 0.180));
}

// The rule inside choose_solver, whatever cost file this machine has (the active one decides both
// the CPU estimates and the GPU's fixed costs): the GPU is not asked exactly where the best CPU
// estimate is below the smaller fixed cost; then every GPU row is "not estimated" and never run, and
// otherwise every GPU row is estimated (possible, or not possible for a stated reason such as a
// CPU-only build). N = 1000 and N = 10^13 normally fall on either side; both sides are checked.
TEST(Abc471gAuto, ChooseSolverAsksTheGpuOnlyWhereItCouldWin) {
  MachineShape m;
  m.threads = 2;
  const CostModel& costs = active_costs();
  const double floor = std::min(costs.gpu_fixed_s(DeviceState::Idle), costs.gpu_fixed_s(DeviceState::Held));
  for (const std::uint64_t n : {std::uint64_t{1000}, std::uint64_t{10'000'000'000'000ULL}}) {
    const Choice c = choose_solver({n, 2300, 1000}, m);
    double best_cpu = 1e300;
    int gpu_rows = 0;
    for (const CostEstimate& e : c.candidates)
      if (e.solver.rfind("gpu-", 0) != 0 && !e.infeasible) best_cpu = std::min(best_cpu, e.seconds);
    EXPECT_EQ(c.gpu_not_asked.has_value(), best_cpu < floor) << c.explanation;
    EXPECT_EQ(c.explanation.find("GPU not asked") != std::string::npos, c.gpu_not_asked.has_value()) << c.explanation;
    for (const CostEstimate& e : c.candidates) {
      const bool gpu = e.solver.rfind("gpu-", 0) == 0;
      gpu_rows += gpu;
      EXPECT_EQ(e.not_asked, gpu && c.gpu_not_asked.has_value()) << e.solver << "\n" << c.explanation;
      if (e.not_asked) EXPECT_TRUE(e.infeasible.has_value()) << e.solver << ": a GPU row not asked must never be run";
      if (gpu && !c.gpu_not_asked && e.infeasible)
        EXPECT_EQ(e.infeasible->find("not estimated"), std::string::npos) << e.solver << ": " << *e.infeasible;
    }
    EXPECT_GE(gpu_rows, 1) << c.explanation;
    if (c.gpu_not_asked) EXPECT_EQ(c.solver.rfind("gpu-", 0), std::string::npos) << c.explanation;
  }
}

// auto_plan decides once per process and shape; solve_auto runs that plan (what `solve` warmed).
TEST(Abc471gAuto, AutoPlanIsKeptPerShape) {
  SolveOptions o;
  o.threads = 1;
  const Choice& a = auto_plan({5000, 300, 10}, o);
  const Choice& b = auto_plan({5000, 300, 10}, o);
  EXPECT_EQ(&a, &b);
  EXPECT_GE(a.choose_s, 0.0);
  const std::string first = a.solver;
  EXPECT_NE(a.explanation.find("--explain says why"), std::string::npos) << "explain off: the short form";
  o.explain = true;
  const Choice& c = auto_plan({6000, 300, 10}, o);
  EXPECT_NE(c.explanation.find("N = 6000, K = 300"), std::string::npos) << c.explanation;
  EXPECT_FALSE(first.empty());
  std::mt19937_64 rng(5);
  const Problem p = make(6000, 300, 10, 1, rng, -1);
  const SolveResult r = find_solver("auto").solve(p, o);
  EXPECT_EQ(r.solver, c.solver);
  EXPECT_EQ(r.phases_s.count("auto"), 1u);
}

TEST(Abc471gAuto, CostModelFolderHasNoArrowToSolverFolders) {
  const fs::path root = fs::path(JOSEKI_SOURCE_DIR) / "src" / "experiments" / "abc471g";
  auto includes = [](const fs::path& f) {
    std::ifstream in(f);
    std::vector<std::string> v;
    for (std::string line; std::getline(in, line);)
      if (line.rfind("#include \"", 0) == 0) v.push_back(line);
    return v;
  };
  int seen = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), root).string();
    for (const std::string& inc : includes(e.path())) {
      ++seen;
      if (rel.rfind("cost/", 0) == 0) {
        EXPECT_EQ(inc.find("abc471g/gpu_"), std::string::npos) << rel << ": " << inc;
      } else if (rel.rfind("gpu_", 0) == 0) {
        EXPECT_EQ(inc.find("abc471g/cost/dispatch.hpp"), std::string::npos) << rel << ": " << inc;
        // A solver reaches the model only through cost/estimator.hpp (the benches read the cost file).
        if (rel.find("bench") == std::string::npos)
          EXPECT_EQ(inc.find("abc471g/cost/costs.hpp"), std::string::npos) << rel << ": " << inc;
      }
    }
  }
  EXPECT_GT(seen, 100) << "no sources found under " << root;
}

TEST(Abc471gBench, CaseSpecsParseAndBadOnesNameThePart) {
  EXPECT_EQ(parse_bench_case("max").spec.n, 7'000'000u);
  const BenchCase c = parse_bench_case("N=1e8,K=2300");
  EXPECT_EQ(c.spec.n, 100'000'000u);
  EXPECT_EQ(c.spec.k, 2300u);
  EXPECT_EQ(c.spec.m, 100'000u);
  EXPECT_EQ(parse_bench_case("N=50,K=3").spec.m, 50u);
  for (const char* bad : {"N=abc", "N=1.5", "Q=3", "N", "K=70000", "N=-1"}) {
    try {
      parse_bench_case(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const joseki::InputError& e) {
      EXPECT_FALSE(std::string(e.what()).empty());
    }
  }
  EXPECT_THROW(parse_solver_list("cpu-direct,nope"), joseki::InputError);
}
