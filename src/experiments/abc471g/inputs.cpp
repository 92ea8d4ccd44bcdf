#include "experiments/abc471g/inputs.hpp"

#include <charconv>
#include <random>

#include "measure/errors.hpp"

namespace joseki::abc471g {

std::string spec_error(const InstanceSpec& s, SpecNames names) {
  const bool opt = names == SpecNames::Options;
  auto field = [&](const char* option, const char* key, const std::string& v) {
    return opt ? std::string(option) + " " + v : std::string(key) + "=" + v;
  };
  if (s.n < 1 || s.n > kMaxN) return field("--n", "N", std::to_string(s.n)) + ": must be in 1.." + std::to_string(kMaxN);
  if (s.k < 1 || s.k > kMaxK) return field("--k", "K", std::to_string(s.k)) + ": must be in 1.." + std::to_string(kMaxK);
  if (s.m < 1 || s.m > s.n || s.m > kMaxM)
    return field("--m", "M", std::to_string(s.m)) + ": must be in 1..min(N, " + std::to_string(kMaxM) + ")";
  if (s.seed > kMaxSeed) return field("--seed", "seed", std::to_string(s.seed)) + ": must be at most 2^60-1";
  if (!(s.vowel_ratio >= 0 && s.vowel_ratio <= 1))
    return field("--vowels", "vowels", std::to_string(s.vowel_ratio)) + ": must be in [0, 1]";
  return "";
}

Problem make_problem(const InstanceSpec& s) {
  if (const std::string bad = spec_error(s); !bad.empty()) throw InputError(bad);
  std::mt19937_64 rng(s.rng);
  Problem p;
  p.n = s.n;
  p.k = s.k;
  p.seed = s.seed;
  std::uniform_int_distribution<std::uint32_t> val(0, s.k - 1);
  p.b.resize(s.m);
  for (auto& x : p.b) x = val(rng);
  std::bernoulli_distribution vowel(s.vowel_ratio);
  p.v.resize(s.k);
  for (auto& x : p.v) x = vowel(rng) ? 1 : 0;
  return p;
}

std::string to_text(const Problem& p) {
  std::string out;
  out.reserve(64 + p.b.size() * 6 + p.v.size() * 2);
  char buf[24];
  auto put = [&](std::uint64_t x, char sep) {
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    out.append(buf, r.ptr);
    out += sep;
  };
  put(p.n, ' ');
  put(p.k, ' ');
  put(p.seed, ' ');
  put(p.m(), '\n');
  for (std::size_t i = 0; i < p.b.size(); ++i) put(p.b[i], i + 1 == p.b.size() ? '\n' : ' ');
  for (std::size_t j = 0; j < p.v.size(); ++j) put(p.v[j], j + 1 == p.v.size() ? '\n' : ' ');
  return out;
}

}  // namespace joseki::abc471g
