// The generator (with jump-ahead) and the solver registry of problem.hpp.
#include "experiments/abc471g/problem.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "measure/errors.hpp"

namespace joseki::abc471g {

// d steps of s -> a*s + c at once: square-and-multiply on the affine map (A, C): s -> A*s + C.
// Composition (A2, C2) after (A1, C1) = (A2*A1, A2*C1 + C2); all arithmetic mod 2^64.
std::uint64_t lcg_jump(std::uint64_t state, std::uint64_t d) {
  std::uint64_t acc_mul = 1, acc_inc = 0;            // the identity map
  std::uint64_t cur_mul = kLcgMul, cur_inc = kLcgInc;  // the map for 2^bit steps
  while (d) {
    if (d & 1) {
      acc_mul *= cur_mul;
      acc_inc = acc_inc * cur_mul + cur_inc;
    }
    cur_inc = (cur_mul + 1) * cur_inc;
    cur_mul *= cur_mul;
    d >>= 1;
  }
  return acc_mul * state + acc_inc;
}

void generate(const Problem& p, std::uint64_t start, std::uint64_t count, std::uint32_t* out) {
  if (start > p.n || count > p.n - start)
    throw std::out_of_range("abc471g::generate: range [" + std::to_string(start) + ", +" + std::to_string(count) +
                            ") exceeds N = " + std::to_string(p.n));
  if (count == 0) return;
  if (p.k == 0) throw std::invalid_argument("abc471g::generate: K = 0");
  const std::uint64_t m = p.m();
  std::uint64_t i = start;
  const std::uint64_t end = start + count;
  for (; i < end && i < m; ++i) *out++ = p.b[i];
  if (i == end) return;
  std::uint64_t state = lcg_jump(p.seed, i - m);
  for (; i < end; ++i) {
    *out++ = pcg_value(state, p.k);
    state = lcg_step(state);
  }
}

// --- solver registry ---------------------------------------------------------------

namespace {
struct RegistryState {
  std::vector<Solver> solvers;
  bool sorted = true;
};
RegistryState& registry_state() {
  static RegistryState s;
  return s;
}
}  // namespace

std::vector<Solver>& solver_registry() {
  RegistryState& s = registry_state();
  if (!s.sorted) {
    std::stable_sort(s.solvers.begin(), s.solvers.end(),
                     [](const Solver& a, const Solver& b) { return a.order < b.order; });
    s.sorted = true;
  }
  return s.solvers;
}

const Solver& find_solver(const std::string& name) {
  const auto& all = solver_registry();
  for (const Solver& s : all)
    if (s.name == name) return s;
  std::string names;
  for (const Solver& s : all) names += (names.empty() ? "" : ", ") + s.name;
  throw InputError("--solver " + name + ": unknown solver (solvers: " + names + ")");
}

SolverRegistrar::SolverRegistrar(Solver s) {
  RegistryState& st = registry_state();
  for (const Solver& e : st.solvers)
    if (e.name == s.name) throw std::logic_error("abc471g: solver '" + s.name + "' registered twice");
  st.solvers.push_back(std::move(s));
  st.sorted = false;
}

}  // namespace joseki::abc471g
