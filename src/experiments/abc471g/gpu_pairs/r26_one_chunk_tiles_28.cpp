// Rung 26 of the gpu-pairs ladder (issue 19, the 10^9 goal): r25 in tiles of 28 pairs a thread
// (PairsConfig::partition_tile = 28: lean_partition_kernel<28, 9, 256>, 64 registers, no spill). This file
// holds no code: the rung is that knob.
//
// What changed from r25: 28 pairs a thread and tile instead of 24, so a run has a seventh fewer tiles and a
// seventh fewer per-tile scans, reservations and barriers; the sorted tile grows to 28 KiB a block (four blocks
// of 256 a SM still fit). Session 10 measured tiles of 28 with r19's kernel at 10^9: 3132.08 us against 3178.29
// (-1.5 %, inside the 2 % tie rule, so not a rung then); session 11's call 1: 3134.80 against 3179.78.
// Prediction: -1.5 % again on r25 at 10^9; no change at the max case (a run of ~52 pairs: 2 tiles either way).
// Measured: see docs/ABC471G_SCALE.md ("r20 .. r26") and results/h200/2026-12-02-session11.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
