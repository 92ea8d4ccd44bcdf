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
// Measured (H200, results/h200/2026-12-02-session9/final, code of b8550c3, medians of three processes
// [min, max]; every answer exact): 10^9 **3601.95 us** [3600.59, 3603.76] against r16's 3875.36 us (-7.1 %;
// r14, r03's kernel in these tiles, 4485.12 us: -19.7 %), 10^8 410.14 us against 439.15 us (-6.6 %), the
// max case 66.91 us against 66.62 us (+0.4 %). The count alone at 10^9: 3546.05 us (3.41x the floor
// 1039.90 us; 5.2x r16's generator alone, 681.79 us). Held. The 10^9 goal (<= 3.0 ms) is not met: ~0.6 ms
// short.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
