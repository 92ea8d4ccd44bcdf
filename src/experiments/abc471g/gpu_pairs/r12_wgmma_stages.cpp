// Rung 12 of the gpu-pairs ladder (issue 19, the max-case goal): r11 with six stage slots instead of four
// (PairsConfig::wgmma.stages = 6, WgmmaCombineArgs::stages; r09_wgmma_math.hpp DEEP_STAGES; the kernel is
// r09's, instantiated with NST = 6 for rs with a group in flight). This file holds no code: the rung is
// that knob.
//
// What changed from r11: with a group in flight the copies ran only STAGES - 2 = 2 stages ahead. ncu of
// r11's kernel (device call 3 of 2026-12-02, rs.wg4.bk64.if1.pad) ranks its warps' stalls per issued
// instruction: MIO throttle 2.22, wait 1.41, long scoreboard 1.35, not selected 1.25, short scoreboard
// 1.24, barrier 0.94, gmma 0.43; and r11 without any load after the prologue (a diagnostic) ran 30.2 us
// against 36.6 us. Six slots let the copies run four stages ahead (~4 x 1.6k cycles at r11's pace, well
// past an L2 round trip), at 16 KB more shared memory per block (68 KB at K = 2300, one block per SM).
// Prediction: the long-scoreboard share goes; the kernel alone ~36.6 -> ~31-33 us (the no-load diagnostic
// is the floor of this structure), the whole max case ~81 -> ~76-78 us, about r05's 77.5 us.
// Measured (H200, results/h200/2026-12-02-session8): the kernel alone 36.74 -> 35.87 us (-2 %), the whole max
// case 79.62 -> 78.91 us, 10^9 4.632 ms. Wrong: the loads were not the bound; MIO throttle stays first (1.83),
// i.e. 512 threads' cp.async and fragment loads queueing on one unit (r13 removes the cp.async).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
