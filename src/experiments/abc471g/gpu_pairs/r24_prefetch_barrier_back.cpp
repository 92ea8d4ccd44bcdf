// Rung 24 of the gpu-pairs ladder (issue 19, both goals): r19's kernel with r23's prefetch
// (PairsConfig::partition_lean = 9: lean_partition_kernel<24, 9, 256> in r16_lean_count.cu). This file holds
// no code: the rung is that knob.
//
// What changed from r23: the barrier that closes a tile is back (one counter buffer, r19's kernel); only r23's
// prefetch of the next tile's given values stays. Session 11's call 3 timed each launch at 10^9 (ncu, caches
// left alone): r19's chunks 737, 660, 660, 469 us; r22's (no tile-end barrier) 685, 672, 672, 478; r23's
// (r22 + prefetch) 674, 674, 674, 480. The prefetch removed chunk 0's straggler (the block whose threads read
// given values), and the missing barrier, which only helped while that straggler existed, costs 1.8 % in every
// chunk without given values.
// Prediction: r19's 660 us in chunks 1 and 2 and ~660 in chunk 0: ~-3 % against r19 at 10^9 (~3.09 ms).
// Measured (H200, results/h200/2026-12-02-session11, final call, code of e1224b3, medians of three processes;
// every answer exact): WRONG. 10^9 3184.53 us (r23 3169.23, r19 3192.69), 10^8 368.98 (r19 373.65). Launch times
// (call 4): 718, 658, 659, 468 us: the later chunks are r19's again, but with the barrier the prefetch leaves chunk
// 0 at 718 us (r19 736, r23 674). Why the barrier keeps the straggler slow was not measured. Kept as a rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
