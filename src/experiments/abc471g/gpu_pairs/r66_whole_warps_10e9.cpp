// Rung 66 of the gpu-pairs ladder (issue 19, the 10^9 goal): r61 with r64's runs in whole warps (PairsConfig::tail_runs
// on r32's unrotated count and plain combine). This file holds no code: the rung is that knob.
//
// What changed from r61: at 10^9 every partition thread has a run of 7399 pairs and the wave leaves one warp free, so
// r64's plan (the given pairs and the last pairs in short runs over whole warps) does not fit; plan_runs now lengthens the
// runs (by at most 1/64) until the short runs are under 4/7 of a full one: 7400 pairs a thread, the given pairs in 32
// runs of 3125 (r61: 28 of 3572), and the chunk's last pairs, which r61 left to one partial run in a warp of full ones,
// in 32 runs of at most 4075.
// Prediction: at 10^8 r64 gained 7 % on r60 (330.80 -> 307.65 us, one run: there its last, partial run of ~740 pairs on
// both paths ended the partition); at 10^9 the same block holds one partial run of ~7400 pairs, so -1 to -5 % against
// r61's 2769.70 us (~2.63-2.74 ms).
// Measured (H200, results/h200/2026-12-04-session22/call5, code of 3774ee8, three processes each, one rung a process; every
// answer exact against cpu-direct, GPU tests, memcheck and racecheck clean): HELD, beyond the prediction. N = 10^9
// **2563.33 us** [2562.90, 2564.72] against r61's 2758.59 [2755.10, 2759.01] in the same runs: -195.3 us (-7.1 %); the
// count alone 2514.7-2516.7 against 2708.9-2710.6 us. The lowest 10^9 measured (r61 2769.70 in call 2, r32 2874.59): the
// block holding the last, partial run of ~7400 pairs on both of the kernel's paths had been ending the partition at 10^9.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
