// Helpers for the gpu-pairs tests (unit and GPU): small random problems with every corner the
// kernels must survive, and the shared test vectors (header-only; tests only).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "experiments/abc471g/io.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g::pairs::testing {

// N, K, M, seed, with b and V drawn from `rng` (V never all zeros unless vowel_p == 0).
inline Problem random_problem(std::uint64_t n, std::uint32_t k, std::uint64_t m, std::uint64_t seed, std::uint64_t rng,
                              double vowel_p = 0.5) {
  std::mt19937_64 g(rng);
  Problem p;
  p.n = n;
  p.k = k;
  p.seed = seed & ((1ULL << 60) - 1);
  p.b.resize(m);
  for (auto& x : p.b) x = static_cast<std::uint32_t>(g() % k);
  p.v.resize(k);
  std::bernoulli_distribution d(vowel_p);
  for (auto& x : p.v) x = d(g) ? 1 : 0;
  return p;
}

// Every given value the same: one cell of the pair table gets (almost) all the counts.
inline Problem heavy_cell_problem(std::uint64_t n, std::uint32_t k, std::uint32_t value, std::uint64_t rng) {
  Problem p = random_problem(n, k, n, 99, rng);
  for (auto& x : p.b) x = value % k;
  return p;
}

struct Vector {
  std::string name;
  Problem problem;
  Answer answer;
};

inline std::string testdata_dir() {
  std::vector<std::string> dirs;
  if (const char* e = std::getenv("JOSEKI_TESTDATA"); e && *e) dirs.emplace_back(e);
  dirs.emplace_back("../shared/testdata/abc471g");
  dirs.emplace_back(".device/testdata/abc471g");
#ifdef JOSEKI_SOURCE_DIR
  dirs.emplace_back(std::string(JOSEKI_SOURCE_DIR) + "/../shared/testdata/abc471g");
  dirs.emplace_back(std::string(JOSEKI_SOURCE_DIR) + "/.device/testdata/abc471g");
#endif
  for (const auto& d : dirs)
    if (std::filesystem::is_directory(d)) return d;
  return "";
}

inline std::vector<Vector> load_vectors() {
  std::vector<Vector> out;
  const std::string dir = testdata_dir();
  if (dir.empty()) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".in") continue;
    std::filesystem::path ans = e.path();
    ans.replace_extension(".out");
    std::ifstream in(e.path()), a(ans);
    if (!in || !a) continue;
    std::stringstream si, sa;
    si << in.rdbuf();
    Vector v;
    v.name = e.path().stem().string();
    v.problem = parse_problem_text(si.str());
    std::uint64_t x;
    while (a >> x) v.answer.push_back(x);
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace joseki::abc471g::pairs::testing
