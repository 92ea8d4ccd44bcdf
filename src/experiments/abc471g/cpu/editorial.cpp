// `editorial`: the baseline, written the way a contestant would from the editorial's formula —
// one core, a plain generator loop, an int pair table C[a][b], then for every row a the cyclic
// correlation S_a[k] = sum_b C[a][b] V[(b+k) mod K] by NTT mod 998244353 (length 2^m >= 3K-1:
// reversed row * V repeated twice), and answer[k] = V[(A_0+k) mod K] + sum_a U[(a+k) mod K] S_a[k].
// Exact while every S_a[k] < 998244353, i.e. N <= 998244353; refused beyond (InputError).
// Not optimized on purpose: it is the yardstick the other solvers are measured against.
// Measured (docs/ABC471G.md): max case 1.94 s of CPU on the 2-core development machine (the issue
// quotes about 1.9 s for the editorial's approach in plain C++); 16-core H200 host (2026-11-30 tour,
// results/h200/2026-11-30-tour): 3.162 s EXTERNAL (3.043 s of it the NTT combine); auto 11.278 ms
// there, 280x faster.
#include <chrono>
#include <string>
#include <vector>

#include "experiments/abc471g/cpu/pairs.hpp"
#include "experiments/abc471g/problem.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g {
namespace {

constexpr std::uint32_t MOD = 998244353, ROOT = 3;

std::uint32_t power(std::uint64_t b, std::uint64_t e) {
  std::uint64_t r = 1;
  b %= MOD;
  while (e) {
    if (e & 1) r = r * b % MOD;
    b = b * b % MOD;
    e >>= 1;
  }
  return static_cast<std::uint32_t>(r);
}

// Iterative radix-2 NTT, in place; invert = inverse transform including the 1/n factor.
void ntt(std::vector<std::uint32_t>& a, bool invert) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    std::uint64_t w = power(ROOT, (MOD - 1) / len);
    if (invert) w = power(w, MOD - 2);
    for (std::size_t i = 0; i < n; i += len) {
      std::uint64_t wn = 1;
      for (std::size_t j = 0; j < len / 2; ++j) {
        const std::uint32_t u = a[i + j];
        const std::uint32_t v = static_cast<std::uint32_t>(a[i + j + len / 2] * wn % MOD);
        a[i + j] = u + v < MOD ? u + v : u + v - MOD;
        a[i + j + len / 2] = u >= v ? u - v : u + MOD - v;
        wn = wn * w % MOD;
      }
    }
  }
  if (invert) {
    const std::uint64_t inv_n = power(n, MOD - 2);
    for (auto& x : a) x = static_cast<std::uint32_t>(x * inv_n % MOD);
  }
}

SolveResult solve_editorial(const Problem& p, const SolveOptions&) {
  const std::uint32_t k = p.k;
  if (p.n > MOD)
    throw InputError("editorial: N = " + std::to_string(p.n) + " is above 998244353: its NTT mod 998244353 would "
                     "not be exact; use cpu-pairs or cpu-direct");
  if (k > cpu::PAIRS_MAX_K)
    throw InputError("editorial: K = " + std::to_string(k) + " is above " + std::to_string(cpu::PAIRS_MAX_K) +
                     " (K^2 pair table); use cpu-direct");
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  // Generate and count pairs, one element at a time.
  std::vector<int> c(static_cast<std::size_t>(k) * k, 0);
  std::uint64_t state = p.seed;
  std::uint32_t first = 0, prev = 0;
  for (std::uint64_t i = 0; i < p.n; ++i) {
    std::uint32_t a;
    if (i < p.m()) {
      a = p.b[i];
    } else {
      a = pcg_value(state, k);
      state = lcg_step(state);
    }
    if (i == 0) first = a;
    else ++c[static_cast<std::size_t>(prev) * k + a];
    prev = a;
  }
  const auto t1 = Clock::now();
  std::size_t len = 1;
  while (len < 3 * static_cast<std::size_t>(k) - 1) len <<= 1;
  std::vector<std::uint32_t> fv(len, 0);
  for (std::uint32_t j = 0; j < 2 * k; ++j) fv[j] = p.v[j % k];
  ntt(fv, false);
  Answer ans(k, 0);
  std::vector<std::uint32_t> x(len);
  for (std::uint32_t a = 0; a < k; ++a) {
    const int* row = &c[static_cast<std::size_t>(a) * k];
    bool any = false;
    for (std::uint32_t b = 0; b < k; ++b) any = any || row[b] != 0;
    if (!any) continue;
    std::fill(x.begin(), x.end(), 0);
    for (std::uint32_t j = 0; j < k; ++j) x[j] = static_cast<std::uint32_t>(row[k - 1 - j]);
    ntt(x, false);
    for (std::size_t j = 0; j < len; ++j) x[j] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(x[j]) * fv[j] % MOD);
    ntt(x, true);
    for (std::uint32_t s = 0; s < k; ++s)
      if (!p.v[(a + s) % k]) ans[s] += x[k - 1 + s];
  }
  for (std::uint32_t s = 0; s < k; ++s) ans[s] += p.v[(first + s) % k];
  const auto t2 = Clock::now();
  SolveResult r;
  r.answer = std::move(ans);
  r.solver = "editorial";
  r.phases_s["count"] = std::chrono::duration<double>(t1 - t0).count();  // generation included
  r.phases_s["combine"] = std::chrono::duration<double>(t2 - t1).count();
  r.explanation = "editorial: one core, int pair table, " + std::to_string(k) + " row correlations by NTT of length " +
                  std::to_string(len) + " mod 998244353 (the baseline)";
  return r;
}

const SolverRegistrar reg{Solver{"editorial",
                                 "baseline as a contestant writes it: one core, pair table, NTT mod 998244353 per "
                                 "row (N <= 998244353, K <= 8192)",
                                 false, 80, solve_editorial}};

}  // namespace
}  // namespace joseki::abc471g
