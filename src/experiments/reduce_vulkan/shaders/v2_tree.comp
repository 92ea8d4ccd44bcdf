// v2 (seed 000's v2): one element per invocation, a workgroup-memory tree (log2(WG) barriers),
// one atomicAdd per workgroup.
// Needs: nothing beyond Vulkan 1.1 compute (block a power of two, 32..1024, as the device allows).
// Prediction: last where a barrier is dear relative to a load (M4; lavapipe: a barrier ~1 us).
// Measured: lavapipe 2^20 cold 99.6 ms, 2^24 cold 2.92 s: last (0.22x / 0.16x v1); H200 (device call 1 of 2026-12-01, results/h200/2026-12-01-device-call-1), cold:
//   2^20 / 2^24 / 2^28 = 12.83 us / 95.30 us / 1.351 ms: 4.2x / 5.0x faster than v1 (a barrier costs 29.8 loads
//   there, 336 on lavapipe); CUDA's r02 1.204 ms at 2^28.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(push_constant) uniform P { uint n; uint offset; } pc;
void main() {
  const uint i = group_linear() * WG + gl_LocalInvocationID.x;
  const uint t = block_sum_tree(i < pc.n ? data[pc.offset + i] : 0u);
  if (gl_LocalInvocationID.x == 0u) atomicAdd(result[0], t);
}
