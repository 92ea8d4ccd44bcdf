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
namespace g06b {

using namespace bitsliced;

__global__ void kernel(const u32* __restrict__ a, const u32* __restrict__ vbits, u64 n, u32 k, u32 words, u64 chunk,
                       u32 per, u32* __restrict__ partial) {
  const Slot sl = slot(per);
  if (sl.word >= words) return;  // idle guard thread
  const u64 begin = sl.chunk * chunk, end = min_u64(n, begin + chunk);
  const u32 off = 32u * sl.word;
  u32 prev = begin > 0 ? window32(vbits, a[begin - 1] + off) : 0u;
  u32 cnt[PLANES] = {};  // cnt[0] is the ones plane the carry-save adder works on
  u64 i = begin;
  for (; i + 3 < end; i += 4) {
    const u32 c1 = window32(vbits, a[i] + off), c2 = window32(vbits, a[i + 1] + off);
    const u32 c3 = window32(vbits, a[i + 2] + off), c4 = window32(vbits, a[i + 3] + off);
    u32 carry;
    csa(carry, cnt[0], cnt[0], pair_rise(prev, c1, c2), pair_rise(c2, c3, c4));
    ripple_add<1>(cnt, carry);
    prev = c4;
  }
  for (; i + 1 < end; i += 2) {  // up to 3 elements left
    const u32 c1 = window32(vbits, a[i] + off), c2 = window32(vbits, a[i + 1] + off);
    ripple_add<0>(cnt, pair_rise(prev, c1, c2));
    prev = c2;
  }
  if (i < end) ripple_add<0>(cnt, window32(vbits, a[i] + off) & ~prev);
  emit_contiguous(cnt, sl.chunk, sl.word, k, partial);
}

void launch(const DeviceProblem& p, const Config& c, CUstream_st* s) { launch_vbits(kernel, p, c, s); }

}  // namespace g06b

RungOps g06b_ops() {
  RungOps o;
  o.check = bitsliced::check;
  o.scratch_bytes = bitsliced::vbits_scratch;
  o.launch = g06b::launch;
  return o;
}

}  // namespace joseki::abc471g::JK_GPU_NS
