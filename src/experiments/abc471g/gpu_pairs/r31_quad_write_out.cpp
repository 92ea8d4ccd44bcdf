// Rung 31 of the gpu-pairs ladder (issue 19, the 10^9 goal): r30 in groups of four entries
// (PairsConfig::partition_lean = 12: lean_partition_kernel<28, 12, 256> in r16_lean_count.cu). This file holds no
// code: the rung is that knob.
//
// What changed from r30: every slice's run is padded to a multiple of four (up to three holes, offset `slice`,
// counted by the histograms into their spare counter), so entries 4j .. 4j + 3 of a sorted tile always belong to
// one slice and land on an 8-byte-aligned group of bucket slots: one 128-bit shared load, one offset load and one
// 64-bit store for four pairs (r30: two of each for four).
// The cost: ~1.5 holes a run instead of ~0.5, i.e. ~2.8 % more bucket bytes at one slice a SM and tiles of 28
// (~54 pairs a run) instead of ~0.9 %, read again by the histograms (~+10 us of their ~556 at 10^9), and three
// hole stores a slice a tile.
// Why: r30's pairing took the partition from 2.42-2.45 to 2.30-2.33 ms at 10^9 (session 12, call 2), 4.9 % for
// halving the write-out's shared loads, offset loads and stores; the write-out is now ~1.5 of ~4.5 memory
// instructions a pair.
// Prediction: about half r30's gain again in the partition (~-2.5 %, ~-55 us at 10^9), less the histograms' extra
// bytes: ~2.87 ms at 10^9; ~1 % at 10^8 and the max case. If the ranking and the scatter now set the pace alone,
// nothing, and the holes make it a loss.
// Measured (H200, results/h200/2026-12-02-session12/call3, code of 1b96e12, medians of three processes [min, max];
// every answer exact against cpu-direct, memcheck and racecheck clean): HELD. N = 10^9 **2868.35 us** [2866.82,
// 2869.30] against r30's 2910.75 and r27's 3023.90 in the same runs (-1.5 %, -5.1 %); the partition alone (ncu,
// caches left alone, seven launches each) 2.243-2.274 ms against r30's 2.298-2.330 (-2.4 %, as predicted); the count
// alone 2827.54 us, the combine ~49 us. 10^8: 342.67 us (r30 343.74), the max case **61.70 us** [61.70, 61.73] (r30
// 62.08; its count 35.30 us). Tiles of 28 still spill 8 bytes; in chunks of 2^28 (pairs.sweep.slices_per_sm) the
// tiles of 24 were faster with this kernel (2977.57-2980.58 against 2995.71-3006.08 us at 10^9): r32.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
