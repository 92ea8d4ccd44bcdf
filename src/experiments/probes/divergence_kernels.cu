// The divergence probe's kernel, one instantiation per mode.
#include "backend/cuda/check.hpp"
#include "experiments/probes/divergence_kernels.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {
template <int MODE>
__global__ void divergence_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n, int ka,
                                  int kb) {
  const std::size_t i = dev::global_thread();
  if (i >= n) return;
  const float x = in[i];
  float r;
  if constexpr (MODE == DIV_PREDICATED) {
    const float a = path_a(x, ka), b = path_b(x, kb);  // both paths, every thread
    r = (threadIdx.x & 1u) == 0 ? a : b;
  } else {
    bool take_a = true;
    if constexpr (MODE == DIV_UNIFORM_B) take_a = false;
    if constexpr (MODE == DIV_LANE_PARITY) take_a = (threadIdx.x & 1u) == 0;
    if constexpr (MODE == DIV_BLOCK_UNIFORM) take_a = (blockIdx.x & 1u) == 0;
    if constexpr (MODE == DIV_WARP_UNIFORM) take_a = ((threadIdx.x >> 5) & 1u) == 0;
    r = take_a ? path_a(x, ka) : path_b(x, kb);
  }
  out[i] = r;
}
}  // namespace

const char* div_mode_name(int mode) {
  static const char* names[] = {"uniform_a", "uniform_b", "divergent_half", "predicated", "block_uniform",
                                "warp_uniform"};
  return mode >= 0 && mode < DIV_MODES ? names[mode] : "?";
}

void launch_divergence(int mode, const float* d_in, float* d_out, std::size_t n, int ka, int kb, cudaStream_t s) {
  const unsigned grid = static_cast<unsigned>((n + DIV_BLOCK - 1) / DIV_BLOCK);
  switch (mode) {
    case DIV_UNIFORM_A: divergence_kernel<DIV_UNIFORM_A><<<grid, DIV_BLOCK, 0, s>>>(d_in, d_out, n, ka, kb); break;
    case DIV_UNIFORM_B: divergence_kernel<DIV_UNIFORM_B><<<grid, DIV_BLOCK, 0, s>>>(d_in, d_out, n, ka, kb); break;
    case DIV_LANE_PARITY: divergence_kernel<DIV_LANE_PARITY><<<grid, DIV_BLOCK, 0, s>>>(d_in, d_out, n, ka, kb); break;
    case DIV_PREDICATED: divergence_kernel<DIV_PREDICATED><<<grid, DIV_BLOCK, 0, s>>>(d_in, d_out, n, ka, kb); break;
    case DIV_BLOCK_UNIFORM:
      divergence_kernel<DIV_BLOCK_UNIFORM><<<grid, DIV_BLOCK, 0, s>>>(d_in, d_out, n, ka, kb);
      break;
    default: divergence_kernel<DIV_WARP_UNIFORM><<<grid, DIV_BLOCK, 0, s>>>(d_in, d_out, n, ka, kb); break;
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
