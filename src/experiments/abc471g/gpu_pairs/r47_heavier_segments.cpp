// Rung 47 of the gpu-pairs ladder (issue 19, the max-case goal): r46 with a segment weighed as 12 stages instead of 8
// (WgmmaShape::segment_weight = 12). This file holds no code: the rung is that knob.
//
// What changed from r46: only the weight. r46's 8 stages a segment is an estimate from PC sampling (the epilogue's and
// the set-up's shares of the warps' time over ~1.7 segments a block: 6-9 stages); r46 and r47 bracket it. If a segment
// costs ~12 stages (the epilogue's barriers wait for the slowest warpgroup, which the sampling's averages hide), the
// model puts the costliest block at 45 stage-equivalents instead of the even split's 49 and r46's 46.
// Prediction (max case): within 0.3 us of r46 if the segment costs 8-10 stages; better than r46 by up to ~0.5 us if
// it costs 12 or more; nothing at 10^8 and 10^9.
// Measured (H200, results/h200/2026-12-03-session18/call1, code of ab2b511, medians of three processes [min, max]; every
// answer exact, GPU tests, memcheck and racecheck clean): WRONG, a loss. The max case 54.62 us [54.59, 54.69] against
// r46's 53.70 and r43's 54.11 in the same runs; the combine alone 28.35 [28.29, 28.51] us (r46 27.71); ncu of its kernel
// alone 24.83 us (r46 24.22), the SMs' active cycles spread wider (29.8 K .. 42.6 K against r46's 31.0 K .. 41.3 K).
// So a segment costs less than 12 stages: with 12 the blocks that hold a tile's start are left too short and the
// others too long. 10^8 341.34 us, 10^9 3039.55 us (one run each): ties. Kept as a negative rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
