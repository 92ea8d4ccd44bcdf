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
// Measured: see the ladder row in docs/ABC471G_SCALE.md (filled in when measured).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
