// Rung 65 of the gpu-pairs ladder (issue 19, the max-case goal): r64 with r62's trigger (PairsConfig::tail_runs and
// count_trigger together). This file holds no code: the rung is those two knobs.
//
// What changed from r64: each partition block also lets the fused histograms launch as it starts (r62). The two held
// apart in session 22's call 4 (same runs, four processes each): r62 -1.67 us against r57 (the histograms' launch and
// clearing off the critical path), r64 -2.34 us against r60 (no warp on both of the partition kernel's paths). They act
// on different ends of the partition (r64 its last block, r62 what follows it).
// Prediction (max case): the two gains add, ~-4 us against r60: ~46.8 us.
// Measured (H200, results/h200/2026-12-04-session22/call5, code of 3774ee8, five processes each, one rung a process; every
// answer exact against cpu-direct, GPU tests, memcheck and racecheck clean): HELD, as predicted. Max case **47.07 us**
// [46.94, 47.14] against r64's 48.61, r62's 49.38 and r60's 51.07 in the same runs: -4.00 us against r60, the two gains
// added; the lowest max case measured; the count alone 29.60 us (r60 33.22). Its trace: the partition's SMs end 23.20 /
// 23.38 / 24.35 us, the histograms enter 23.6-24.8 us and count until 27.7-30.0, their blocks end 29.5-32.1, and the
// combine runs from its last release at 33.25 us to 49.70 (the trace's times include ~3 us of host launch a timed solve
// does not). 10^8 **302.05 us** [302.02, 302.48] (three processes; r64 303.65, r60 329.66), the lowest 10^8 measured;
// 10^9 2747.87 us (one run; r66 is the 10^9 rung).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
