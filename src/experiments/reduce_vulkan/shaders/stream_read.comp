// The Vulkan stream-read ceiling: uvec4 loads, 4 in flight per iteration, grid-stride, XOR of
// everything (written only if it equals a value it never equals, so the loads stay).
#version 450
#extension GL_EXT_control_flow_attributes : require
layout(constant_id = 0) const uint WG = 256;
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer In4 { uvec4 data4[]; };
layout(std430, binding = 1) buffer Sink { uint sink[]; };
layout(push_constant) uniform P { uint nvec; uint magic; } pc;
void main() {
  const uint T = gl_NumWorkGroups.x * WG;
  uint v = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
  uvec4 acc = uvec4(0u);
  for (; v + 3u * T < pc.nvec; v += 4u * T) {
    [[unroll]] for (uint u = 0u; u < 4u; ++u) acc ^= data4[v + u * T];
  }
  for (; v < pc.nvec; v += T) acc ^= data4[v];
  const uint x = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (x == pc.magic && pc.magic == 0xFFFFFFFFu && acc.x == 0x12345u) sink[0] = x;
}
