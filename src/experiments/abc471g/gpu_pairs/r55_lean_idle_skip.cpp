// Rung 55 of the gpu-pairs ladder (issue 19, the max-case goal): r54 with r51's idle warpgroups skipping their stages
// (WgmmaShape::skip_idle = 1, idle_discount = 1), now that the split is found in 32-bit arithmetic by thread 0 alone
// (r54's LEAN kernel: block_begin32 takes the discount). This file holds no code: the rung is those knobs.
//
// What changed from r54: the list of x with V[x] = 0 holds 1172 rows at the max case, so its last row tile (rows 1024 ..
// 1171) has one warpgroup with no row (x = 0, its sums dropped by the epilogue). In r54 that warpgroup still builds its
// fragments and issues its wgmmas on each of that tile row's stages (18 of 90 tiles, a fifth of the stages). Here it
// only waits for each stage's bytes and releases the slot, and the split weighs such a stage 7/8 of a full one.
// Why now: r51 did the same on r49 and gained 2.1 us, but the controls and the cold trace showed that gain came from
// where its split put the slow last-column-tile epilogues (fixed by r53), while its light split's 64-bit divisions cost
// ~0.7 us at K = 2400 (removed by r54). What is left is the skipped work itself, which no run has measured on its own:
// the trace of r51 put a light stage at 0.425 us against a full one's 0.468 (0.91, the 7/8 the split assumes).
// Prediction (max case): a fifth of the stages 9 % cheaper, ~13 us of main loops a block: -0.1 to -0.3 us against r54
// in the same runs (within about twice the spread of one rung's processes, so four rounds at least); nothing at 10^8 and
// 10^9 (the same combine, ~1 % of the solve).
// Measured: see results/h200/2026-12-04-session21 (filled in below once measured).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
