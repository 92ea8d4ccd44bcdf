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
namespace g06a {

using namespace bitsliced;

__global__ void kernel(const u32* __restrict__ a, const u32* __restrict__ vbits, u64 n, u32 k, u32 words, u64 chunk,
                       u32 per, u32* __restrict__ partial) {
  const Slot sl = slot(per);
  if (sl.word >= words) return;  // idle guard thread
  const u64 begin = sl.chunk * chunk, end = min_u64(n, begin + chunk);
  const u32 off = 32u * sl.word;
  u32 prev = begin > 0 ? window32(vbits, a[begin - 1] + off) : 0u;
  u32 cnt[PLANES] = {};
  u64 i = begin;
  for (; i + 1 < end; i += 2) {
    const u32 c1 = window32(vbits, a[i] + off), c2 = window32(vbits, a[i + 1] + off);
    ripple_add<0>(cnt, pair_rise(prev, c1, c2));
    prev = c2;
  }
  if (i < end) ripple_add<0>(cnt, window32(vbits, a[i] + off) & ~prev);  // odd element at the end
  emit_contiguous(cnt, sl.chunk, sl.word, k, partial);
}

void launch(const DeviceProblem& p, const Config& c, CUstream_st* s) { launch_vbits(kernel, p, c, s); }

}  // namespace g06a

RungOps g06a_ops() {
  RungOps o;
  o.check = bitsliced::check;
  o.scratch_bytes = bitsliced::vbits_scratch;
  o.launch = g06a::launch;
  return o;
}

}  // namespace joseki::abc471g::JK_GPU_NS
