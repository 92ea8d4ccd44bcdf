// Rung 60 of the gpu-pairs ladder (issue 19, the max-case goal): r57 with the partition's given values spread over the
// wave's free threads (PairsConfig::spread_given; the run layout is pairs_math.hpp's spread_given_runs, read by the lean
// partition kernel in r16_lean_count.cu). This file holds no code: the rung is that knob.
//
// What changed from r57: the partition kernel is one wave (132 SMs x 4 blocks x 256 threads = 135,168 at the max case)
// and every thread took a run of ceil(pairs / wave) = 52 pairs, two full tiles of 26. The threads whose runs lie in the
// M = 100,000 given values (1923 threads, 7.5 blocks) take the general path instead (a given value loaded a pair, a
// test a pair in the ranking and the scatter): ~1.7x a full tile's instructions (session 16's ncu: the busiest scheduler
// +18 % above the mean, the SMs holding one such block beside three others). The generated pairs need 132,692 threads at
// 52, so 2475 are free: here the given pairs take runs of 41 over 2439 threads, the generated ones runs of 52 after them,
// in the same one wave. Nothing else changes (the same tiles, buckets, histograms and combine).
// Prediction (max case): the SMs holding a given block from ~4.7 to ~4.3 blocks' work against 4, so the partition
// ~1.5-2 us shorter if its end is those SMs' (~8 % of ~23 us); the solve -1 to -2 us. No change at 10^8 and 10^9 (their
// runs are longer, and the given values are a smaller share of the first chunk), and none where no thread is free.
// Measured (H200, results/h200/2026-12-04-session22, calls 1-2, code of 9cc23a3 and 016e719; every answer exact against
// cpu-direct, GPU tests, memcheck and racecheck clean): at the max case NOT HELD, a tie: 50.82 us [50.75, 50.94] against
// r57's 50.91 [50.78, 51.01] (five processes each, one rung a process). The control says why: with M = 1 (no given value)
// r57 read 50.72-50.98 us and its partition kernel alone 23.36 us against 23.52 (ncu): the given values cost the max case
// nothing. Its partition's SMs are active 29.1 K-42.1 K cycles (mean 36.0 K) with or without them, every SM holding 3 or
// 4 blocks: the spread between SMs that ends the kernel is not the given values' (not yet explained). Where the runs are
// long it holds: N = 10^9 2818.53 us [2815.97, 2820.61] against r57's 3045.86 (one run; three processes for r60), the
// count alone 2791 against ~3000 us; N = 10^8 334.56 us [334.42, 335.31] against r57's 336.80 [336.48, 337.31] (three
// processes each), the lowest 10^8 measured.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
