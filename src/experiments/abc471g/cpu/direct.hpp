// cpu-direct: the seed's direct method on the CPU. Lane k of a bit vector is shift k; for each
// element the lane word is one unaligned load from an "alignment bank" (8 copies of the doubled
// V bit string, copy s shifted by s bits, plus one zero copy for "before the start"); rises are
// fused two at a time and counted by bit-sliced carry-save counters; the sequence is cut into
// time-direction tasks over all cores, each starting from the element before its range, so
// every pair (A_{i-1}, A_i) is counted exactly once.
// Prediction: a few ns of register work per element for K = 2300 (5 vectors of lanes), no memory
// traffic beyond the 5.8 KB bank; bound by vector ALU issue. Measured (docs/ABC471G.md): max case
// 28 ms of CPU for the whole process on the 2-core development machine (AVX-512);
// 16-core H200 host (results/h200/2026-11-30-tour): max case 12.0 ms EXTERNAL, N = 1e9 400.3 ms.
#pragma once

#include "backend/cpu/cpu_info.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g::cpu {

// The solver at an explicit SIMD level (tests compare levels; the registered solver uses
// simd_level()). A level above what the CPU has is lowered.
SolveResult solve_direct(const Problem& p, const SolveOptions& opt, joseki::cpu::SimdLevel level);

}  // namespace joseki::abc471g::cpu
