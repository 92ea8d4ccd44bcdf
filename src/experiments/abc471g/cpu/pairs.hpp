// cpu-pairs: the pair-count formulation. Adjacent pairs C[a][b] = #{i >= 1 : A_{i-1} = a, A_i = b}
// are counted while generating (all cores; each thread jumps ahead to its range and keeps its
// own table; the pair across a range boundary belongs to the range of its second element), then
//   answer[k] = V[(A_0 + k) mod K] + sum_{a,b} C[a][b] (1 - V[(a+k) mod K]) V[(b+k) mod K]
// is evaluated with FFTW as the diagonal of a 2-D cyclic correlation, exact by rounding under a
// stated error bound (see fft_combine.hpp), checked against an exact checksum.
// Prediction: O(N) increments, but into a K^2 table that leaves the caches (21 MB for K = 2300),
// plus an O(K^2 log K) combine independent of N: slower than cpu-direct on the CPU at K = 2300.
// Measured (docs/ABC471G.md): max case 167 ms of CPU on the 2-core development machine;
// 16-core H200 host (results/h200/2026-11-30-tour): max case 59.3 ms EXTERNAL (count 28.7 ms,
// combine 22.5 ms), N = 1e9 804.4 ms.
#pragma once

#include <cstdint>
#include <vector>

#include "backend/cpu/cpu_info.hpp"
#include "experiments/abc471g/cpu/aligned.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g::cpu {

// K^2 counters: cpu-pairs refuses larger K (InputError) — a 32-bit table per thread and a
// double table of K x (K + 2) for the in-place FFT.
inline constexpr std::uint32_t PAIRS_MAX_K = 8192;
inline constexpr std::uint64_t PAIRS_TABLE_BUDGET = 2ULL << 30;  // bytes of per-thread tables, all threads

// The pair table, merged, as doubles (exact: every count <= N < 2^53) in FFTW's in-place r2c
// layout: row a starts at a * row_stride, row_stride = 2 * (K/2 + 1).
struct PairTable {
  std::uint32_t k = 0;
  std::size_t row_stride = 0;
  HugeBuffer mem;
  double* data = nullptr;  // in mem
  std::uint32_t first = 0;  // A_0
  double max_count = 0;     // largest entry
  // Sum of squares of the entries (for the error bound), in double: its relative error is below
  // K^2 * 2^-53 < 1e-8 (K <= 8192), which combine_fft covers with a margin of 1e-6. (Not long
  // double: on AArch64 that is IEEE quad precision done in software, ~50x slower than double.)
  double sum_sq = 0;
  double at(std::uint32_t a, std::uint32_t b) const { return data[a * row_stride + b]; }
};

struct PairCountStats {
  double generate_s = 0, count_s = 0, merge_s = 0;
  int threads = 0;
};

// Counts the pairs of A on `threads` threads (0 = all) at a SIMD level for the generator.
PairTable count_pairs(const Problem& p, int threads, joseki::cpu::SimdLevel level, PairCountStats& stats);

SolveResult solve_pairs(const Problem& p, const SolveOptions& opt, joseki::cpu::SimdLevel level);

}  // namespace joseki::abc471g::cpu
