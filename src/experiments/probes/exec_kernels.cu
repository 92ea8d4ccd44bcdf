// The exec probe's kernel: a warp reduction tree driven by the device's warpSize.
#include "backend/cuda/check.hpp"
#include "experiments/probes/exec_kernels.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {
__global__ void warp_tree_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* warp_sums,
                                 int* info) {
  const std::size_t i = dev::global_thread();
  std::uint32_t v = i < n ? in[i] : 0u;
  int levels = 0;
  for (int off = warpSize / 2; off > 0; off /= 2) {  // 16 -> 8 -> 4 -> 2 -> 1 on a 32-wide warp
    v += __shfl_down_sync(0xffffffffu, v, off);
    ++levels;
  }
  const std::size_t w = i / warpSize;
  if (threadIdx.x % warpSize == 0 && w * warpSize < n) warp_sums[w] = v;
  if (i == 0) {
    info[0] = levels;
    info[1] = warpSize;
  }
}
}  // namespace

void launch_warp_tree(const std::uint32_t* d_in, std::size_t n, std::uint32_t* d_warp_sums, int* d_info,
                      cudaStream_t s) {
  const int block = 256;  // a multiple of any warp size: every warp is whole
  warp_tree_kernel<<<static_cast<unsigned>((n + block - 1) / block), block, 0, s>>>(d_in, n, d_warp_sums, d_info);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
