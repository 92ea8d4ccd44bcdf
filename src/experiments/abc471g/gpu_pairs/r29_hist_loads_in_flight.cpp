// Rung 29 of the gpu-pairs ladder (issue 19, the 10^9 goal): r27 with four 16-byte loads in flight a histogram
// thread (PairsConfig::hist_loads = 4: fused_hist_kernel<1024, 4> in r04_partition_gemm.cu, bucket_histogram in
// partition_hist.cuh). This file holds no code: the rung is that knob.
//
// What changed from r27: the histogram half of the count reads each slice's bucket (2 bytes a pair: 2 GB at
// N = 10^9) and counts it with shared-memory atomics. Until r28 each thread loaded 16 bytes, counted its eight
// entries, and only then loaded the next 16: with one block of 1024 threads a SM (r18: one slice a SM, 158 KiB of
// counters) that is at most 16 KiB in flight a SM, ~2.1 MB over the GPU, where Little's law at ~4.5 TB/s and a
// loaded latency near 1 us asks for ~4.5 MB. Session 9 measured the histograms of r04's one chunk at 10^8 at
// 59.4 us for ~200 MB (3.4 TB/s). Now a thread issues four coalesced 16-byte loads, then counts their 32 entries:
// up to 64 KiB in flight a SM.
// Prediction: if the histograms at 10^9 read at ~3.4 TB/s (~590 us) and reach ~4.3 TB/s (~465 us) with the
// loads in flight, the count falls by ~100 us at 10^9: ~2.94 ms for the whole solve, under the 3.0 ms goal;
// ~10 us at 10^8, ~1 us at the max case (its buckets are ~14 MB). If the shared-memory atomics (~8.6 a cycle a
// SM at 4.3 TB/s) are the bound instead, little changes; the sweep pairs.sweep.hist_loads (1, 2, 4) tells.
// Measured (H200, results/h200/2026-12-02-session12, calls 1 - 3 and final; every answer exact, sanitizers clean):
// NEGATIVE, kept. N = 10^9 3024.86 us (call 1, medians of three processes) against r27's 3023.68 in the same runs;
// in the final call (code of 27f8233) 3023.14 us against 3023.81, 348.61 against 349.17 us at 10^8, 63.33 against
// 63.23 us at the max case. The sweep pairs.sweep.hist_loads at 10^9: 1, 2, 4 loads 3028.19, 3029.02, 3023.58 us
// (call 1), 3027.14, 3029.15, 3025.28 (final). The histogram kernel alone (ncu, caches left alone, call 1): 553-562
// us with one load in flight, 556-558 with two, 554-558 with four: 2 GB at ~3.6 TB/s whatever the loads in flight. Why
// (call 3, ncu's full set of the histogram kernel at 10^9, 559.7 us): the warps wait on the shared-memory
// instruction queue first (mio-throttle stalls 10.3 per issued instruction, then long scoreboard 9.6, short
// scoreboard 7.6; issue slots 25.9 % busy); the 10^9 shared-memory atomics had 84.4 M bank conflicts, ~2.7 extra
// wavefronts for each warp's atomic (random cells: 32 lanes over 32 banks). The bound is the shared-memory atomics,
// ~6.9 a cycle a SM, not the loads: more loads in flight only queue behind them.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
