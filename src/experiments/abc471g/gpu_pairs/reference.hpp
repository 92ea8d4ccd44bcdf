// CPU references for the gpu-pairs kernels, written with the same index math (pairs_math.hpp):
// the pair table, the NTT combine (r01's arithmetic), a plain O(K^3) combine for small K, and
// an emulation of the tensor-core combine (r02's slicing, fragment loads, PTX fragment layout
// and epilogue), lane by lane. The unit tests check these against brute force; the GPU tests
// and the benchmark check the kernels against these (and against the cpu-* solvers).
#pragma once

#include <cstdint>
#include <vector>

#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g::pairs {

// A_0 (the element whose vowel starts the first syllable): b_1 if M >= 1, else the generator's first.
std::uint32_t first_element(const Problem& p);

// C[a][b] = #{i : A_i = a, A_{i+1} = b} for pair starts [begin, end), row stride kp (>= K),
// with `threads` CPU threads (0: all). Counts are exact 64-bit.
std::vector<std::uint64_t> cpu_pair_table(const Problem& p, std::uint32_t kp, std::uint64_t begin,
                                          std::uint64_t end, int threads = 0);
inline std::vector<std::uint64_t> cpu_pair_table(const Problem& p, std::uint32_t kp, int threads = 0) {
  return cpu_pair_table(p, kp, 0, p.n > 0 ? p.n - 1 : 0, threads);
}

// answer[k] = V[(A_0 + k) mod K] + sum_{a,b} C[a][b] (1 - V[(a+k) mod K]) V[(b+k) mod K].
Answer combine_direct(const std::vector<std::uint64_t>& table, std::uint32_t kp, const Problem& p);  // O(K^3)
Answer combine_ntt_host(const std::vector<std::uint64_t>& table, std::uint32_t kp, const Problem& p,
                        int threads = 0);  // O(K^2 log K), r01's arithmetic
// r02's algorithm on the CPU: byte planes, fragments loaded through the kernel's index maps, an
// emulated mma.sync m16n8k32 in PTX's logical layout, the masked warp epilogue. Slow (for tests).
Answer combine_tc_emulated(const std::vector<std::uint64_t>& table, std::uint32_t kp, const Problem& p,
                           int warps_m, int warps_n, int fm, int fn);

// The whole pair-count solve on the CPU (table + NTT combine): the references' reference.
Answer solve_pairs_reference(const Problem& p, int threads = 0);

// NTT helpers (host): twiddles w^e and w^-e for e < l/2, and 1/l, for the power-of-two length l.
struct NttTwiddles {
  std::vector<std::uint64_t> tw, itw;
  std::uint64_t l_inv = 1;
};
NttTwiddles make_twiddles(std::uint32_t l);
void ntt_forward_host(std::vector<std::uint64_t>& x, const NttTwiddles& t);  // natural -> bit-reversed
void ntt_inverse_host(std::vector<std::uint64_t>& x, const NttTwiddles& t);  // bit-reversed -> natural, /l

}  // namespace joseki::abc471g::pairs
