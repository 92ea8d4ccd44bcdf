// Rung 42 of the gpu-pairs ladder (issue 19, the max-case goal): r41 with r28's move - a tile of given values on the
// full tile's path - on the rotated-cell kernel (PairsConfig::partition_lean = 14: lean_partition_kernel<26, 14, 256>
// in r16_lean_count.cu). This file holds no code: the rung is that knob.
//
// What changed from r41: the max case's first M = 100,000 pairs are given values, the runs of ~1,923 threads (7.5 of
// 526 blocks). r41 put every other thread's run on the full tile's path (two tiles of 26), but a tile with given
// values still takes the general path (bounds tests a pair, keys marked empty, a test in the scatter), which r41's
// ncu measured at ~38 thread instructions a pair more than the full path. So the 7.5 blocks with given values carry
// ~1.7x a block's instructions, each on a SM with three ordinary blocks: ncu's busiest scheduler issued 23.9 K warp
// instructions against 20.2 K on average (+18 %). Here a tile whose pairs are all given goes through the full path
// (r28's variant 10: the given values loaded together, then ranked without tests).
// Prediction (max case): the busiest SMs near the average, the partition 23.2 -> ~21-22 us alone; the whole max case
// -1 to -2 us against r41 (~51 us). 10^8 and 10^9 a tie (M is 10^5 of 10^8 or 10^9 pairs), unless the variant
// spills (r28's did in tiles of 28: +1.1 % at the max case).
// Measured (H200, results/h200/2026-12-03-session16/call5, code of 5b2abad; every answer exact, GPU tests and memcheck
// clean, racecheck cut by the session's device time): a LOSS. Max case 53.41 us [53.28, 53.41] (three processes)
// against r41's 52.93 [52.83, 52.96] in the same runs; the count alone 33.50 against 32.99 us. ncu: the imbalance did
// fall - the busiest scheduler 22.6 K warp instructions against 20.3 K on average, r41's 23.9 K against 20.2 K - but the
// kernel took 24.58 us against 23.52, at 53.8 % issue against 55.7 %: variant 14 spills 8 bytes in tiles of 26
// (ptxas; variant 13 none) and carries a third tile path. 10^8 335.36 us, 10^9 3083.36 us (one run each; r41 338.10
// and 3033.18 in the same runs). Kept as a negative rung: the straggler was real, the cure cost more than it.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
