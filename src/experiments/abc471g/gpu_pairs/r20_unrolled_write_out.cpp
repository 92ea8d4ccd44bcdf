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
// Measured (H200, results/h200/2026-12-02-session11, final call, code of e1224b3, medians of three processes;
// every answer exact): WRONG. 10^9 3241.57 us against r19's 3192.69 (+1.5 %), 10^8 372.51 (373.65), the max case
// 64.42 (64.19). ncu of chunk 0 at 10^9 (call 1): 327.5 M warp instructions against r19's 342.3 M (-4.3 %, as
// predicted) in 737.7 us against 735.5: the instructions went, the time did not. Kept as a negative rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
