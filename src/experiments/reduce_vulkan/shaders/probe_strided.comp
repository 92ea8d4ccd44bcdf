// Probe: coalesced vs strided reads of the same n words (each read once; the sum is checked).
// Invocation t of T reads K words: MODE 0 (coalesced) word j = t + k T, neighbours read
// neighbouring words; MODE 1 (strided) the same j mapped to (j mod R) * 32 + j / R with
// R = n / 32, so neighbours are 128 bytes apart (n a multiple of 32).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(constant_id = 1) const uint MODE = 0;
layout(constant_id = 2) const uint K = 16;
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(push_constant) uniform P { uint n; uint rows; } pc;
void main() {
  const uint T = gl_NumWorkGroups.x * WG;
  const uint t = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
  uint sum = 0u;
  for (uint k = 0u; k < K; ++k) {
    const uint j = t + k * T;
    if (j < pc.n) sum += data[MODE == 0u ? j : (j % pc.rows) * 32u + j / pc.rows];
  }
  const uint s = block_sum_tree(sum);
  if (gl_LocalInvocationID.x == 0u) atomicAdd(result[0], s);
}
