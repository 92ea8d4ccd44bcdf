// Rung 37 of the gpu-pairs ladder (issue 19, the max-case goal): r33 with the rotation done where each pair is
// counted (PairsConfig::partition_lean = 13: lean_partition_kernel<28, 13, 256> in r16_lean_count.cu; the cell in
// pairs_math.hpp's rotated_cell). This file holds no code: the rung is that knob.
//
// What changed from r33: r33's skewed combine reads P[a][d] = C[a][(a + d) mod K], the table's rows rotated, and
// r33's histograms made P from C after their last barrier: a second pass over the slice (its bytes staged in shared
// memory, then every output word a funnel shift of two words), +5.6 us on the max case's count (41.02 against
// r31's 35.39 us). Here the partition kernel counts pair (a, b) at cell a kp + (b - a) mod K instead of a kp + b
// (a (kp - 1) + b, plus K when b < a: one compare and one add more a pair), so the slices, the buckets, the spill
// into the table and the histograms all hold P already, and the histograms write plane 0 with r31's packed 32-bit
// stores; the slicing pass (several chunks) writes P unrotated as well (PairsDevice::skew_writes is false).
// A combine that reads the planes unrotated cannot follow it: the PairsDevice refuses partition_lean 13 with any
// combine kind but a skewed one (InputError). Where K takes the atomic count instead (kp > 4096), nothing rotates at
// the count and the slicing pass writes P as for r33.
// Prediction (max case, V half ones): the count back to r31's ~35.4 us plus the two instructions a pair (~38.5 ->
// ~40.5 a pair in the partition: +~0.5 us), the combine r33's ~27.8 us: the whole max case ~62.2 -> ~59-60 us, the
// best so far but still far from 40 us. 10^9: the partition is issue-bound (~58 % of issue slots), so +2 of ~38.5
// instructions could cost up to ~+100 us, against r33's combine -9.5 us: a loss of up to ~3 % there (r31 stays the
// 10^9 rung); 10^8 about a tie.
// Not yet measured on the H200: every device call of session 15 (2026-12-03) was refused (no machine), so its GPU
// tests, sanitizer runs and timings have not run; the CPU tests (the rotated cell, the configuration) and CI pass.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
