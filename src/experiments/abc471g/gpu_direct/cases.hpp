// The inputs the GPU ladder is checked and timed on: the shared test vectors (with their expected
// outputs), built-in cases (the max case, a small one), the random edge cases of the validation
// suite, and the plain CPU reference they are checked against.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g::gpu_cases {

struct Case {
  std::string name;
  Problem problem;
  std::optional<Answer> expected;  // from a test vector's .out; else compute the reference
};

// A_0..A_{N-1} (problem.hpp's generator).
std::vector<std::uint32_t> generate_all(const Problem& p);

// The definition, shift by shift, over all cores: obviously right, O(N K).
Answer reference_answer(const Problem& p, const std::vector<std::uint32_t>& a);
Answer reference_answer(const Problem& p);

// "" when equal; else the number of differing shifts and the first few (k, got, expected).
std::string compare_answers(const Answer& got, const Answer& want);

// The folder of the test vectors: $JOSEKI_TESTDATA, else ../shared/testdata/abc471g (relative to
// the working directory, which is the repository root for the tests), or .device/testdata/abc471g
// where only that exists (the GPU host, where scripts/device/stage.sh copies them).
std::string testdata_dir();

// Every NAME.in with its NAME.out in `dir`, sorted by name. Throws InputError naming a bad file;
// an absent folder gives an empty list (the caller says so).
std::vector<Case> load_vectors(const std::string& dir);

// Built-in cases: "max" (N = 7e6, K = 2300, M = 1e5: the contest's largest, generated from a
// fixed seed, the same as `joseki abc471g gen`'s default) and "small" (N = 5003, K = 300,
// M = 17: several chunks, tiles and blocks at the small configurations, quick under
// compute-sanitizer). Throws InputError listing the names.
Case builtin_case(const std::string& name);
std::vector<std::string> builtin_case_names();

// The random edge cases of the validation suite: K = 1, 31..33, 63..65, 2300, 2304; N = 1, N
// smaller than one chunk, N not a multiple of 32 or of a tile; M = 1 and M = N.
std::vector<Case> edge_cases();

}  // namespace joseki::abc471g::gpu_cases
