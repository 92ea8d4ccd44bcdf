// v5: v4 with 16-byte loads, UNROLL in flight (the output word zeroed by a fill in the same
// command buffer, as CUDA's r05 memsets it).
// Needs: subgroup arithmetic in compute shaders (VkPhysicalDeviceSubgroupProperties; skipped with the reason where absent).
// Prediction: closes most of the gap to the stream-read ceiling.
// Measured: lavapipe 2^20 cold 1.02 ms, 85 % of the Vulkan stream-read ceiling (2.08x v4); 2^24 cold 52.0 ms (74 %); H200 (device call 1 of 2026-12-01, results/h200/2026-12-01-device-call-1), cold:
//   2^20 / 2^24 / 2^28 = 8.96 us / 28.06 us / 252.45 us (74.5 / 91.7 / 98.0 % of the Vulkan ceiling); at 2^28
//   95.3 % of CUDA's best rung (r10, 240.46 us): the goal >= 95 % met, in one run.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#define JOSEKI_SUBGROUPS 1
#include "common.glsl"
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(std430, binding = 2) readonly buffer In4 { uvec4 data4[]; };
layout(push_constant) uniform P { uint n; uint offset; } pc;
#include "vec4_body.glsl"
void main() {
  const uint t = block_sum_subgroup(vec4_sum(pc.n, pc.offset));
  if (gl_LocalInvocationID.x == 0u) atomicAdd(result[0], t);
}
