// Rung 41 of the gpu-pairs ladder (issue 19, the max-case goal): r38 in tiles of 26 (PairsConfig::partition_tile = 26:
// lean_partition_kernel<26, 13, 256>, instantiated for variant 13 only). This file holds no code: the rung is that knob.
//
// What changed from r38: the partition is one wave of resident threads, each with a run of ceil(N / threads) pairs:
// at the max case on the H200 7e6 / (132 SMs x 4 blocks x 256) -> 52 pairs a thread. In tiles of 28 that is one full
// tile and one of 24, which takes the kernel's general path (per pair: the bounds tests of a run's end and of the given
// values, a key marked empty, a test in the scatter); in tiles of 24 (r40) it is two full tiles and one of 4, a third
// round of scan, barriers and write-out. In tiles of 26 the run is two full tiles: every generated pair on the full
// path, no third round. ncu (session 16) counted 63 thread instructions a pair in this kernel at the max case against
// 36.3 at 10^9, where runs are ~7,400 pairs long and almost every tile is full.
// Prediction (max case): the partition ~5 % fewer instructions (the general path's ~8 extra a pair on 24 of 52 pairs),
// 27.0 -> ~26 us alone; the whole max case -0.5 to -1.5 us against r38, ~55.5 us. At 10^9 a tie or a little worse
// (7 % more tiles than 28, each with its scan and barriers). The run's length depends on the GPU's SM count and N: on
// another GPU or at another N, 26 may split the run no better than 28.
// Measured (H200, results/h200/2026-12-03-session16/call4, code of 938b6ff, medians of three processes [min, max];
// every answer exact, GPU tests and sanitizers clean): the max case's best, and the prediction WRONG by 3x in the good
// direction. Max case 52.74 us [52.70, 52.77] against r38's 56.32 [56.19, 56.35] in the same runs (-3.6 us; the count
// alone 32.90 against 36.70 us). ncu: the partition 23.23 against 26.72 us (-13 %), 10.68 M warp instructions against
// 14.52 M (-26 %, not -5 %): the general path costs ~38 thread instructions a pair more than the full tile's, not ~8.
// 10^9 3038.18 us [3037.02, 3041.06] against r38's 3102.88 (-2.1 %; the kernel does not spill in tiles of 26); 10^8
// 337.70 against r40's 335.90, the best there.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
