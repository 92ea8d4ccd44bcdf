// Rung 22 of the gpu-pairs ladder (issue 19, the 10^9 goal): r21 with r19's write-out loop again
// (PairsConfig::partition_lean = 7: lean_partition_kernel<24, 7, 256> in r16_lean_count.cu). This file holds
// no code: the rung is that knob.
//
// What changed from r21: r21 = r19 + r20's unrolled write-out + no barrier closing a tile. Session 11's first
// call measured the two apart only in part: r20 (the unrolling alone) issued 4.3 % fewer instructions in chunk 0
// at 10^9 but took as long (737.7 against 735.5 us, ncu) and lost 1.4 % over the whole solve at 10^9; r21 won
// 4 % at 10^8 but lost 2 % at 10^9. Per launch (ncu, caches left alone, call 2): r19's chunks take 735, 660,
// 660 and 468 us, r21's 695, 695, 695 and 490 us. So r21 gains where r19 is slowest (chunk 0) and loses where
// r19 is fastest. This rung keeps the barrier's removal and drops the unrolling, which bought nothing.
// Prediction: if the unrolled write-out is what slows r21's later chunks (24 stores a thread issued back to
// back queue in the LSU), r22 keeps r21's chunk 0 and r19's later chunks: ~3 % under r19 at 10^9.
// Measured (H200, results/h200/2026-12-02-session11, final call, code of e1224b3, medians of three processes;
// every answer exact): HALF. 10^9 3171.30 us (r21 3256.74; r19 3192.69: -0.7 %, not -3 %), 10^8 356.26, the max
// case 63.90. Launch times (call 3): 681, 672, 672, 478 us: the unrolling was most of r21's loss in the later
// chunks, but without the tile-end barrier they still take 672 against r19's 660 us (+1.8 %).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
