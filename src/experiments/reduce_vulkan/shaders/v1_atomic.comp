// v1 (seed 000's v1): one invocation per element, one atomicAdd per element into one word.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(push_constant) uniform P { uint n; uint offset; } pc;
void main() {
  const uint i = group_linear() * WG + gl_LocalInvocationID.x;
  if (i < pc.n) atomicAdd(result[0], data[pc.offset + i]);
}
