// g04 — A staged in shared memory (the seed: -6% alone; rejected again on the final form).
// What changed from g02: the threads of a block (same chunk, different k) used to read every A_i
//   from global memory (an L1 broadcast); now the block copies its chunk into shared memory
//   TILE elements at a time (coalesced), waits, and every thread reads A_i from shared memory.
// Prediction: little or nothing on Hopper. In g02 the block's threads already read the same
//   address at the same time, which L1 serves as one broadcast; shared memory saves the L1 tag
//   lookup but adds two barriers per tile and the copy. The seed's 6% gain may not carry over;
//   a loss is possible when the barriers stall warps that L1 hits kept busy.
// Preconditions: chunk >= 1; block <= 1024.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 5.951 ms at g02's chunk 8192, 1.22x vs
//   g02, 48.39x over g01. The prediction (little or nothing) was wrong: it pays more than on the
//   seed's laptop (6 %). Likely reason (not profiled): g02 spends one global load instruction per
//   element on A_i beside the V load; here A arrives 32 elements per load instruction and is read
//   by a shared-memory broadcast, which unloads the L1 path the V loads need.
#include "experiments/abc471g/gpu_direct/lane_chunks.cuh"

namespace joseki::abc471g::JK_GPU_NS {
namespace g04 {

constexpr int TILE = 2048;  // elements of A per shared-memory tile (8 KB)

__global__ void kernel(const u32* __restrict__ a, const u8* __restrict__ v, u64 n, u32 k, u64 chunk, u32 per_chunk,
                       u32* __restrict__ partial) {
  __shared__ u32 s_a[TILE];
  const u64 c = blockIdx.x / per_chunk;
  const u32 shift = (blockIdx.x % per_chunk) * blockDim.x + threadIdx.x;
  const bool active = shift < k;  // guard threads stay for the barriers
  const u64 begin = c * chunk, end = min_u64(n, begin + chunk);
  u32 prev = 0, count = 0;
  if (active && begin > 0) {
    u32 idx = a[begin - 1] + shift;
    if (idx >= k) idx -= k;
    prev = v[idx];
  }
  for (u64 t0 = begin; t0 < end; t0 += TILE) {
    const u32 len = static_cast<u32>(min_u64(TILE, end - t0));
    for (u32 j = threadIdx.x; j < len; j += blockDim.x) s_a[j] = a[t0 + j];
    __syncthreads();  // the tile is complete before anyone reads it
    if (active)
      for (u32 j = 0; j < len; ++j) {
        u32 idx = s_a[j] + shift;
        if (idx >= k) idx -= k;
        const u32 cur = v[idx];
        count += cur & (prev ^ 1u);
        prev = cur;
      }
    __syncthreads();  // everyone is done with the tile before it is overwritten
  }
  if (active) partial[c * k + shift] = count;
}

void launch(const DeviceProblem& p, const Config& c, CUstream_st* s) {
  lane_chunks::launch(kernel, p.d_v, static_cast<u32*>(p.d_scratch), p, c, s);
}

}  // namespace g04

RungOps g04_ops() {
  return {.check = lane_chunks::check, .scratch_bytes = lane_chunks::partial_bytes, .launch = g04::launch};
}

}  // namespace joseki::abc471g::JK_GPU_NS
