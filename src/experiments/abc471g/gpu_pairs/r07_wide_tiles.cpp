// Rung 7 of the gpu-pairs ladder (issue 19, the 10^9 goal): r05 (r06's panels lost in call 1, so not
// them), with the partition kernel in tiles of
// 24 pairs per thread instead of 16 (PairsConfig::partition_tile = 24; the instantiation
// partition_kernel<512, 24> sits beside r03's <512, 16> and r04's <512, 18> in r03_partition_tc.cu,
// chosen by PartitionArgs::tile_pairs). This file holds no code: the rung is that knob.
//
// What changed from r05: at N = 10^9 the count is ~90 % of the solve and the partition kernel is
// issue-bound (ncu, r03: 52-60 % of issue slots). Every tile of 512 x 16 pairs pays the same fixed
// work whatever its size: the slice counters cleared, a block scan over 1024 counters (2 per thread),
// up to 395 global reservations, three barriers. Tiles of 24 pairs share it among 1.5x the pairs.
// Prediction: the per-tile share is ~1/6 of the partition's instructions (an estimate, no ncu split),
// so tiles of 24 save ~5 % of the partition: N = 10^9 ~4.75 -> ~4.5 ms; the max case unchanged (52
// pairs per thread: 3 tiles of 18 or of 24). Risk: 24 keys and 12 packed ranks per thread under the
// 64-register cap of two 512-thread blocks per SM may spill (r03 measured a spilling 32-register build
// at +28 %); the records say so by their time. ptxas (sm_90, this build): <512, 16> and <512, 18> spill
// nothing; <512, 24> a 40-byte stack frame, 36 bytes spilled (9 registers). Hence the sweep
// `pairs.sweep.partition_tile` (scale hopper) also measures 20 pairs per tile.
// Measured (H200, results/h200/2026-12-01-session5/final-b/hopper_abc, commit f65f2d5; 10^8 and 10^9 one
// run each, the max case the median of three processes; every answer exact): 10^9 4.595 ms vs r05's
// 4.711 ms (-2.5 %: half the predicted 5 %; tile 24 in the sweep 4.592 ms, tile 20 4.692 ms), 10^8
// 477.1 vs 498.1 us (-4.2 %), the max case 78.94 vs 77.15 us (+2.3 %: three tiles either way, the
// spill costs). The 10^9 goal (<= 3.0 ms) stays far: the count is 4.38x the generation floor.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
