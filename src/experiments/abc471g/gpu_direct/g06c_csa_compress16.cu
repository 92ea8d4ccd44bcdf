// g06c — 2-rise fusion + CSA hierarchy (compress16).
// What changed from g06a: 32 elements give 16 fused pair bits, which a Harley-Seal tree of 15
//   carry-save adders adds into the four low planes (ones, twos, fours, eights); only the
//   weight-16 carry ripples, from plane 4: one ripple per 32 elements, ~2 LOP3 per pair bit.
// Prediction: the counter costs about 1.5 LOP3 per element; the lane window (2 loads + funnel
//   shift + address) is now the larger part. Seed: 8.15 -> 6.83 ms (1.19x).
// Preconditions: as g05.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 1.708 ms, 2.74x over g06a (the seed:
//   1.19x), 1.85x over g06b, 168.62x over g01. Holds, much larger: one ripple per 32 elements, and
//   the tree's 15 CSAs are independent work for a thread that would otherwise wait.
#include "experiments/abc471g/gpu_direct/bitsliced.cuh"

namespace joseki::abc471g::JK_GPU_NS {
namespace bitsliced {

// 32 elements: 16 pair rises through compress16, one ripple from the eights plane; then the rest.
struct Compress16Count {  // g06c
  JK_DEV void operator()(u32 (&cnt)[PLANES], const u32* __restrict__ a, u64 i, u64 end, u32 prev, VbitsLanes lanes) const {
    i = rise_compress16(cnt, a, i, end, prev, lanes);
    rise_pairs(cnt, a, i, end, prev, lanes);  // up to 31 elements left
  }
};

}  // namespace bitsliced

RungOps g06c_ops() { return bitsliced::vbits_ops<bitsliced::Compress16Count>(); }

}  // namespace joseki::abc471g::JK_GPU_NS
