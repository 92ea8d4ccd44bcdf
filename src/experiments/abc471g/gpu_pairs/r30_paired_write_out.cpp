// Rung 30 of the gpu-pairs ladder (issue 19, the 10^9 goal): r27 with the partition's write-out in pairs of
// entries (PairsConfig::partition_lean = 11: lean_partition_kernel<28, 11, 256> in r16_lean_count.cu). This file
// holds no code: the rung is that knob.
//
// What changed from r27: after a tile is sorted by slice in shared memory, each thread wrote its entries one at a
// time: a shared load of the key, a shared load of the slice's bucket offset, a 16-bit global store and a loop
// step per pair. Now every slice's run is padded to an even length, in the sorted tile (the scan adds cnt & 1)
// and in its bucket (the reservation is even, so every bucket cursor stays even): an odd run ends with a hole
// entry whose offset is `slice`, one past the slice's cells, which the histograms count into a spare counter that
// nothing reads (and the spill path skips). Then entries 2j and 2j + 1 always belong to one slice and land on a
// 4-byte-aligned pair of bucket slots: one 64-bit shared load, one offset load and one 32-bit store for two pairs.
// The cost: ~0.5 hole a slice a tile (~0.9 % more bucket bytes at one slice a SM, tiles of 28) and a hole store
// by the threads of odd slices.
// Why it might matter: session 11's call 1 (r29) timed the count's two kernels at 10^9 on their own (ncu, caches
// left alone): r27's partition 2419-2452 us, its histograms 553-562 us whatever their loads in flight (r29), so
// the partition is 81 % of the count, and in it the shared-memory pipe (short-scoreboard stalls, ~3.9 per issued
// instruction) is what waits. The write-out's per-pair shared loads and stores are 3 of the ~6 memory
// instructions a pair; paired, they are 1.5.
// Prediction: the partition ~5 % faster (~2.43 -> ~2.31 ms) if the memory instructions set its pace; at 10^9 the
// solve ~3.03 -> ~2.91 ms, under the 3.0 ms goal; ~5 % of the count at 10^8 and the max case. If the ranking
// atomics and the scatter set the pace instead, less.
// Measured (H200, results/h200/2026-12-02-session12/call2, code of 489c761, medians of three processes [min, max];
// every answer exact against cpu-direct, memcheck and racecheck clean): HELD. N = 10^9 **2911.86 us** [2904.42,
// 2918.74] against r27's 3023.84 in the same runs (-3.7 %): under the 3.0 ms goal. The partition alone (ncu, caches
// left alone, seven launches each): 2.304-2.328 ms against r27's 2.419-2.448 (-4.9 %, as predicted); 38.5
// instructions a pair (1204.5 M warp instructions), issue slots 58.1 % busy, short-scoreboard stalls still first
// (4.13 per issued instruction). The count alone 2864.74 us (r27 2987.68), the combine 48.83 us. 10^8: 342.80 us
// (r27 348.86), the max case 62.56 us (r27 63.10; its count 35.74 against 36.19 us). In tiles of 28 the kernel
// spills 8 bytes (ptxas), r27's does not; in tiles of 24 (no spill, chunks of 2^28, pairs.sweep.slices_per_sm) it
// also wins: 3024.58-3039.10 us against variant 8's 3156.16-3167.31.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
