// Rung 26 of the gpu-pairs ladder (issue 19, the 10^9 goal): r25 in tiles of 28 pairs a thread
// (PairsConfig::partition_tile = 28: lean_partition_kernel<28, 9, 256>, 64 registers, no spill). This file
// holds no code: the rung is that knob.
//
// What changed from r25: 28 pairs a thread and tile instead of 24, so a run has a seventh fewer tiles and a
// seventh fewer per-tile scans, reservations and barriers; the sorted tile grows to 28 KiB a block (four blocks
// of 256 a SM still fit). Session 10 measured tiles of 28 with r19's kernel at 10^9: 3132.08 us against 3178.29
// (-1.5 %, inside the 2 % tie rule, so not a rung then); session 11's call 1: 3134.80 against 3179.78.
// Prediction: -1.5 % again on r25 at 10^9; no change at the max case (a run of ~52 pairs: 2 tiles either way).
// Measured (H200, results/h200/2026-12-02-session11, final call, code of e1224b3, medians of three processes;
// every answer exact): held. 10^9 3136.83 us against r25's 3184.86 (-1.5 %), 10^8 367.52 (369.38), the max case
// 64.51 (64.32). The single launch: 2535 us (call 4), 2540 us under ncu's full set (issue slots 56.2 % busy,
// short scoreboard 3.92 and barrier 0.90 per issued instruction).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
