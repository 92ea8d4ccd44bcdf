// Rung 21 of the gpu-pairs ladder (issue 19, the 10^9 goal): r20 without the barrier that closes a tile
// (PairsConfig::partition_lean = 6: lean_partition_kernel<24, 6, 256> in r16_lean_count.cu). This file holds
// no code: the rung is that knob.
//
// What changed from r20: a tile of r16's kernel passes four block barriers (after the ranking, after the scan
// and reservations, after the scatter into the sorted tile, after the write-out) plus the one inside the scan.
// The last one only protects the slice counters: each thread clears its slice's counter before its write-out,
// and the next tile's ranking must not count into a counter that is not cleared yet. With two counter buffers
// (tile t counts into buffer t mod 2 and clears the other one right after its first barrier; that buffer was
// last read by tile t - 1's scatter, before tile t - 1's third barrier) the write-out needs no barrier after it:
// the next tile's first barrier already orders its reads of the sorted tile, of s_delta, s_limit and s_total
// before anyone writes them again. A warp done with its share of the write-out goes on to generate the next
// tile while the block's slower warps still write: the overlap that variant 3 (r16) bought with branches in
// the generation comes here for no instruction. Same instructions a pair; one barrier a tile less
// (4 per tile of 6,144 pairs instead of 5); 8 KiB of counters a block instead of 4 (four blocks a SM still fit).
// Prediction: ncu of r19's kernel shows 0.96 barrier-stall cycles per issued instruction (~12 % of the warps'
// cycles); a fifth of them go with this barrier, and part of the write-out's store latency now overlaps the
// generation: ~2-3 % at 10^9, less at the max case (a short run, 3 tiles).
// Measured (H200, results/h200/2026-12-02-session11, final call, code of e1224b3, medians of three processes;
// every answer exact, racecheck clean): HALF. 10^8 358.24 us against r20's 372.51 (-3.8 %), the max case 63.78
// (64.42), but 10^9 3256.74 (3241.57, +0.5 %). Launch by launch (ncu, caches left alone, call 2): r21's chunks at
// 10^9 take 694, 694, 694, 490 us; r19's 736, 660, 658, 467. r21 gains in chunk 0, where the block whose threads
// read the given values straggles, and loses ~5 % in the chunks without a straggler (r20's unrolling is part of
// that: r22). ncu of chunk 0 (call 1): 699.7 us, barrier stalls 1.09 per issued instruction (r19 0.96).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
