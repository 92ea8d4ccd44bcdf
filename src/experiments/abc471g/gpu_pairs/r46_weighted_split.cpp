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
// Measured: not yet (the first device call of session 18 measures it).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
