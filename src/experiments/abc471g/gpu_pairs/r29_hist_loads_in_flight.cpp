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
// Measured: (pending the H200 run).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
