// g02 — time-direction chunks (the seed's WORK3).
// What changed from g01: the N elements are cut into chunks; one thread per (chunk, shift k)
//   counts the rises inside its chunk and writes a partial count; a second kernel sums the
//   partials per k. A rise at a chunk's first element needs the element before it, so every
//   chunk but the first starts from A[start - 1]: each pair (A_{i-1}, A_i) is counted once.
// Prediction: ceil(N / chunk) x K threads (2M at chunk 8192) fill the machine, so the time
//   falls from latency x N to roughly total work / throughput: 10x or more over g01. Too small
//   a chunk costs partial-count traffic (chunks x K x 4 bytes, 63 MB at chunk 1024) and the
//   reduction; too large a chunk leaves SMs idle. Sweep: chunk 1024..65536 (the seed chose 32768).
// Preconditions: chunk >= 1; chunks x ceil(K / block) blocks within the grid limit.
// Tuned: with --sweep the row runs at this run's choice (g03, g04 with it), else at the defaults.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 7.234 ms at block 64 / chunk 8192, 39.81x
//   over g01 (predicted 10x or more; the seed: 6.1x). Chunk sweep flat from 1024 to 8192 (fastest
//   2048, 7.159 ms); the tie rule chose 8192 (+1.1 %), as on 2026-11-29. The seed's 32768 is
//   +8.5 %, 65536 +17.6 %: 107 chunks x 2304 threads = 246k, less than one wave of 270k slots.
#include "experiments/abc471g/gpu_direct/lane_chunks.cuh"

namespace joseki::abc471g::JK_GPU_NS {
namespace g02 {

__global__ void kernel(const u32* __restrict__ a, const u8* __restrict__ v, u64 n, u32 k, u64 chunk, u32 per_chunk,
                       u32* __restrict__ partial) {
  const u64 c = blockIdx.x / per_chunk;
  const u32 shift = (blockIdx.x % per_chunk) * blockDim.x + threadIdx.x;
  if (shift >= k) return;
  const u64 begin = c * chunk, end = min_u64(n, begin + chunk);
  u32 prev = 0, count = 0;
  if (begin > 0) {  // the element before the chunk decides whether its first element is a rise
    u32 idx = a[begin - 1] + shift;
    if (idx >= k) idx -= k;
    prev = v[idx];
  }
  for (u64 i = begin; i < end; ++i) {
    u32 idx = a[i] + shift;
    if (idx >= k) idx -= k;
    const u32 cur = v[idx];
    count += cur & (prev ^ 1u);
    prev = cur;
  }
  partial[c * k + shift] = count;
}

void launch(const DeviceProblem& p, const Config& c, CUstream_st* s) {
  lane_chunks::launch(kernel, p.d_v, static_cast<u32*>(p.d_scratch), p, c, s);
}

}  // namespace g02

RungOps g02_ops() {
  RungOps o{.check = lane_chunks::check, .scratch_bytes = lane_chunks::partial_bytes, .launch = g02::launch};
  o.sweep_name = "g02_chunk";
  o.sweep_chunks = {1024, 2048, 4096, 8192, 16384, 32768, 65536};
  return o;
}

}  // namespace joseki::abc471g::JK_GPU_NS
