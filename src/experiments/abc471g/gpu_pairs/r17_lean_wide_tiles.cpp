// Rung 17 of the gpu-pairs ladder (issue 19, the 10^9 goal): r16's lean partition kernel in r07's tiles of
// 24 pairs per thread (PairsConfig::partition_tile = 24 with partition_lean = 4; the instantiation
// lean_partition_kernel<24, 4> in r16_lean_count.cu). This file holds no code: the rung is that knob.
//
// What changed from r16: r07 took r03's kernel to tiles of 24 and gained 2.5 % at 10^9 (the per-tile scan,
// reservations and barriers shared by 1.5x the pairs; r03's kernel spilled 36 bytes there). The lean
// kernel spends fewer instructions per pair, so the same per-tile work weighs more, and in tiles of 24 it
// does not spill (ptxas: 64 registers, no stack).
// Prediction: more than r07's 2.5 %: ~5-10 % at 10^9 and 10^8; the max case (52 pairs a thread: three tiles
// of 18 or of 24) unchanged or a little slower, as r07 was.
// Measured (H200, device call 7 of 2026-12-02 session 9, one process each; sweep pairs.sweep.partition_kernel,
// variant 4): 10^9 3601.8 us against r16's 3878.2 us (-7.1 %), 10^8 410.3 us against 438.6 us (-6.5 %), the
// max case 67.36 us against 66.43 us (+1.4 %). Final figures (median of three processes): see
// results/h200/2026-12-02-session9/NOTE.md and docs/ABC471G_SCALE.md "r16, r17".
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
