// Random problem instances in the official text format (for `joseki abc471g gen`, the bench
// and the tests): b and V drawn from a seeded std::mt19937_64, never all zeros unless asked.
#pragma once

#include <cstdint>
#include <string>

#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g {

struct InstanceSpec {
  std::uint64_t n = 7'000'000;
  std::uint32_t k = 2300;
  std::uint64_t m = 100'000;
  std::uint64_t seed = 0;       // the problem's LCG seed (<= 2^60-1)
  std::uint64_t rng = 1;        // seeds the draw of b and V
  double vowel_ratio = 0.5;     // P(V_j = 1)
};

// What is wrong with a spec, naming the field as gen's options (--n 0) or bench's --case keys
// (N=0); empty when it is valid.
enum class SpecNames { Options, CaseKeys };
std::string spec_error(const InstanceSpec& s, SpecNames names = SpecNames::Options);

Problem make_problem(const InstanceSpec& s);  // throws InputError on an invalid spec (names the field)
std::string to_text(const Problem& p);        // the official input format

}  // namespace joseki::abc471g
