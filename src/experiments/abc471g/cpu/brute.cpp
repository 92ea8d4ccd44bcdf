// `brute`: the O(N*K) reference. For every shift k it follows the definition: a vowel at i
// starts a syllable when i == 0 or position i-1 is a consonant. A is streamed in blocks from
// generate(), never stored. Deliberately plain: the other solvers are tested against it.
#include <algorithm>
#include <chrono>
#include <vector>

#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g {
namespace {

SolveResult solve_brute(const Problem& p, const SolveOptions&) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint32_t k = p.k;
  std::vector<std::uint8_t> prev(k, 0);  // V at position i-1 for each shift; 0 before the start
  Answer ans(k, 0);
  constexpr std::uint64_t BLOCK = 4096;
  std::vector<std::uint32_t> a(BLOCK);
  for (std::uint64_t start = 0; start < p.n; start += BLOCK) {
    const std::uint64_t count = std::min<std::uint64_t>(BLOCK, p.n - start);
    generate(p, start, count, a.data());
    for (std::uint64_t j = 0; j < count; ++j) {
      const std::uint32_t x = a[j];
      for (std::uint32_t s = 0; s < k; ++s) {
        const std::uint32_t idx = x + s < k ? x + s : x + s - k;  // (A_i + s) mod K
        const std::uint8_t cur = p.v[idx];
        ans[s] += cur & (prev[s] ^ 1u);
        prev[s] = cur;
      }
    }
  }
  SolveResult r;
  r.answer = std::move(ans);
  r.solver = "brute";
  r.phases_s["count"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.explanation = "brute: O(N*K) scan of every shift (the reference)";
  return r;
}

const SolverRegistrar reg{Solver{"brute", "O(N*K) reference: every shift scanned directly (for tests)", false, 90,
                                 solve_brute}};

}  // namespace
}  // namespace joseki::abc471g
