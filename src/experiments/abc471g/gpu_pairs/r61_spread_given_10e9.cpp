// Rung 61 of the gpu-pairs ladder (issue 19, the 10^9 goal): r32 with r60's spread of the given values' pairs
// (PairsConfig::spread_given). This file holds no code: the rung is that knob.
//
// What changed from r32: r32 counts in one chunk of up to 2^30 pairs, one wave of 135,168 partition threads, so at
// N = 10^9 every thread takes a run of 7399 pairs. The M = 100,000 given values lie in the first 14 threads' runs, all on
// the kernel's general path (~1.7x a full tile's instructions a pair), so those threads need ~1.7x as long as any other.
// r60's spread gives them runs of 3572 over 28 threads (the generated pairs leave 28 of the wave free) and so takes them
// under the others' 7399. The count's rotation of r37 .. r60, which the skewed combine needs, costs the partition ~8 % at
// 10^9 (session 16): r32 keeps the unrotated cells and the plain combine, and stays the 10^9 rung.
// Prediction: r60 measured -222 us against r57 at 10^9 in one run (session 22, call 1: 2823.20 against 3045.86 us), so
// r61 ~-150 to -250 us against r32's ~2.87 ms, i.e. ~2.62-2.72 ms; 10^8 ~-1 % (runs of 740: the given values lie in
// 136 threads' runs, 168 threads are free, so runs of 596); the max case a tie (there the given values cost nothing: with M = 1
// the partition took the same time, session 22 call 1).
// Measured (H200, results/h200/2026-12-04-session22/call2, code of 016e719, three processes each, one rung a process; every
// answer exact against cpu-direct, GPU tests clean): HELD, by less than predicted. N = 10^9 **2769.70 us** [2767.84,
// 2775.30] against r32's 2874.59 [2874.51, 2874.74]: -104.9 us (-3.65 %), the lowest 10^9 measured (r60 2818.53 in the
// same runs); the count alone 2718-2728 against 2824-2829 us. So the given threads' runs cost ~105 us of r32's chunk, not
// 150-250: they held the kernel's end by ~half their extra time. 10^8 340.77 us [340.64, 340.86] against r32's 344.66
// (-1.1 %); r60 (334.56) stays the 10^8 rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
