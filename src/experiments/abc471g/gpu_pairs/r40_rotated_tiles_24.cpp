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
// Measured (H200, results/h200/2026-12-03-session16/call2, code of 68e3942, medians of three processes [min, max];
// every answer exact, GPU tests and sanitizers clean): HALF. The max case 57.09 us [57.09, 57.15] against r38's 56.64
// (+0.45 us, as predicted). 10^9 3050.91 [3050.53, 3053.15] against r38's 3104.19: -1.7 %, not a tie - the partition
// alone 2.455 ms against 2.514 (call3, ncu: no local traffic left, 11.0 % more instructions than r31's kernel against
// 8.9 % in tiles of 28), still 8.2 % over r31's 2.270 ms. 10^8 337.63 [336.86, 338.42]: the ladder's best there, tied
// with r28's 338.40. The spill was a quarter of the rotation's cost at 10^9; the rest is the instructions.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
