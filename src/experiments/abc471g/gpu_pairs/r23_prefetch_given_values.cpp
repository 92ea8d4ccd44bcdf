// Rung 23 of the gpu-pairs ladder (issue 19, both goals): r22 with the next tile's given values prefetched into
// L1 (PairsConfig::partition_lean = 8: lean_partition_kernel<24, 8, 256> in r16_lean_count.cu). This file holds
// no code: the rung is that knob.
//
// What changed from r22: a thread whose run lies in the M = 10^5 given values (at 10^9 in chunks of 2^28: the
// first ~50 threads of chunk 0's block 0; at 10^8 ~135) loads its tile's 24 values at the tile's start (session
// 9 put them all in flight at once) and waits one load latency before it can rank them; its block waits for it
// at the tile's first barrier, and that block finishes the chunk last. r23 issues `prefetch.global.L1` for the
// next tile's values (two 128-byte lines at most) right after this tile's loads, so they arrive during this
// tile's barriers, scan, scatter and write-out (several us) and the next tile's loads hit L1. No register is
// held for them, so the kernel keeps 64 registers and four blocks a SM.
// Prediction: session 11's launch times (call 2) show r19's chunk 0 at 735 us against 660 us for chunks 1 and 2
// (same length; only chunk 0 holds given values): ~75 us, one L2 or HBM latency (~0.9 us) for each of the run's
// 83 tiles. Recovering most of it: ~-2 % at 10^9 and more at 10^8 and the max case, where the given values are a
// larger share of the chunk's runs.
// Measured (H200, results/h200/2026-12-02-session11, final call, code of e1224b3, medians of three processes;
// every answer exact, sanitizers clean): held at 10^8 (351.26 us against r22's 356.26, -1.4 %), not at 10^9 in
// chunks of 2^28 (3169.23 against 3171.30): chunk 0 now takes 674 us like the others (launch times, call 3: 674,
// 673, 676, 480), but the others still pay r22's 1.8 %. The straggler gone, one chunk of 2^30 pays off: r23's
// count in one chunk 3065.47 us at 10^9 (chunk sweep; 3053.41 and 3056.35 in calls 3 and 4) against 3171.39 in
// chunks of 2^28. The max case: 64.19 us (no gain).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
