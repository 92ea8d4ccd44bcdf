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
// Measured: (pending: session 17's device call).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
