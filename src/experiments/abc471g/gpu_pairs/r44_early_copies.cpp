// Rung 44 of the gpu-pairs ladder (issue 19, the max-case goal): r43 with the next segment's first copies issued before
// the epilogue (WgmmaShape::early_copies = 1 -> WgmmaCombineArgs::early_copies; sm90a/r09_wgmma_combine.cu, the TMA
// kernel's segment loop). This file holds no code: the rung is that knob.
//
// What changed from r43: the combine is stream-K: one wave of blocks (132 on the H200) shares the (plane, tile, stage)
// units evenly, so at the max case (1150 rows x with V[x] = 0 in 5 row tiles, 18 column tiles, 36 stages a tile:
// 3240 units) a block runs ~24.5 stages, and most blocks cross a tile boundary: two segments, each ending in the
// epilogue (skew_sums: shared atomics, two block barriers, the windows' flush into the answer). In r43 a segment's
// first TMA copies are issued after the previous segment's epilogue, so the warps then wait for a copy's full latency
// from L2 before the first wgmma. Here thread 0 issues the next segment's first AHEAD (six) copies right after its own
// warpgroup's last wgmma wait, before the epilogue; their slots are the ones every warpgroup releases at the end of
// its loop (thread 0 waits at the slot's `empty` barrier for the others, which arrive before the epilogue's first
// block barrier, so no warp waits on it in turn).
// Prediction (max case): the critical blocks (two segments) lose one copy latency (~1 us from L2, a few hundred ns
// at least): -0.3 to -1 us on the combine and the whole max case; nothing at 10^8 and 10^9.
// Measured (H200, results/h200/2026-12-03-session17/call1, code of cb01bad, medians of three processes [min, max]; every
// answer exact, GPU tests, memcheck and racecheck clean): WRONG, a tie. Max case 52.64 us [52.58, 52.64] against r43's
// 52.61 [52.50, 52.62] in the same runs; the combine alone 27.58-27.62 against 27.46-27.49 us; ncu of the kernel
// alone 24.19 us against r43's 23.62 (one launch each), 1.3 % more warp instructions (the next segment found twice).
// Why, from the same call's PC sampling of r41's kernel: a segment opens with two global loads from the rows list
// (x_lo, x_hi) before its first fragment, and the epilogue with two more (the tile's first and last x); with the
// copies issued early the first stage's data waits in shared memory while the warps wait for those loads, so the
// latency moved and did not go. r45 loads the rows early too. Kept as a negative rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
