#include "experiments/abc471g/gpu_direct/cases.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "backend/cpu/parallel.hpp"
#include "experiments/abc471g/inputs.hpp"
#include "experiments/abc471g/io.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::gpu_cases {

std::vector<std::uint32_t> generate_all(const Problem& p) {
  std::vector<std::uint32_t> a(p.n);
  generate(p, 0, p.n, a.data());
  return a;
}

Answer reference_answer(const Problem& p, const std::vector<std::uint32_t>& a) {
  const std::uint32_t k = p.k;
  Answer ans(k, 0);
  constexpr std::int64_t SHIFTS_PER_TASK = 8;
  const std::int64_t tasks = (k + SHIFTS_PER_TASK - 1) / SHIFTS_PER_TASK;
  cpu::ThreadPool::global().parallel_for(tasks, [&](std::int64_t t) {
    const std::uint32_t s0 = static_cast<std::uint32_t>(t * SHIFTS_PER_TASK);
    const std::uint32_t s1 = std::min<std::uint32_t>(k, s0 + SHIFTS_PER_TASK);
    for (std::uint32_t s = s0; s < s1; ++s) {
      std::uint64_t count = 0;
      std::uint8_t prev = 0;  // nothing before A_0: a vowel there starts a syllable
      for (const std::uint32_t x : a) {
        const std::uint32_t idx = x + s < k ? x + s : x + s - k;  // (A_i + s) mod K
        const std::uint8_t cur = p.v[idx];
        count += cur & (prev ^ 1u);
        prev = cur;
      }
      ans[s] = count;
    }
  });
  return ans;
}

Answer reference_answer(const Problem& p) { return reference_answer(p, generate_all(p)); }

std::string compare_answers(const Answer& got, const Answer& want) {
  if (got.size() != want.size()) return fmt::format("{} answers, expected {}", got.size(), want.size());
  std::size_t bad = 0;
  std::string first;
  for (std::size_t k = 0; k < got.size(); ++k)
    if (got[k] != want[k]) {
      if (bad < 5) first += fmt::format("{}k={}: got {}, expected {}", bad ? "; " : "", k, got[k], want[k]);
      ++bad;
    }
  if (!bad) return "";
  return fmt::format("{} of {} shifts differ ({}{})", bad, got.size(), first, bad > 5 ? "; ..." : "");
}

std::string testdata_dir() {
  const char* e = std::getenv("JOSEKI_TESTDATA");
  if (e && *e) return e;
  // The GPU host has the vectors where scripts/device/stage.sh put them (a tour run from the
  // repository root sets no variable).
  const std::string shared = "../shared/testdata/abc471g", staged = ".device/testdata/abc471g";
  std::error_code ec;
  if (!std::filesystem::is_directory(shared, ec) && std::filesystem::is_directory(staged, ec)) return staged;
  return shared;
}

namespace {

Answer read_answer(const std::string& path, std::uint32_t k) {
  std::ifstream f(path);
  if (!f) throw InputError(fmt::format("test vector output '{}': cannot open", path));
  Answer a;
  std::string tok;
  while (f >> tok) {
    std::uint64_t v = 0;
    for (char c : tok) {
      if (c < '0' || c > '9') throw InputError(fmt::format("test vector output '{}': '{}' is not a count", path, tok));
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    a.push_back(v);
  }
  if (a.size() != k) throw InputError(fmt::format("test vector output '{}': {} lines, expected K = {}", path, a.size(), k));
  return a;
}

}  // namespace

std::vector<Case> load_vectors(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<Case> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  std::vector<fs::path> ins;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".in") ins.push_back(e.path());
  std::sort(ins.begin(), ins.end());
  for (const fs::path& in : ins) {
    fs::path outp = in;
    outp.replace_extension(".out");
    if (!fs::exists(outp, ec)) continue;
    std::ifstream f(in);
    if (!f) throw InputError(fmt::format("test vector '{}': cannot open", in.string()));
    std::stringstream ss;
    ss << f.rdbuf();
    Case c;
    c.name = in.stem().string();
    try {
      c.problem = parse_problem_text(ss.str());
    } catch (const InputError& e) {
      throw InputError(fmt::format("test vector '{}': {}", in.string(), e.what()));
    }
    c.expected = read_answer(outp.string(), c.problem.k);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<std::string> builtin_case_names() { return {"max", "small"}; }

Case builtin_case(const std::string& name) {
  InstanceSpec s;  // defaults: the max case of `joseki abc471g gen`
  if (name == "max") {
  } else if (name == "small") {
    s.n = 5003;
    s.k = 300;
    s.m = 17;
    s.seed = 123456789;
    s.rng = 7;
  } else {
    std::string names;
    for (const auto& n : builtin_case_names()) names += (names.empty() ? "" : ", ") + n;
    throw InputError(fmt::format("--case {}: unknown case (cases: {})", name, names));
  }
  return Case{name, make_problem(s), std::nullopt};
}

std::vector<Case> edge_cases() {
  static const InstanceSpec list[] = {  // n, k, m, seed, rng, vowel ratio
      {1, 1, 1, 5, 1, 0.5},           {1, 4, 1, 0, 2, 0.5},
      {2, 1, 2, 9, 3, 1.0},           {31, 31, 31, 77, 4, 0.5},       // M = N
      {33, 32, 1, kMaxSeed, 5, 0.5},  {100, 33, 3, 12345, 6, 0.3},
      {1000, 63, 1, 1, 7, 0.5},       {1025, 64, 10, 99, 8, 0.7},
      {2047, 65, 2047, 3, 9, 0.5},    {3001, 257, 17, 424242, 10, 0.5},  // M = N; W = 9
      {4099, 769, 100, 8, 11, 0.5},   {700, 2300, 5, 2026, 12, 0.5},
      {5003, 2304, 1, kMaxSeed, 13, 0.5}, {20011, 1000, 50, 31337, 14, 0.5},
      {70001, 37, 7, 0, 15, 0.5},     {999, 50, 9, 4, 16, 1.0},       // all vowels
      {999, 50, 9, 4, 17, 0.0},                                       // no vowel
  };
  std::vector<Case> out;
  for (const InstanceSpec& e : list)
    out.push_back(Case{fmt::format("edge_N{}_K{}_M{}_v{:g}", e.n, e.k, e.m, e.vowel_ratio), make_problem(e), std::nullopt});
  return out;
}

}  // namespace joseki::abc471g::gpu_cases
