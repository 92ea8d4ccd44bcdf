// Rung 25 of the gpu-pairs ladder (issue 19, the 10^9 goal): r24 in chunks of up to 2^30 pairs
// (PairsConfig::chunk_pairs = 2^30 instead of 2^28). This file holds no code: the rung is that knob.
//
// What changed from r24: N = 10^9 is one chunk instead of four (3 x 2^28 and a short last one). With one chunk
// the count is fused: the histograms write the product's planes directly and are launched as programmatic
// dependents of the partition (they clear their counters while it ends); with several, each chunk's histograms
// add into the table in stream order and the last chunk is short (a fifth of the GPU's time at 2/3 of the work
// rate, call 3: 469 us for 0.73 of a chunk's pairs). The buckets grow to 2.3 GB (132 slices x ~8.6 M entries).
// Before r23 one chunk lost (r19 in chunks of 2^30: 3239.76 us against 3179.97 in 2^28; session 10 also): the
// threads whose runs lie in the given values had 309 tiles to wait for instead of 83. r23 in chunks of 2^30
// read 3053.41 us (call 3, the chunk sweep).
// Prediction: ~3.0 ms at 10^9 (r23's 3053 us less r24's steady 1.8 %); unchanged at 10^8 and the max case
// (one chunk already).
// Measured (H200, results/h200/2026-12-02-session11, final call, code of e1224b3, medians of three processes;
// every answer exact): WRONG. 10^9 3184.86 us (r24 3184.53); the combine after the fused count falls from ~66 to
// ~49 us, but the partition's single launch takes 2590 us against 2503 for r24's four (launch times, call 4): with
// the tile-end barrier, the given values' straggler grows with the run (309 tiles instead of 83). r27 is this rung
// without that barrier. 10^8 and the max case unchanged (one chunk already).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
