// Rung 47 of the gpu-pairs ladder (issue 19, the max-case goal): r46 with a segment weighed as 12 stages instead of 8
// (WgmmaShape::segment_weight = 12). This file holds no code: the rung is that knob.
//
// What changed from r46: only the weight. r46's 8 stages a segment is an estimate from PC sampling (the epilogue's and
// the set-up's shares of the warps' time over ~1.7 segments a block: 6-9 stages); r46 and r47 bracket it. If a segment
// costs ~12 stages (the epilogue's barriers wait for the slowest warpgroup, which the sampling's averages hide), the
// model puts the costliest block at 45 stage-equivalents instead of the even split's 49 and r46's 46.
// Prediction (max case): within 0.3 us of r46 if the segment costs 8-10 stages; better than r46 by up to ~0.5 us if
// it costs 12 or more; nothing at 10^8 and 10^9.
// Measured: not yet (the first device call of session 18 measures it).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
