// The mma probe's mma.sync kernels (sm_80+: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 and
// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32, PTX ISA "Matrix fragments for mma.m16n8k32 /
// m16n8k16"). Fragment ownership used by the check: lane = 4 * group + t; A rows group and group + 8,
// B column group, C/D rows group (+ 8 for elements 2, 3) and columns 2 t + (i & 1).
#include <cuda_bf16.h>

#include "backend/cuda/check.hpp"
#include "experiments/probes/device_common.hpp"
#include "experiments/probes/mma_kernels.hpp"

namespace joseki::probes {

namespace {

using u32 = std::uint32_t;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__device__ __forceinline__ u32 pack_s8(int v) {
  const u32 b = static_cast<u32>(v) & 0xFFu;
  return b | (b << 8) | (b << 16) | (b << 24);
}
__device__ __forceinline__ u32 pack_bf16(float a, float b) {
  const __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
  return *reinterpret_cast<const u32*>(&h);
}
__device__ __forceinline__ int dev_ga(int r) { return (r % 8) - 3; }
__device__ __forceinline__ int dev_fb(int c) { return ((c % 8) * 3) % 8 - 4; }
#endif

template <bool INT8>
__global__ void __launch_bounds__(256) mma_sync_kernel(int mode, int iters, u32 seed, u32* out) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  const int lane = threadIdx.x & 31, group = lane >> 2;
  const std::size_t gt = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  u32 a[4], b[2];
  for (int r = 0; r < 4; ++r) {
    if (mode == MMA_CHECK)
      a[r] = INT8 ? pack_s8(dev_ga(group)) : pack_bf16(float(dev_ga(group)), float(dev_ga(group)));
    else
      a[r] = INT8 ? mix32(gt * 8 + r, seed) : pack_bf16(mix_unit(gt * 8 + r, seed) - 0.5f, mix_unit(gt * 8 + r + 4, seed) - 0.5f);
  }
  for (int r = 0; r < 2; ++r) {
    if (mode == MMA_CHECK)
      b[r] = INT8 ? pack_s8(dev_fb(group)) : pack_bf16(float(dev_fb(group)), float(dev_fb(group)));
    else
      b[r] = INT8 ? mix32(gt * 8 + 6 + r, seed) : pack_bf16(mix_unit(gt * 8 + 6 + r, seed) - 0.5f, mix_unit(gt * 9, seed));
  }
  u32 acc[MMA_ILP][4];
  for (int u = 0; u < MMA_ILP; ++u)
    for (int i = 0; i < 4; ++i) acc[u][i] = 0;  // int 0 and float +0.0 have the same bits
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < MMA_ILP; ++u) {
      if constexpr (INT8) {
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
            : "+r"(acc[u][0]), "+r"(acc[u][1]), "+r"(acc[u][2]), "+r"(acc[u][3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      } else {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
            : "+r"(acc[u][0]), "+r"(acc[u][1]), "+r"(acc[u][2]), "+r"(acc[u][3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      }
    }
  }
  for (int i = 0; i < 4; ++i) {
    if constexpr (INT8) {
      int s = 0;
      for (int u = 0; u < MMA_ILP; ++u) s += static_cast<int>(acc[u][i]);
      out[gt * 4 + i] = static_cast<u32>(s);
    } else {
      float s = 0;
      for (int u = 0; u < MMA_ILP; ++u) s += __uint_as_float(acc[u][i]);
      out[gt * 4 + i] = __float_as_uint(s);
    }
  }
#else
  __trap();  // the host runs this only where mma.sync m16n8k32 / bf16 exists (sm_80+)
#endif
}

}  // namespace

void launch_mma_sync(bool int8, int mode, int iters, int blocks, std::uint32_t seed, std::uint32_t* d_out,
                     cudaStream_t s) {
  if (int8)
    mma_sync_kernel<true><<<blocks, 256, 0, s>>>(mode, iters, seed, d_out);
  else
    mma_sync_kernel<false><<<blocks, 256, 0, s>>>(mode, iters, seed, d_out);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

double mma_sync_expected(bool int8, int lane, int i, int iters) {
  const int group = lane >> 2, t = lane & 3;
  const int k = int8 ? 32 : 16;
  const int col = 2 * t + (i & 1);  // row is group or group + 8: ga(row % 8) = ga(group)
  return static_cast<double>(iters) * MMA_ILP * k * mma_ga(group) * mma_fb(col);
}

}  // namespace joseki::probes
