// Probe: one atomicAdd per element into one word. MODE 0: the address is the constant 0 (the
// compiler may aggregate per subgroup); MODE 1: the address is read from memory (idx[i], all
// zero at run time), so the compiler cannot prove it uniform.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(constant_id = 1) const uint MODE = 0;
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(std430, binding = 2) readonly buffer Idx { uint idx[]; };
layout(push_constant) uniform P { uint n; uint offset; } pc;
void main() {
  const uint i = group_linear() * WG + gl_LocalInvocationID.x;
  if (i >= pc.n) return;
  const uint a = MODE == 0u ? 0u : idx[i];
  atomicAdd(result[a], data[pc.offset + i]);
}
