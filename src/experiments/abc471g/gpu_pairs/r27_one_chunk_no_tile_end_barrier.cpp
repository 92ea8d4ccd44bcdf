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
// Measured (H200, results/h200/2026-12-02-session11, final call, code of e1224b3, medians of three processes
// [min, max]; every answer exact, sanitizers clean): held, not quite as far as predicted. 10^9 **3036.35 us**
// [3031.46, 3041.09] against r26's 3136.83 (-3.2 %) and r19's 3192.69 (-4.9 %); 10^8 349.49 us; the max case
// **62.88 us** [62.85, 62.94] (r19 64.19). The count alone 2992.51 us at 10^9 (2.88x the floor 1039.68 us), 36.10
// us at the max case. The 3.0 ms goal is missed by 1.2 %.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
