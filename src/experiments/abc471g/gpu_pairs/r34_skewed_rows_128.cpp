// Rung 34 of the gpu-pairs ladder (issue 19, the max-case goal): r33 with its skewed product in blocks of 128 rows
// (PairsConfig::wgmma.warpgroups = 2; the kernel is r33's, wgmma_combine_tma_kernel<2, 64, 8, true>). This file holds
// no code: the rung is that knob.
//
// What changed from r33: r33 runs r15's blocks of four warpgroups (256 rows, one block a SM). At V's half ones the
// compacted rows are ~1150 of 2300: 5 row tiles of 256 hold 1280 rows, 10 % of them padding; 9 tiles of 128 hold
// 1152. Two blocks of 128 rows a SM read each stage of P from L2 twice as often as one of 256 (r13 chose four
// warpgroups for that), and their windows are half as wide (1024 entries a copy: two blocks fit a SM).
// Prediction: a tie with r33 within ~5 % (10 % less tensor work against twice the P traffic through L2).
// Measured (H200, results/h200/2026-12-03-session13/final, code of 5c9f1c9, medians of three processes; exact): the
// max case 63.90 us [63.84, 64.13] against r33's 63.52, 10^8 351.04 against 350.59, 10^9 2907.63 against 2907.62; the
// combine alone 27.33 us against r33's 27.78 at the max case (-0.45 us), 40.22 against 39.87 at 10^9. As predicted, a
// tie within ~1 %: the smaller row tiles' 10 % less padding is worth about what the doubled reads of P cost.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
