// Rung 19 of the gpu-pairs ladder (issue 19, the 10^9 goal): r18 with r16's lean partition kernel in blocks of
// 256 threads, four a SM (PairsConfig::partition_threads = 256; the instantiation lean_partition_kernel<24, 4, 256>
// in r16_lean_count.cu, one slice a thread in the scan: it needs <= 256 slices, which r18's one slice a SM gives).
// This file holds no code: the rung is that knob.
//
// What changed from r18: the same 1024 threads a SM, the same 64 registers, tiles of 24 pairs a thread; a block
// is 256 threads (8 warps) instead of 512 (16). A tile's four barriers (after the ranking, the scan, the scatter
// and the write-out) each wait for 8 warps instead of 16, and four blocks a SM are at different phases of their
// tiles, so one block's barrier wait overlaps the others' generation. The scan and the reservations work on a
// tile of 6,144 pairs instead of 12,288 (the same slices), so they weigh twice as much a pair; the write runs are
// half as long (~47 pairs, 93 bytes).
// Prediction (from ncu of r17's kernel, session 9: issue slots 51 % busy, barrier and short-scoreboard stalls
// first): the barrier stalls shrink more than the per-tile work grows; a few % at 10^9.
// Measured (H200, results/h200/2026-12-02-session10/final, code of dd87855, medians of three processes [min,
// max]; every answer exact): N = 10^9 **3178.29 us** [3176.43, 3182.94] against r18's 3387.55 (-6.2 %), 10^8
// 371.39 us against 391.87 (-5.2 %), the max case **64.13 us** [64.06, 64.16] against 66.40 (-3.4 %). The count
// alone: 3131.84 us at 10^9 (3.01x the floor 1039.55 us; 4.6x r16's generator alone, 681.55 us), 37.02 us at
// the max case. Held in size, wrong in mechanism: ncu of chunk 0 at 10^9 (call2; against r17's kernel, which
// also differs in its 395 slices): 735.5 us against 873.5 us, issue slots 55.7 % busy against 50.0 %; the
// barrier stalls did NOT fall (0.96 per issued instruction against 0.87); the shared-memory queue did (short
// scoreboard 3.85 against 4.77, MIO throttle 0.54 against 1.02): four blocks at different points of their
// tiles spread the shared-memory phases (ranking, scatter, write-out) that two blocks of 512 run together.
// Negative results, kept as sweep points (pairs.sweep.slices_per_sm, medians of three):
//   * blocks of 128 (eight a SM, two slices a thread in the scan): 5631.31 us at 10^9, 1.77x r19. ncu (call3):
//     1360.6 us for chunk 0, one wave (register limit 8 blocks a SM), issue slots 29.5 % busy, short scoreboard
//     10.9 and MIO throttle 5.3 per issued instruction: the shared-memory queue overflows. Which of the
//     kernel's phases floods it was not measured (the scan's two slices a thread and twice the reservations
//     a pair are the candidates).
//   * tiles of 32 in three blocks of 256 a SM (80 registers, no spill): 3360.42 us (+5.7 %): 24 warps a SM
//     instead of 32 (ncu: warps active 33.6 %).
//   * tiles of 28 in four blocks of 256 (64 registers, no spill): 3132.08 us [3130.86, 3138.38], -1.5 %:
//     inside the 2 % tie rule, so not a rung.
//   * chunks of 2^29 and 2^30 pairs with r19's count: 3233.47 and 3240.19 us against 3184.90 at 2^28.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
