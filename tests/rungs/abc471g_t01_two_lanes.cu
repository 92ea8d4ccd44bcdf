// t01 — a test-only rung of the direct ladder: two lanes per thread (not part of the ladder).
// It exists to prove the documented way of adding a rung: this one file (the kernel, its RungOps
// and its RungInfo) plus one registration line (tests/unit/test_abc471g_gpu_emu.cpp compiles it
// against the host emulation and runs it through measure::run_ladder; tests/gpu/test_abc471g_gpu.cpp
// runs the nvcc build of it on the GPU).
// What changed (vs g01): each thread counts two shifts, t and t + ceil(K/2), so one load of A_i
//   feeds two lanes: half the threads, half the loads of A.
// Prediction: about 2x g01 where g01 is bound by its per-element latency chain (one warp's walk),
//   less where the second lane's V load lengthens the chain. Not a ladder rung: no H200 figure is
//   kept for it (the GPU test only checks that it validates and times); not yet measured on the H200.
#include "experiments/abc471g/gpu_direct/common.cuh"
#include "experiments/abc471g/gpu_direct/rung_info.hpp"

namespace joseki::abc471g::JK_GPU_NS {
namespace t01 {

__global__ void kernel(const u32* __restrict__ a, const u8* __restrict__ v, u64 n, u32 k, u32 half,
                       u32* __restrict__ answer) {
  const u32 s0 = blockIdx.x * blockDim.x + threadIdx.x;
  if (s0 >= half) return;
  const u32 s1 = s0 + half;
  const bool two = s1 < k;
  u32 p0 = 0, p1 = 0, c0 = 0, c1 = 0;
  for (u64 i = 0; i < n; ++i) {
    const u32 ai = a[i];
    u32 i0 = ai + s0;  // A_i < K and s < K: one subtraction is the mod
    if (i0 >= k) i0 -= k;
    const u32 x0 = v[i0];
    c0 += x0 & (p0 ^ 1u);
    p0 = x0;
    if (two) {
      u32 i1 = ai + s1;
      if (i1 >= k) i1 -= k;
      const u32 x1 = v[i1];
      c1 += x1 & (p1 ^ 1u);
      p1 = x1;
    }
  }
  answer[s0] = c0;
  if (two) answer[s1] = c1;
}

std::string check(const Shape&, const Config& c) {
  if (c.block < 1 || c.block > 1024) return "block " + std::to_string(c.block) + " outside 1..1024";
  return "";
}

std::size_t scratch(const Shape&, const Config&) { return 0; }

void launch(const DeviceProblem& p, const Config& c, CUstream_st* s) {
  const u32 half = (p.shape.k + 1) / 2;
  const unsigned grid = ceil_div_u32(half, static_cast<u32>(c.block));
  JK_LAUNCH(kernel, grid, c.block, 0, s, p.d_a, p.d_v, p.shape.n, p.shape.k, half, p.d_answer);
}

void prepare(const Shape&, const Config&) {
  cudaFuncAttributes fa;
  JK_CHECK(cudaFuncGetAttributes(&fa, kernel));
}

}  // namespace t01

const RungOps& t01_ops() {
  static const RungOps ops{.check = t01::check, .scratch_bytes = t01::scratch, .launch = t01::launch,
                           .prepare = t01::prepare, .sweep_name = "t01_block", .sweep_blocks = {32, 64, 128}};
  return ops;
}

// Everything the ladder needs to know of the rung (what a rungs.def line says of a ladder rung).
ladder::RungInfo t01_info() {
  ladder::RungInfo r;
  r.id = "t01";
  r.slug = "two_lanes";
  r.name = "two lanes per thread (test-only rung)";
  r.technique = "g01 with two shifts per thread: one load of A_i feeds two lanes";
  r.predecessor = "g01";
  r.rung = 90;
  r.defaults = {64, 0};
  r.validation = {{32, 0}, {96, 0}};
  r.ops = &t01_ops();
  return r;
}

}  // namespace joseki::abc471g::JK_GPU_NS
