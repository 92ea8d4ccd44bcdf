// The combine step of cpu-pairs: for every shift k
//   R[k] = sum_{a,b} C[a][b] U[(a+k) mod K] V[(b+k) mod K],   U = 1 - V,
// the diagonal of the 2-D cyclic correlation of C with U (x) V:
//   R[k] = K^-2 sum_r Y[r] w^{rk},   Y[r] = sum_{p+q = r mod K} conj(C^[p][q]) U^[p] V^[q]
// with one real 2-D FFT of C (rows r2c, then columns), two 1-D FFTs and one inverse 1-D FFT.
//
// Exactness. Every R[k] is an integer; the computed value is rounded. With e = 2^-53, the
// floating-point error is bounded (Higham, Accuracy and Stability, ch. 24, for the FFTs; naive
// summation for the K-term sums of Y) by
//   err <= e * ||C||_2 * (K/2) * (K + 10 log2(K^2))
// (||U^ (x) V^||_2 = K ||U||_2 ||V||_2 <= K^2 / 2). When that exceeds 1/4 the counts are split
// into limbs C = sum_j 2^(jL) C_j with L chosen so that each limb's bound is <= 1/4, and each
// limb is transformed alone. Every result is then also checked: its distance to the nearest
// integer must stay below 1/4, and sum_k R[k] must equal the exact integer
// sum_{a,b} C[a][b] G[(b-a) mod K], G[d] = #{x : U[x] V[x+d] = 1}. A failed check throws
// RunError: a wrong answer is never printed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backend/cpu/parallel.hpp"
#include "experiments/abc471g/cpu/pairs.hpp"

namespace joseki::abc471g::cpu {

struct CombineReport {
  int limbs = 1;
  double bound = 0;         // the a-priori error bound of one limb (<= 0.25)
  double max_frac = 0;      // largest distance of a computed value to its integer
  double checksum_s = 0, fft_s = 0, diagonal_s = 0;  // where the time went
  std::string summary() const;
};

// R[k] for every k (the pair part of the answer). `table` is transformed in place (destroyed).
std::vector<std::uint64_t> combine_fft(PairTable& table, const std::vector<std::uint8_t>& v,
                                       joseki::cpu::ThreadPool& pool, CombineReport& rep);

// The a-priori bound for a table with the given norm (exposed for tests and the docs).
double fft_error_bound(double norm2, std::uint32_t k);

}  // namespace joseki::abc471g::cpu
