// g06a — 2-rise fusion.
// What changed from g05: elements are taken two at a time. A rise at i needs c_i = 1 and a rise
//   at i+1 needs c_i = 0, so the two are exclusive and their sum is one bit per lane:
//   (c1 & ~c0) | (c2 & ~c1), a single 3-input LOP3. One ripple per two elements instead of two.
// Prediction: the ripple (the largest cost of g05) halves: about 1.3-1.5x (seed: 11.59 -> 8.15).
// Preconditions: as g05.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 4.684 ms, 1.70x over g05 (predicted
//   1.3-1.5x; the seed 1.42x), 61.49x over g01. More than predicted: half the ripples, and the
//   ripple's serial carry chain is what these few (15.4k) threads wait on.
#include "experiments/abc471g/gpu_direct/bitsliced.cuh"

namespace joseki::abc471g::JK_GPU_NS {
namespace bitsliced {

// Two rises per ripple (they never both fire in a lane), then the odd element.
struct TwoRiseCount {  // g06a
  JK_DEV void operator()(u32 (&cnt)[PLANES], const u32* __restrict__ a, u64 i, u64 end, u32 prev, VbitsLanes lanes) const {
    rise_pairs(cnt, a, i, end, prev, lanes);
  }
};

}  // namespace bitsliced

RungOps g06a_ops() { return bitsliced::vbits_ops<bitsliced::TwoRiseCount>(); }

}  // namespace joseki::abc471g::JK_GPU_NS
