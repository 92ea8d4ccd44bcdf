// Rung 64 of the gpu-pairs ladder (issue 19, the max-case goal): r60 with the partition's runs laid out in whole warps
// (PairsConfig::tail_runs; the layout is pairs_math.hpp's plan_runs, read by the lean partition kernel in
// r16_lean_count.cu). This file holds no code: the rung is that knob.
//
// What changed from r60: a partition thread whose run is not a whole number of generated full tiles (its run holds given
// values, or it is the chunk's last, partial run) takes the kernel's general path, ~1.7x a full tile's instructions a
// pair; a warp holding such a thread beside full ones runs both paths, and its block waits for it at every tile's
// barriers. The count's trace (session 22, call 3) showed the partition ending on that block: the one holding the last,
// partial run (block 525 at the max case: 215 full threads, one with 19 pairs, 40 without) ended 3-3.6 us after every
// other SM's last block (r57, M = 1: SMs' ends 22.62 / 22.72 / 22.82 us at the 10th / 50th / 90th percentile, 25.95 for
// it; r60 the same with block 527). Here the given pairs take runs of 41 over 77 whole warps, the full runs of 52 follow
// in 4146 whole warps, and the chunk's last 31 pairs go to one warp of single pairs: no warp mixes the two paths.
// Prediction (max case): the partition's end ~3 us earlier (26.9 -> ~24 us after the solve's start in the trace), the
// solve -2 to -3 us (~48 us); 10^8 and 10^9 about r60's (their tails are one thread among thousands of full runs; at
// 10^9 the wave has one free warp and plan_runs falls back to r60's layout; since 3774ee8 it lengthens the runs by up to
// 1/64 instead, r66).
// Measured (H200, results/h200/2026-12-04-session22, calls 4-5, code of 4ebe459 and 3774ee8; one rung a process, every
// answer exact against cpu-direct, GPU tests, memcheck and racecheck clean): HELD. Max case 48.53 us [48.48, 48.67] against
// r60's 50.87 [50.78, 50.94] (four processes each, call 4): -2.34 us; 48.61 [48.54, 48.64] against 51.07 in call 5 (five
// each); the count alone 30.87 against 33.1 us. Its trace: the SMs' last partition ends 24.10 / 24.35 / 25.25 us (min /
// median / max; r60 23.74 / 23.90 / 26.94); the SMs that end last now hold the given values' blocks (runs of 41 on the
// general path, ~1.3x a full run). Beyond the max case: 10^8 303.65 us [303.55, 303.74] against r60's 329.66 (-7.9 %, call
// 5, three processes each; 307.65 in call 4 with plan_runs' first form, runs of 740): there too the block holding the
// last, partial run had ended the partition. 10^9 2744.45 us (r60 2791.49 in call 4; one run each).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
