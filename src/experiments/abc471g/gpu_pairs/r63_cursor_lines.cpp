// Rung 63 of the gpu-pairs ladder (issue 19, the max-case goal): r62 with each slice's bucket cursor in its own 128-byte
// line (PairsConfig::cursor_lines -> PartitionArgs::cursor_stride 32, read by the lean partition kernel and the
// histograms). This file holds no code: the rung is that knob.
//
// What changed from r62: every partition block reserves room in each slice's bucket once a tile, one returning global
// atomicAdd a slice (132 at the max case), and the 132 cursors lay packed in 528 bytes: five 128-byte lines, so
// 526 blocks x 132 reservations a tile queued on five lines of (at most) five L2 slices. The count's trace (session 22,
// call 3) shows the partition's blocks taking 9.5-20.6 us for the same work, and the same SMs late from run to run
// (5, 37, 49 without given values); a reservation waits for its answer before the tile's scatter, under the block's
// barrier. Here each cursor has a line of its own, 132 lines spread over the L2's slices.
// Prediction: if the reservations queue on their lines, the partition's blocks closer together and -1 to -3 us at the
// max case, more at 10^9 (285 tiles a thread); if the L2 serves a line's atomics as fast as separate lines', a tie.
// Measured (H200, results/h200/2026-12-04-session22/call4, code of 4ebe459, four processes each, one rung a process; every
// answer exact, GPU tests and sanitizers clean): WRONG, a loss. Max case 49.89 us [49.82, 49.95] against r62's 49.20
// [49.15, 49.28]: +0.69 us; the count alone 32.53 against 31.96 us. Its trace's partition blocks took 10.0-21.2 us (r62's
// 9.7-20.4): the reservations' lines were not what kept the blocks apart (that was the last partial run and the given
// values' runs: r64). Why 132 lines cost more than five was not measured (one more line a reservation to miss in L1/L2 is
// a guess). Kept as a negative rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
