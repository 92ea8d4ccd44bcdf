// Probe: the fixed part of every timed Vulkan figure here. The same commands every probe and rung records between
// its two timestamps -- the output words filled, a barrier, one dispatch -- with a dispatch of one workgroup whose
// first invocation stores one word. Its time is what a figure holds besides its shader's own work: on the H200 at
// 2^24 the Vulkan stream-read ceiling reads 25.74 us against CUDA's 19.39 us (device call 1 of 2026-12-01).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(std430, binding = 1) buffer Out { uint result[]; };
layout(push_constant) uniform P { uint n; uint offset; } pc;
void main() {
  if (gl_GlobalInvocationID.x == 0u) result[0] = pc.n;
}
