// Rung 20 of the gpu-pairs ladder (issue 19, the 10^9 goal): r19 with a full tile's write-out unrolled
// (PairsConfig::partition_lean = 5: lean_partition_kernel<24, 5, 256> in r16_lean_count.cu). This file holds
// no code: the rung is that knob.
//
// What changed from r19: after a tile is sorted in shared memory, r16's kernel writes it out in a loop
// `for (i = tid; i < n; i += T)`: n is only known at run time, so every entry pays a loop counter, a bound
// test and a branch besides its two shared loads, its address and its store. When every pair of the tile was
// generated (n == 256 x 24, the rule: only a run's last tile or a tile of given values is partial), each
// thread writes exactly its 24 entries, so the loop is unrolled with no test per entry; partial tiles and
// spilling buckets keep the loop.
// Prediction: ncu of r19's kernel (session 10's final call) shows the warps partly issue-bound (issue slots
// 56 % busy, "not selected" 1.87 and "math pipe throttle" 1.35 per issued instruction beside the short
// scoreboard's 3.85): ~3 of ~39 instructions a pair less, ~3 % at 10^9.
// Measured: see docs/ABC471G_SCALE.md ("r20, r21") and results/h200/2026-12-02-session11.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
