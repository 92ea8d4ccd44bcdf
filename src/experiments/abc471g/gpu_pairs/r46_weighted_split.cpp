// Rung 46 of the gpu-pairs ladder (issue 19, the max-case goal): r43 with the skewed combine's units split among its
// blocks by a segment's weight (WgmmaShape::segment_weight = 8 -> WgmmaCombineArgs::segment_weight;
// r09_wgmma_math.hpp block_begin_weighted, used by sm90a/r09_wgmma_combine.cu's TMA kernel). This file holds no code:
// the rung is that knob.
//
// What changed from r43: the combine's work is a list of units (plane, tile, stage); at the max case 5 row tiles x 18
// column tiles x 36 stages = 3240 units, and block i of 132 took [3240 i / 132, 3240 (i + 1) / 132): 24-25 stages each.
// A block that crosses a tile's boundary runs two segments, and each segment costs more than its stages: an epilogue
// (the accumulators into shared-memory windows, two block barriers, the windows into the answer), a set-up (the rows'
// loads, the pipeline's first copies). Session 17's PC sampling of r41's kernel put ~46 % of the warps' time in the main
// loop, ~19 % in the epilogue and ~10 % between the prologue and the loop: with ~1.7 segments a block that is ~6-9
// stages a segment. So the ~68 % of blocks with two segments end ~6-9 stages after the others, and they decide the
// kernel's end. Here the split weighs each segment as 8 stages: a block that holds a tile's start takes 8 stages fewer.
// Prediction (max case): the model (stages + 8 a segment; tests/unit Abc471gWgmmaEmu.WeightedSplitEvensTheSegmentsOut)
// puts the costliest block at 38 stage-equivalents instead of 41, -7 %; at ~0.44 us a stage in the loop that is ~-1.3 us
// if the blocks' ends decide the kernel's. Blocks start at different times in the solve (the histograms' last blocks),
// so: -0.5 to -1.3 us on the max case (~51.5 us against r43's 52.6); nothing at 10^8 and 10^9 (the combine is a few % of
// them).
// Measured (H200, results/h200/2026-12-03-session18/call1, code of ab2b511, medians of three processes [min, max]; every
// answer exact, GPU tests, memcheck and racecheck clean): HALF. The max case 53.70 us [53.70, 53.89] against r43's 54.11
// [54.05, 54.14] and r41's 54.56 in the same runs: -0.41 us, just under the predicted -0.5 to -1.3 (this call's runs
// read ~1.4 us above session 17's first call for r41 and r43). The combine alone gained more: 27.71 [27.68, 27.84]
// against r43's 29.25 [29.18, 29.44] us; ncu of its kernel alone 24.22 against 25.15 us, the busiest SM's active
// cycles 41.3 K against 43.2 K (-4.4 %; the model said -7 %), warp instructions unchanged (6.99 M). In the solve the
// blocks start when the histograms' blocks leave their SMs, so an even end in the kernel alone is not an even end
// there (call 2's trace measures the starts). 10^8 340.08 us (r43 340.61), 10^9 3047.26 us (r43 3036.35, +0.4 %; one
// run each): ties.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
