// Rung 15 of the gpu-pairs ladder (issue 19, the max-case goal): r13 with eight stage slots instead of
// six (PairsConfig::wgmma.stages = 8 with wgmma.tma = 1; the kernel is r13's, instantiated with NST = 8).
// This file holds no code: the rung is that knob.
//
// What changed from r13: ncu of r13's kernel (device call 6 of 2026-12-02) still ranks long-scoreboard
// waits first among its stalls (2.54 per issued instruction: the warps wait on a slot's `full` mbarrier,
// i.e. for the copy), with the copies four stages ahead. The final call of r13 (5087ebf) measured the
// kernel with eight slots as a bench shape: 28.38 us alone against 31.74 us with six (rs.wg4.bk64.if1.pad,
// cold, max case): the copies need more than four stages of lead.
// Prediction: the whole max case ~r13 - 3 us: ~71-72 us (r13: 74.46 us, median of three processes);
// 10^9 unchanged within noise (the combine is ~0.1 ms there).
// Measured (H200, results/h200/2026-12-02-session8/final-b, median of three processes, exact): the max case
// **71.10 us** [70.88, 71.26] (r13 74.40, r05 77.18: the best, 4.61x the floor), 10^8 492.64 us, 10^9
// 4.618 ms (unchanged, as predicted). Held. The goal (<= 40 us) stays far: r04's count alone is 44.16 us.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
