// Rung 50 of the gpu-pairs ladder (issue 19, the max-case goal): r49 with a segment weighed as 6 stages instead of 8
// (WgmmaShape::segment_weight = 6). This file holds no code: the rung is that knob.
//
// What changed from r49: only the weight with which block_begin_weighted splits the combine's units among its blocks.
// r46 (8) gained on r43 (no weight) and r47 (12) lost against r46: the bracket was open below 8. The split model
// (the emulation's units at the max case, 132 blocks; test_abc471g_wgmma_emu.cpp) puts the costliest block at
// 37 / 36 / 35 stage-equivalents for the even split / weight 8 / weight 6 if a segment truly costs 6 stages, and at
// 41 / 38 / 39 if it costs 8. Measured so far: weight 8 gained 0.41-0.80 us on the even split (~1-2 stages at ~0.48 us
// a stage), which fits a segment of ~6-7 stages better than 8; session 18's trace timed an epilogue at ~1.5 us
// (~3 stages) plus the segment's set-up (the first copies' latency, the rows, the accumulators' zeroing).
// Prediction (max case): -0 to -0.5 us against r49 in the same runs (one stage or none); nothing at 10^8 and 10^9.
// Measured (H200, results/h200/2026-12-04-session19/call1, code of 7fbe02d, medians of five processes [min, max]; every
// answer exact, GPU tests, memcheck and racecheck (call2) clean): WRONG, a tie on the losing side. The max case 52.96 us [52.90, 53.09]
// against r49's 52.90 [52.80, 52.99] in the same runs (+0.06 us); the combine alone 27.74 against 26.56 us. The trace
// says why: with weight 6 the blocks that run two segments end 0.5-0.9 us after those that run one (latest ends 22.66-
// 23.23 against 21.92-22.60 us), while with weight 8 both kinds end together (within 0.3 us). A segment costs about 8
// stages of the split; r46 (8) sits between r50 (6) and r47 (12), the bracket is closed. 10^8 340.13 us, 10^9
// 3041.41 us (one run each): ties with r49. Kept as a negative rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
