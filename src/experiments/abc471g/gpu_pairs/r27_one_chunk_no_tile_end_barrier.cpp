// Rung 27 of the gpu-pairs ladder (issue 19, the 10^9 goal): r26 with r23's kernel (PairsConfig::partition_lean
// = 8: lean_partition_kernel<28, 8, 256>, two counter buffers, no barrier closing a tile, the prefetch of the
// given values), in one chunk of up to 2^30 pairs and tiles of 28. This file holds no code: the rung is those
// knobs.
//
// What changed from r26: the barrier that closes a tile goes again. Session 11's call 4 measured why r24 - r26
// gained little: with that barrier the prefetch did not remove chunk 0's straggler (launch times at 10^9: r24's
// chunk 0 718 us against 658 for chunks 1 and 2; r19's 736), and one chunk of 2^30 made it worse (r25: 2590 us in
// one launch against 2503 in four; its given-value threads have 309 tiles instead of 83). Without the barrier
// the prefetch did remove it (call 3: r23's chunks 674, 674, 674, 480 us), and r23 in one chunk of 2^30 read
// 3053.41 and 3056.35 us at 10^9 (calls 3 and 4, the chunk sweep) against r19's 3180.
// Prediction: r23's one-chunk 3053 us less the tiles of 28's ~1.5 %: ~3.01 ms at 10^9.
// Measured: see docs/ABC471G_SCALE.md ("r20 .. r28") and results/h200/2026-12-02-session11.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
