// AtCoder ABC471 G "Caeser Syllables": the problem, its input, its generator, and
// the solver registry. See ../shared/guide/ABC471G.md.
//
// Input (whitespace separated):  N K seed M / b_1 .. b_M / V_0 .. V_{K-1}
// A_i (0-indexed) = b_i for i < M; otherwise the PCG32 XSH-RR output of the LCG state after
// (i - M) steps from `seed`, mod K. For every shift k the answer is the number of maximal runs
// of vowels in V[(A_i + k) mod K].
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace joseki::abc471g {

inline constexpr std::uint64_t kLcgMul = 6364136223846793005ULL;
inline constexpr std::uint64_t kLcgInc = 2026081520260815ULL;
inline constexpr std::uint64_t kMaxSeed = (1ULL << 60) - 1;

// Limits of this implementation (added; the contest's are N <= 7e6, K <= 2300, M <= 1e5):
//   N <= 10^15: below 2^53, so every count (<= N) is exact in a double (the FFT path) and in u64;
//               A is streamed, never stored: memory does not depend on N.
//   K <= 65536: A_i fits 16 bits; the direct method's bank of pre-shifted V copies stays ~140 KiB
//               (L2) and its cost grows as N*K/512; cpu-pairs needs K^2 counters and has its own,
//               lower limit (see cpu-pairs).
//   M <= 10^8:  the given values b are kept in memory (4 bytes each).
inline constexpr std::uint64_t kMaxN = 1'000'000'000'000'000ULL;
inline constexpr std::uint32_t kMaxK = 65536;
inline constexpr std::uint64_t kMaxM = 100'000'000ULL;

struct Problem {
  std::uint64_t n = 0;
  std::uint32_t k = 0;
  std::uint64_t seed = 0;
  std::vector<std::uint32_t> b;  // the M given values (b_i < K)
  std::vector<std::uint8_t> v;   // K flags, 0 or 1
  std::uint64_t m() const { return b.size(); }
};

// One step of the LCG, and d steps at once in O(log d) (compose s -> a*s + c with itself).
constexpr std::uint64_t lcg_step(std::uint64_t s) { return s * kLcgMul + kLcgInc; }
std::uint64_t lcg_jump(std::uint64_t state, std::uint64_t d);

// PCG32 XSH-RR output of a state (before the step), reduced mod k.
constexpr std::uint32_t pcg_value(std::uint64_t state, std::uint32_t k) {
  const std::uint32_t x = static_cast<std::uint32_t>(((state >> 18) ^ state) >> 27);
  const std::uint32_t r = static_cast<std::uint32_t>(state >> 59);
  const std::uint32_t y = (x >> r) | (x << ((32u - r) & 31u));
  return y % k;
}

// A_i for i in [start, start + count) into out; any start, in O(log start + count).
void generate(const Problem& p, std::uint64_t start, std::uint64_t count, std::uint32_t* out);

using Answer = std::vector<std::uint64_t>;  // K counts, line k+1 = shift k

// --- solvers -------------------------------------------------------------------------

struct SolveOptions {
  int device = 0;        // GPU for GPU solvers
  int threads = 0;       // CPU threads; 0 = all
  bool explain = false;  // fill SolveResult::explanation
};

struct SolveResult {
  Answer answer;
  std::string solver;                      // the solver that actually ran (auto resolves to one)
  std::map<std::string, double> phases_s;  // "parse", "generate", "count", "combine", ...
  std::optional<double> gpu_compute_s;     // CUDA events around the kernels, when a GPU ran
  std::optional<double> gpu_pipeline_s;    // first H2D to last D2H
  std::string explanation;                 // why (auto), what ran
};

struct Solver {
  std::string name;         // "brute", "cpu-direct", "cpu-pairs", "gpu-direct", ...
  std::string description;  // one line for --help
  bool needs_gpu = false;
  int order = 0;            // listing order
  std::function<SolveResult(const Problem&, const SolveOptions&)> solve;
  // Optional: called by `solve` first thing, before the input is read, with the device index; a
  // GPU solver starts its context (and the libraries it loads) on other threads here so that the
  // work overlaps reading and parsing (gpu_pairs/startup.hpp). Must not block; empty: nothing.
  std::function<void(int device)> warm_start = {};
};

// Solvers register themselves (static registrar in their own file):
//   static const SolverRegistrar reg{Solver{"cpu-direct", "...", false, 20, solve_cpu_direct}};
// (a GPU solver adds its warm_start hook as a sixth field)
std::vector<Solver>& solver_registry();  // sorted by order on first use after registration
const Solver& find_solver(const std::string& name);  // throws InputError listing the names
struct SolverRegistrar {
  explicit SolverRegistrar(Solver s);
};

}  // namespace joseki::abc471g
