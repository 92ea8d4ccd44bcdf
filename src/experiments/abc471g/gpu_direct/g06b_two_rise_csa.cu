// g06b — 2-rise fusion + a carry-save adder.
// What changed from g06a: four elements at a time give two fused pair bits p1, p2; a carry-save
//   adder folds them into the ones plane (ones + p1 + p2 = 2 carry + ones', two LOP3s) and only
//   the carry ripples, from plane 1: one ripple per four elements.
// Prediction: fewer ripples than g06a, so somewhat faster; the seed measured the opposite
//   (8.15 -> 9.40 ms). If it repeats here, the reason is not the op count: look at register
//   pressure and the longer dependent chain per iteration (ncu: issue stalls).
// Preconditions: as g05.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 3.152 ms, 1.49x over g06a, 91.37x
//   over g01: the prediction (faster) held and the seed's 0.87x (9.40 vs 8.15 ms) reversed. The CSA
//   adds two independent LOP3s per four elements and removes half of the dependent, branchy
//   ripples; at this geometry the H200 is latency-bound (15.4k threads, 6 % of its slots), so the
//   shorter chain wins even at more ops; the laptop, a third full, paid for the ops. (An
//   interpretation: g06a and g06b at chunk 4096 would test it; not run.)
#include "experiments/abc471g/gpu_direct/bitsliced.cuh"

namespace joseki::abc471g::JK_GPU_NS {
namespace bitsliced {

// Four elements: two pair rises into a carry-save adder on the ones plane, one ripple of the carry.
struct CsaCount {  // g06b
  JK_DEV void operator()(u32 (&cnt)[PLANES], const u32* __restrict__ a, u64 i, u64 end, u32 prev, VbitsLanes lanes) const {
    for (; i + 3 < end; i += 4) {  // cnt[0] is the ones plane the carry-save adder works on
      const u32 c1 = lanes(a[i]), c2 = lanes(a[i + 1]), c3 = lanes(a[i + 2]), c4 = lanes(a[i + 3]);
      u32 carry;
      csa(carry, cnt[0], cnt[0], pair_rise(prev, c1, c2), pair_rise(c2, c3, c4));
      ripple_add<1>(cnt, carry);
      prev = c4;
    }
    rise_pairs(cnt, a, i, end, prev, lanes);  // up to 3 elements left
  }
};

}  // namespace bitsliced

RungOps g06b_ops() { return bitsliced::vbits_ops<bitsliced::CsaCount>(); }

}  // namespace joseki::abc471g::JK_GPU_NS
