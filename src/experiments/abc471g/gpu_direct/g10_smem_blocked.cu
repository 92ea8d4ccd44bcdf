// g10 — shared-memory table, register blocking (blocked.cuh with A from global memory).
// What changed from g09: the 9.5 KB strided table moves from L1 into shared memory (4 bank-
//   interleaved copies, built by each block); 8 threads share one stream of elements and each
//   owns 9 words (72 = all of K = 2300, no idle lanes); A arrives in coalesced tiles through
//   shared memory; counters stay in registers for the block's whole range (chunk = elements per
//   block, up to 63 tiles) and are decoded once, into shared-memory answers, then global atomics.
//   No partial-count array, no reduction kernel.
// Prediction: the lane words are now conflict-free 4-byte shared loads, 33 per 32 elements per
//   word, and that is the floor: N x 72 words x 4 B = 2 GB through shared memory at ~33 TB/s on
//   132 SMs is ~60 us; the counter's ~1.8 LOP3 per element-word (~45 us of integer issue) runs
//   beside it. Expect 0.1-0.2 ms, 20x+ over g08.
// Preconditions: K <= 2304; block a multiple of 32 up to 256; chunk <= 63 x 4 x block.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 219.60 us (block 128, 16384 elements
//   per block), 1.70x over g09, 1311.40x over g01. A little above the predicted 0.1-0.2 ms (3.6x
//   the ~60 us shared-memory floor, an estimate); "20x+ over g08" was wrong (2.05x): g08 on the
//   H200 is already 450 us, not the seed's 4.51 ms the estimate was scaled from.
#include "experiments/abc471g/gpu_direct/blocked.cuh"

namespace joseki::abc471g::JK_GPU_NS {

RungOps g10_ops() { return blocked::chunked_ops<u32, blocked::GlobalA>(false); }

}  // namespace joseki::abc471g::JK_GPU_NS
