// Rung 51 of the gpu-pairs ladder (issue 19, the max-case goal): r49 with the skewed combine's idle warpgroups skipping
// their stages (WgmmaShape::skip_idle = 1) and the split weighing those stages lighter (idle_discount = 1;
// r09_wgmma_math.hpp block_begin_light, sm90a/r09_wgmma_combine.cu). This file holds no code: the rung is those knobs.
//
// What changed from r49: a block's tile is 256 rows of the list of x with V[x] = 0 (four warpgroups of 64) by 128
// columns. At the max case the list holds 1150 rows, so the fifth row tile holds 126: two of its four warpgroups had
// only rows past the list (x = 0, their sums dropped by the epilogue) and still built their fragments and issued their
// wgmmas on every stage. Here such a warpgroup only waits for each stage's bytes and releases the slot, so the tensor
// cores serve the two with rows. That tile row is 18 of the 90 tiles (20 % of the stages), so ~10 % of the tensor work.
// The split must know it, or the blocks that hold those stages just finish early: with idle_discount d a stage of the
// last row tile counts as 8 - d x (idle warpgroups) eighths of a full stage; r51 guesses d = 1 (6/8 with two idle: the
// stage's fixed part, the copies, the waits and the fragments of two warpgroups, does not shrink).
// Prediction (max case): the split's model (the emulation's units, a segment 8 stages) puts the costliest block at 37
// stage-equivalents against r49's 38 if a light stage truly costs 0.6 - 0.75 of a full one: -0.3 to -0.6 us against
// r49 in the same runs; nothing at 10^8 and 10^9 (the same combine, ~1 % of the solve). The trace's main loops of the
// blocks that hold light stages say what one costs.
// Measured (H200, results/h200/2026-12-04-session20, calls 1-4, code of e33418c; every answer exact, GPU tests, memcheck
// and racecheck clean): HELD at the max case, but not for the predicted reason. 53.62 us [53.50, 53.73] against r49's
// 55.74 [55.55, 55.94] (eight processes each, one rung a process), 53.98 against 56.00 in call 1: -2.1 us, four times
// the prediction. The max case's list holds 1172 rows (one idle warpgroup, not two); a light stage took 0.425 us against
// a full one's 0.468 (0.91). Controls: K = 2400 (no idle warpgroup, r49's work and split exactly) +0.7 us (58.34 against
// 57.66; most likely the light split's 64-bit divisions after griddepcontrol.wait), K = 2250 (two idle) a tie (55.97
// against 55.84). The gain came from where the split put the blocks' boundaries: the last column tile's epilogue took a
// slow general path (r53) and r51's costliest blocks held fewer of them. 10^8 339.39, 10^9 3039.39 us.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
