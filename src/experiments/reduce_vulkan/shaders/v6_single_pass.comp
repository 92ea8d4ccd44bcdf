// v6: one dispatch end to end, no fill. Each workgroup writes its partial, then takes a ticket;
// the workgroup that takes the last ticket adds the partials, writes the result and resets the
// ticket for the next dispatch. Nobody waits for another workgroup (no spinning: safe where
// workgroups are not all resident or have no forward-progress guarantee, as on lavapipe).
// Needs: subgroup arithmetic in compute shaders (VkPhysicalDeviceSubgroupProperties; skipped with the reason where absent).
// Prediction: v5 minus the fill: equal or slightly faster.
// Measured: lavapipe 2^20 cold 1.18 ms (0.86x v5), 2^24 cold 58.0 ms (0.90x v5): not faster here; H200 (device call 1 of 2026-12-01, results/h200/2026-12-01-device-call-1), cold:
//   2^20 / 2^24 / 2^28 = 9.44 us / 28.06 us / 252.70 us: v5 within 0.1 % at 2^24 and 2^28, 5 % slower at 2^20.
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
layout(std430, binding = 3) coherent buffer Work { uint ticket; uint pad0; uint pad1; uint pad2; uint partials[]; } work;
layout(push_constant) uniform P { uint n; uint offset; } pc;
#include "vec4_body.glsl"
shared bool s_last;
void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint groups = gl_NumWorkGroups.x;
  const uint t = block_sum_subgroup(vec4_sum(pc.n, pc.offset));
  if (lid == 0u) {
    work.partials[gl_WorkGroupID.x] = t;
    memoryBarrierBuffer();  // the partial is visible before the ticket is taken
    s_last = atomicAdd(work.ticket, 1u) == groups - 1u;
  }
  memoryBarrierShared();
  barrier();
  if (!s_last) return;
  memoryBarrierBuffer();
  uint acc = 0u;
  for (uint k = lid; k < groups; k += WG) acc += work.partials[k];
  const uint total = block_sum_subgroup(acc);
  if (lid == 0u) {
    result[0] = total;
    work.ticket = 0u;
  }
}
