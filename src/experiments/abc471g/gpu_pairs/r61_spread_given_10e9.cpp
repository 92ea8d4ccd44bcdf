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
// Measured: (below, once run).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
