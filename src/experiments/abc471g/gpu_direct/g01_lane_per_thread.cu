// g01 — one thread per lane (the seed's WORK2).
// What: one thread per shift k (K threads in all) scans A_0..A_{N-1} and counts the 0->1 rises
//   of V[(A_i + k) mod K]; a vowel at i = 0 counts (prev = 0 before the start).
// Prediction: far from any hardware limit. K = 2300 threads fill 36 blocks of 64 on 132 SMs
//   (2 warps on the busiest SMs); each thread walks N = 7e6 iterations of load A_i -> load V ->
//   add, so the time is N x the per-iteration latency of one warp, not a bandwidth. Expect
//   100-250 ms, the same order as the seed's laptop (the H200's advantage is width, unused here).
// Preconditions: none (any N, K).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 287.984 ms, the baseline (1.00x). Above
//   the predicted 100-250 ms and slower than the seed's laptop (~246 ms): 2300 threads are 72 warps
//   for 132 SMs, so the time is one warp's walk through 7e6 elements, two loads each, the second
//   depending on the first: a latency figure, not the machine's throughput.
#include "experiments/abc471g/gpu_direct/common.cuh"

namespace joseki::abc471g::JK_GPU_NS {
namespace g01 {

__global__ void kernel(const u32* __restrict__ a, const u8* __restrict__ v, u64 n, u32 k, u32* __restrict__ answer) {
  const u32 shift = blockIdx.x * blockDim.x + threadIdx.x;
  if (shift >= k) return;
  u32 prev = 0, count = 0;
  for (u64 i = 0; i < n; ++i) {
    u32 idx = a[i] + shift;  // A_i < K and shift < K: one subtraction is the mod
    if (idx >= k) idx -= k;
    const u32 cur = v[idx];
    count += cur & (prev ^ 1u);
    prev = cur;
  }
  answer[shift] = count;
}

std::string check(const Shape&, const Config& c) {
  if (c.block < 1 || c.block > 1024) return "block " + std::to_string(c.block) + " outside 1..1024";
  return "";
}

std::size_t scratch(const Shape&, const Config&) { return 0; }

void launch(const DeviceProblem& p, const Config& c, CUstream_st* s) {
  const unsigned grid = ceil_div_u32(p.shape.k, static_cast<u32>(c.block));
  JK_LAUNCH(kernel, grid, c.block, 0, s, p.d_a, p.d_v, p.shape.n, p.shape.k, p.d_answer);
}

void prepare(const Shape&, const Config&) {
  cudaFuncAttributes fa;
  JK_CHECK(cudaFuncGetAttributes(&fa, kernel));
}

}  // namespace g01

RungOps g01_ops() {
  return {.check = g01::check, .scratch_bytes = g01::scratch, .launch = g01::launch, .prepare = g01::prepare};
}

}  // namespace joseki::abc471g::JK_GPU_NS
