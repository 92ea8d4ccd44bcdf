// v4 (seed 000's "next step"): v3's grid-stride sums, then subgroupAdd instead of the tree:
// one partial per subgroup, two barriers instead of log2(WG).
// Needs: subgroup arithmetic in compute shaders (VkPhysicalDeviceSubgroupProperties; skipped with the reason where absent).
// Prediction: about v3 (the tree is a small part of v3 once coarsened).
// Measured: lavapipe 2^20 cold 2.12 ms (1.09x v3), 2^24 cold 88.0 ms (1.43x v3: lavapipe's barriers are dear); H200 (device call 1 of 2026-12-01, results/h200/2026-12-01-device-call-1), cold:
//   2^20 / 2^24 / 2^28 = 9.41 us / 41.94 us / 433.06 us: v3 within 1 %, as predicted for a GPU.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#define JOSEKI_SUBGROUPS 1
#include "common.glsl"
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(push_constant) uniform P { uint n; uint offset; } pc;
void main() {
  const uint T = gl_NumWorkGroups.x * WG;
  uint sum = 0u;
  for (uint i = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x; i < pc.n; i += T) sum += data[pc.offset + i];
  const uint t = block_sum_subgroup(sum);
  if (gl_LocalInvocationID.x == 0u) atomicAdd(result[0], t);
}
