// Rung 34 of the gpu-pairs ladder (issue 19, the max-case goal): r33 with its skewed product in blocks of 128 rows
// (PairsConfig::wgmma.warpgroups = 2; the kernel is r33's, wgmma_combine_tma_kernel<2, 64, 8, true>). This file holds
// no code: the rung is that knob.
//
// What changed from r33: r33 runs r15's blocks of four warpgroups (256 rows, one block a SM). At V's half ones the
// compacted rows are ~1150 of 2300: 5 row tiles of 256 hold 1280 rows, 10 % of them padding; 9 tiles of 128 hold
// 1152. Two blocks of 128 rows a SM read each stage of P from L2 twice as often as one of 256 (r13 chose four
// warpgroups for that), and their windows are half as wide (1024 entries a copy: two blocks fit a SM).
// Prediction: a tie with r33 within ~5 % (10 % less tensor work against twice the P traffic through L2).
// Measured: (filled in after the device calls; docs/ABC471G_SCALE.md "r33, r34").
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
