// g05 — 32 lanes per thread as the bits of a word; bit-sliced counter with ripple update.
// What changed from g02: a thread owns 32 shifts (word w: shifts 32w..32w+31) of one chunk. V is
//   kept twice in a row as a bit string, so the 32 current values at A_i are the 32 bits starting
//   at bit A_i + 32w: two loads and a funnel shift. rise = cur & ~prev for all 32 lanes at once,
//   added to a counter of 16 bit planes by a ripple (carry = plane & x, plane ^= x, until no
//   lane carries).
// Prediction: 32x fewer threads and loads of A; the ripple costs about 2 x (2-3 planes) ops per
//   element, the window 4-5: several times faster than g02 (seed: 3.2x). Bound by integer issue.
// Preconditions: chunk <= 65536 (16 planes); any K.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 7.961 ms at chunk 32768, 0.91x vs g02
//   (at 8192), 36.18x over g01. The prediction (several times faster; the seed 3.2x) was wrong, by
//   the geometry, not the technique: 214 chunks x 72 words = 15.4k threads fill 6 % of the H200's
//   270k slots, each walking 32768 elements through a serial ripple. g08's sweep shows it on g07's
//   kernel: 1.132 ms at block 64 / chunk 32768, 559.10 us at chunk 4096.
#include "experiments/abc471g/gpu_direct/bitsliced.cuh"

namespace joseki::abc471g::JK_GPU_NS {
namespace bitsliced {

// One rise per element, added by a ripple through the planes.
struct RippleCount {  // g05
  JK_DEV void operator()(u32 (&cnt)[PLANES], const u32* __restrict__ a, u64 i, u64 end, u32 prev, VbitsLanes lanes) const {
    for (; i < end; ++i) {
      const u32 cur = lanes(a[i]);
      ripple_add<0>(cnt, cur & ~prev);
      prev = cur;
    }
  }
};

}  // namespace bitsliced

RungOps g05_ops() { return bitsliced::vbits_ops<bitsliced::RippleCount>(); }

}  // namespace joseki::abc471g::JK_GPU_NS
