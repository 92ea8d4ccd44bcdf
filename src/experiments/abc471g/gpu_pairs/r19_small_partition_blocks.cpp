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
// Measured: see docs/ABC471G_SCALE.md ("r18, r19") and results/h200/2026-12-02-session10 (pending the final call).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
