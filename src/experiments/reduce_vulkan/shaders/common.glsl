// Shared by the Vulkan reduction shaders: the workgroup size WG (specialization constant 0),
// the input/output bindings' conventions, and two workgroup sums that return the total to
// every invocation (a shared-memory tree; subgroupAdd + one partial per subgroup).
layout(constant_id = 0) const uint WG = 256;
layout(local_size_x_id = 0) in;

shared uint s_part[WG];
shared uint s_total;

// A linear workgroup index over a 2-D dispatch (per-element rungs need more than 65535 groups).
uint group_linear() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// The shared-memory tree: log2(WG) levels, a barrier after each (WG a power of two).
uint block_sum_tree(uint v) {
  const uint lid = gl_LocalInvocationID.x;
  s_part[lid] = v;
  memoryBarrierShared();
  barrier();
  for (uint stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) s_part[lid] += s_part[lid + stride];
    memoryBarrierShared();
    barrier();
  }
  const uint t = s_part[0];
  barrier();  // s_part may be reused by the caller
  return t;
}

#ifdef JOSEKI_SUBGROUPS
// subgroupAdd, one partial per subgroup in shared memory, the first subgroup adds them.
uint block_sum_subgroup(uint v) {
  const uint t = subgroupAdd(v);
  if (subgroupElect()) s_part[gl_SubgroupID] = t;
  memoryBarrierShared();
  barrier();
  if (gl_SubgroupID == 0u) {
    uint acc = 0u;
    for (uint k = gl_SubgroupInvocationID; k < gl_NumSubgroups; k += gl_SubgroupSize) acc += s_part[k];
    acc = subgroupAdd(acc);
    if (subgroupElect()) s_total = acc;
  }
  memoryBarrierShared();
  barrier();
  return s_total;
}
#endif
