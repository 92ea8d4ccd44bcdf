// Probe: the lone same-address atomic, the one v2 and v3 pay once per workgroup. Each subgroup adds
// its elements with subgroupAdd and one elected invocation adds that sum into word 0: one atomicAdd
// from one lane per subgroup, which no compiler or driver can merge with another lane's (there is
// none), whether it merges a subgroup's same-address atomics at compile time or at run time. The
// per-element probe with an opaque address (probe_atomic, MODE 1) measures this cost only where
// nothing merges them: through NVIDIA's Vulkan driver on the H200 it costs what the uniform one does
// (1.03x, median of six runs, docs/VULKAN.md), 1/32 of a lone atomic's serial L2 time.
// MODE 1 (spec constant 1) is the same work without the atomic, the baseline its time is taken from: the subgroup
// sum is kept live by a store that a push constant never lets happen, and invocation 0 writes gl_SubgroupSize to
// word 1, so that the host counts the atomics with the size the pipeline ran with.
// Needs: subgroup arithmetic in compute shaders (else the opaque probe stands in, and says so).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "common.glsl"
layout(constant_id = 1) const uint MODE = 0;
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(push_constant) uniform P { uint n; uint offset; } pc;
void main() {
  const uint i = group_linear() * WG + gl_LocalInvocationID.x;
  if (MODE == 1u && i == 0u) result[1] = gl_SubgroupSize;
  if (i >= pc.n) return;
  const uint s = subgroupAdd(data[pc.offset + i]);
  if (subgroupElect()) {
    if (MODE == 0u) atomicAdd(result[0], s);
    else if (pc.offset == 0xFFFFFFFFu) result[0] = s;  // never: the host passes offset 0
  }
}
