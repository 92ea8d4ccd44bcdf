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
// Measured (H200, results/h200/2026-12-04-session21/call1, code of 45189a2; every answer exact, GPU tests, memcheck and
// racecheck clean): WRONG for the solve, a tie. Max case 51.01 us [50.91, 51.17] against r54's 51.17 [50.88, 51.30] in
// the same five rounds (one rung a process): -0.16 us, inside both spreads and the size of the control's noise (K = 2400,
// no idle warpgroup, the same work: +0.18 us). The combine alone did gain: 24.58 against 25.12 us (lower in all five
// processes), and K = 2250 (two idle warpgroups) -0.24 us. Why the solve did not follow, from the cold traces: the
// blocks that end last are, in both rungs, blocks of one segment and 30 stages and blocks of two segments and 22 stages
// (the second segment's fill makes their stages 0.53-0.57 us against 0.47), within ~0.3 us of each other, and none
// holds a light stage; the saving spread over the wave is ~0.6 of a stage a block, under the split's granularity, so
// they kept their stages. Only the blocks of the last row tile end earlier (the median end -0.8 us, the maximum not).
// 10^8 336.42 (r54 337.02), 10^9 3035.97 us (3037.89). Kept as a negative rung. (Measured on 45189a2, before r56's
// knob made r54's kernel read the stages ahead at run time; calls 2-4 re-measured r54 on the new code.)
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
