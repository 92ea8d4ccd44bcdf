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
// Measured (H200, results/h200/2026-12-03-session16/call1, code of be299fa, medians of three processes [min, max];
// every answer exact, GPU tests and sanitizers clean): the prediction HELD at the max case, WRONG at 10^9. Max case
// 59.87 us [59.87, 59.94] against r31's 62.34 and r33's 64.06 in the same runs (the count 36.86 us alone, r31 35.39;
// the combine 27.55, r33's); 10^8 345.89 against 345.50 (a tie). 10^9 3114.69 us against r31's 2884.13: +8.0 %, not
// the "up to ~3 %" predicted. ncu of the partition alone: +3.7 % at the max case (27.01 against 26.05 us), +10.7 % at
// 10^9 (2.514 against 2.270 ms, call3): the rotation costs 3.2 thread instructions a pair, not two, at both sizes;
// that is +5 % of the max case's 63 a pair but +8.9 % of 10^9's 36.3, and the spill loads rise 27 %. A max-case rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
