// Rung 18 of the gpu-pairs ladder (issue 19, the 10^9 goal): r17 with the table cut into one slice a SM
// (PairsConfig::slices_per_sm = 1: 132 slices of 40,356 cells on the H200 at K = 2300, 158 KiB of counters a
// histogram block) instead of plan_slices' 395 slices of 13,452 cells (3 a SM). The kernels are r16's and
// r03's/r04's histogram kernels; this file holds no code: the rung is that knob (plan_slices_spread in
// pairs_math.hpp).
//
// What changed from r17: the partition kernel ranks, scans, reserves and writes out by slice; with 3x fewer
// slices a tile (12,288 pairs) reserves 132 runs in the buckets instead of 395, the runs it writes are ~93
// pairs (186 bytes) long instead of ~31 (62 bytes: two or three partly written 32-byte sectors each), the
// per-tile clearing of the slice counters is a third, and a warp's base lookups share more addresses. The
// histogram kernel counts the same pairs into larger blocks of counters: one block a SM (158 KiB) instead of
// three, so no other block hides its clearing and its flush into the table or the planes.
// Prediction: the partition kernel, bound by its per-tile work and the shared-memory pipe (ncu, session 9),
// gains ~5-10 % at 10^9 (~3.55 -> ~3.3 ms of count); the histograms lose a little (one block a SM). The 3.0 ms
// goal still needs more.
// Measured (H200, results/h200/2026-12-02-session10/final, code of dd87855, medians of three processes [min,
// max]; every answer exact against cpu-direct): N = 10^9 **3387.55 us** [3385.89, 3390.37] against r17's
// 3620.94 us (-6.4 %), 10^8 391.87 us against 412.00 (-4.9 %), the max case 66.40 us against 67.68 (-1.9 %).
// The count alone at 10^9: 3332.24 us (r17's 3566.24). The pieces, one at a time (pairs.sweep.slices_per_sm,
// r16's kernel in tiles of 24, blocks of 512, whole solves at 10^9): 395 -> 263 slices 3622.46 -> 3491.39 us
// (-3.6 %), 132 slices 3497.38 us (no further gain in the partition), then histogram blocks of 1024 threads
// 3384.35 us (-3.2 %: with one block a SM, 16 warps did not hide the shared-memory atomics' latency; 32 do).
// Held: -6.4 % at 10^9, inside the predicted 5-10 %; the histograms did not lose once their blocks had 1024
// threads. Session 10's first call found it (call1: the spreads and block sizes side by side).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
