// Rung 40 of the gpu-pairs ladder (issue 19): r38 in tiles of 24 (PairsConfig::partition_tile = 24:
// lean_partition_kernel<24, 13, 256>). This file holds no code: the rung is that knob.
//
// What changed from r38: each partition thread generates, ranks and scatters 24 pairs a tile instead of 28. ptxas:
// the rotated-cell kernel (variant 13) spills in tiles of 28 (8 bytes stored, 12 loaded a thread; r31's variant 12:
// 8 and 8) and not in tiles of 24. r37's count measured +8.4 % at 10^9 against r31's (3078 against 2839 us,
// results/h200/2026-12-03-session16), much more than the +3.7 % of the partition kernel at the max case (ncu) and
// than the two instructions a pair predicted (up to +3 %).
// Why: r32 found the tile size of no account for r31's kernel in one chunk; if the rotated kernel's extra spill load
// is what costs it at 10^9, tiles of 24 take it back.
// Prediction: a tie at 10^9 (about 3.1 ms: the loss is the extra instructions of an issue-bound kernel, not the
// spill), the max case ~+0.5 us (r32 against r31: +0.5 to +0.7 us), ~57 us.
// Not yet measured on the H200.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
