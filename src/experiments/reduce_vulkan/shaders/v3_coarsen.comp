// v3 (seed 000's v3): grid-stride register sums (coalesced), then the tree, one atomicAdd per
// workgroup. The workgroup count is the swept knob.
// Needs: nothing beyond Vulkan 1.1 compute (block a power of two, 32..1024, as the device allows).
// Prediction: the first rung at the memory's pace; the sweep picks few large workgroups on lavapipe.
// Measured: lavapipe 2^20 cold 2.32 ms (block 128 x 256 groups chosen), 2^24 cold 126 ms (512 x 1024): 43x / 23x v2; H200 (device call 1 of 2026-12-01, results/h200/2026-12-01-device-call-1), cold, 256 x 1024 chosen:
//   2^20 / 2^24 / 2^28 = 9.82 us / 42.34 us / 433.25 us (57 % of the Vulkan ceiling at 2^28; CUDA's r03 416.22 us).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(push_constant) uniform P { uint n; uint offset; } pc;
void main() {
  const uint T = gl_NumWorkGroups.x * WG;
  uint sum = 0u;
  for (uint i = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x; i < pc.n; i += T) sum += data[pc.offset + i];
  const uint t = block_sum_tree(sum);
  if (gl_LocalInvocationID.x == 0u) atomicAdd(result[0], t);
}
