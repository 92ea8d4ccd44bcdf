// Probe: the cost of a workgroup barrier. Each invocation runs ITERS steps of shared-memory
// arithmetic on its neighbour's word; MODE 1 puts a barrier after every step, MODE 0 does the
// same steps without it (the difference / (ITERS x workgroups) is the device-wide cost of one
// workgroup barrier). The result goes to out[] so nothing is optimised away.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(constant_id = 1) const uint MODE = 1;
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(push_constant) uniform P { uint iters; uint seed; } pc;
void main() {
  const uint lid = gl_LocalInvocationID.x;
  s_part[lid] = data[lid] ^ pc.seed;
  memoryBarrierShared();
  barrier();
  uint x = lid;
  for (uint k = 0u; k < pc.iters; ++k) {
    x = x * 1664525u + s_part[(lid + k) & (WG - 1u)];
    if (MODE == 1u) {
      memoryBarrierShared();
      barrier();
    }
  }
  atomicAdd(result[0], x);
}
