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
namespace g06c {

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
  for (; i + 31 < end; i += 32) {
    u32 d[16];
    JK_UNROLL
    for (int m = 0; m < 16; ++m) {
      const u32 c1 = window32(vbits, a[i + 2 * m] + off), c2 = window32(vbits, a[i + 2 * m + 1] + off);
      d[m] = pair_rise(prev, c1, c2);
      prev = c2;
    }
    ripple_add<4>(cnt, compress16(cnt[0], cnt[1], cnt[2], cnt[3], d));
  }
  for (; i + 1 < end; i += 2) {  // up to 31 elements left
    const u32 c1 = window32(vbits, a[i] + off), c2 = window32(vbits, a[i + 1] + off);
    ripple_add<0>(cnt, pair_rise(prev, c1, c2));
    prev = c2;
  }
  if (i < end) ripple_add<0>(cnt, window32(vbits, a[i] + off) & ~prev);
  emit_contiguous(cnt, sl.chunk, sl.word, k, partial);
}

void launch(const DeviceProblem& p, const Config& c, CUstream_st* s) { launch_vbits(kernel, p, c, s); }

}  // namespace g06c

RungOps g06c_ops() {
  RungOps o;
  o.check = bitsliced::check;
  o.scratch_bytes = bitsliced::vbits_scratch;
  o.launch = g06c::launch;
  return o;
}

}  // namespace joseki::abc471g::JK_GPU_NS
