// v1 (seed 000's v1): one invocation per element, one atomicAdd per element into one word.
// Needs: nothing beyond Vulkan 1.1 compute (block a power of two, 32..1024, as the device allows).
// Prediction: fast where same-address atomics are merged in hardware or by the compiler (M4; NVIDIA
// aggregates per subgroup), serialised on lavapipe (an atomic per lane on the CPU).
// Measured: lavapipe 2^20 cold 22.3 ms (0.19 GB/s), 2^24 cold 472 ms: ahead of v2 as on the seed's M4; H200 (device call 1 of 2026-12-01, results/h200/2026-12-01-device-call-1), cold:
//   2^20 / 2^24 / 2^28 = 31.23 us / 403.49 us / 6.744 ms, CUDA's r01 -0.2 % at 2^28 (6.759 ms): the driver merges a subgroup's
//   same-address atomics as nvcc does, so here v1 is 4.2x slower than v2, not faster.
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
