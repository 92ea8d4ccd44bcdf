// v5 / v6's per-invocation sum: 16-byte (uvec4) loads, UNROLL of them in flight per iteration,
// the unaligned head (offset not a multiple of 4 elements) and the tail read as words.
layout(constant_id = 1) const uint UNROLL = 4;
uint vec4_sum(uint n, uint off) {
  const uint T = gl_NumWorkGroups.x * WG;
  const uint tid = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
  const uint head = min((4u - (off & 3u)) & 3u, n);
  const uint vbase = (off + head) >> 2u;
  const uint nvec = (n - head) >> 2u;
  const uint tail = head + nvec * 4u;
  uint sum = 0u;
  if (tid < head) sum += data[off + tid];
  if (tid < n - tail) sum += data[off + tail + tid];
  uvec4 acc = uvec4(0u);
  uint v = tid;
  for (; v + (UNROLL - 1u) * T < nvec; v += UNROLL * T) {
    [[unroll]] for (uint u = 0u; u < UNROLL; ++u) acc += data4[vbase + v + u * T];
  }
  for (; v < nvec; v += T) acc += data4[vbase + v];
  return sum + acc.x + acc.y + acc.z + acc.w;
}
