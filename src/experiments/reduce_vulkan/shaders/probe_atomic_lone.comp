// Probe: the lone same-address atomic, the one v2 and v3 pay once per workgroup. Each subgroup adds
// its elements with subgroupAdd and one elected invocation adds that sum into word 0: one atomicAdd
// from one lane per subgroup, which no compiler or driver can merge with another lane's (there is
// none), whether it merges a subgroup's same-address atomics at compile time or at run time. The
// per-element probe with an opaque address (probe_atomic, MODE 1) measures this cost only where
// nothing merges them: through NVIDIA's Vulkan driver on the H200 it costs what the uniform one does
// (1.03x, results/h200/2026-12-01-device-call-1), 1/32 of a lone atomic's serial L2 time.
// Needs: subgroup arithmetic in compute shaders (else the opaque probe stands in, and says so).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "common.glsl"
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(push_constant) uniform P { uint n; uint offset; } pc;
void main() {
  const uint i = group_linear() * WG + gl_LocalInvocationID.x;
  if (i >= pc.n) return;
  const uint s = subgroupAdd(data[pc.offset + i]);
  if (subgroupElect()) atomicAdd(result[0], s);
}
