// The mma probe's wgmma kernels: built for sm_90a only (CMake gives this file its own object
// library with -gencode=arch=compute_90a,code=sm_90a when 90 is among CMAKE_CUDA_ARCHITECTURES, and
// defines JOSEKI_WGMMA_SM90A). In a build without 90 the file is compiled with the build's own
// architectures and the kernel body is left out (__CUDA_ARCH_FEAT_SM90_ALL is defined only in an
// sm_90a pass); wgmma_built() then says false and the probe skips wgmma with the reason.
//
// PTX (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"):
//   wgmma.fence.sync.aligned;  wgmma.commit_group.sync.aligned;  wgmma.wait_group.sync.aligned N;
//   wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 d, a-desc, b-desc, scale-d;
//   wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 d, a-desc, b-desc, scale-d, 1, 1, 0, 0;
// (integer wgmma has no scale/transpose immediates and needs both operands K-major; bf16 with
// imm-trans 0 is K-major too). Matrix descriptor (64 bits): start address >> 4 in bits 0-13,
// leading-dimension byte offset >> 4 in bits 16-29, stride-dimension byte offset >> 4 in bits
// 32-45, base offset 0 (bits 49-51), swizzle mode 0 = none (bits 62-63).
// Shared-memory layout (no swizzle, K-major): core matrices of 8 rows x 16 bytes (128 contiguous
// bytes, row r at 16 r); the tile is [row groups][2 K-halves] of them: core (g, h) at (2 g + h) x 128
// bytes, so the K-direction neighbour is 128 bytes away (LBO) and the M/N-direction one 256 (SBO).
// Both tiles hold 32 bytes per row: int8 K = 32, bf16 K = 16.
// Accumulator layout (m64nN, per thread t of the warpgroup: warp w = t / 32, lane = 4 g + q):
// element 4 j + i is row 16 w + g + 8 (i >> 1), column 8 j + 2 q + (i & 1).
#include <cuda_bf16.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "backend/cuda/check.hpp"
#include "experiments/probes/device_common.hpp"
#include "experiments/probes/mma_kernels.hpp"

namespace joseki::probes {

namespace {

using u32 = std::uint32_t;

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ std::uint64_t smem_desc(const void* p) {
  const std::uint64_t a = static_cast<std::uint64_t>(__cvta_generic_to_shared(p));
  const std::uint64_t lbo = 128, sbo = 256;
  return ((a & 0x3FFFFull) >> 4) | (((lbo & 0x3FFFFull) >> 4) << 16) | (((sbo & 0x3FFFFull) >> 4) << 32);
}

__device__ __forceinline__ void wgmma_s8(u32 (&d)[64], std::uint64_t da, std::uint64_t db) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p;\n"
      "}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]), "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
      : "l"(da), "l"(db));
}

__device__ __forceinline__ void wgmma_bf16(u32 (&d)[64], std::uint64_t da, std::uint64_t db) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n"
      "}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]), "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
      : "l"(da), "l"(db));
}

// The A operand from registers (four 32-bit registers a thread: rows g and g + 8 of its warp's 16, bytes 4q .. and
// 16 + 4q ..; PTX ISA "wgmma .. register fragment"), B from shared memory: the form joseki's skewed combine uses.
__device__ __forceinline__ void wgmma_s8_rs(u32 (&d)[64], u32 a0, u32 a1, u32 a2, u32 a3, std::uint64_t db) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p;\n"
      "}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]), "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(db));
}

// A K-major tile of 64-byte rows written with the 64-byte swizzle (layout type 2): SBO 512 bytes between 8-row groups.
__device__ __forceinline__ std::uint64_t smem_desc_sw64(const void* p) {
  const std::uint64_t a = static_cast<std::uint64_t>(__cvta_generic_to_shared(p));
  return ((a & 0x3FFFFull) >> 4) | (1ull << 16) | (static_cast<std::uint64_t>(512 >> 4) << 32) | (2ull << 62);
}

template <int N>
__device__ __forceinline__ void wgmma_wait_n() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

__device__ __forceinline__ int dev_ga(int r) { return (r % 8) - 3; }
__device__ __forceinline__ int dev_fb(int c) { return ((c % 8) * 3) % 8 - 4; }

// Byte `o` of a tile: core matrix o / 128, row (o % 128) / 16 within it (= the row index mod 8).
template <bool INT8>
__device__ __forceinline__ void fill_tile(unsigned char* tile, unsigned bytes, bool is_a, int mode, u32 seed) {
  for (unsigned o = threadIdx.x * 4; o < bytes; o += blockDim.x * 4) {
    const int r = static_cast<int>((o % 128) / 16);
    const int v = is_a ? dev_ga(r) : dev_fb(r);
    u32 w;
    if (mode == MMA_CHECK) {
      if (INT8) {
        const u32 b = static_cast<u32>(v) & 0xFFu;
        w = b | (b << 8) | (b << 16) | (b << 24);
      } else {
        const __nv_bfloat162 h = __floats2bfloat162_rn(float(v), float(v));
        w = *reinterpret_cast<const u32*>(&h);
      }
    } else {
      const std::uint64_t idx = (static_cast<std::uint64_t>(blockIdx.x) * 2 + (is_a ? 0 : 1)) * 8192 + o;
      if (INT8) {
        w = mix32(idx, seed);
      } else {
        const __nv_bfloat162 h = __floats2bfloat162_rn(mix_unit(idx, seed) - 0.5f, mix_unit(idx + 1, seed) - 0.5f);
        w = *reinterpret_cast<const u32*>(&h);
      }
    }
    *reinterpret_cast<u32*>(tile + o) = w;
  }
}
#endif

template <bool INT8>
__global__ void __launch_bounds__(128) wgmma_kernel(int mode, int iters, u32 seed, u32* out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __shared__ __align__(128) unsigned char s_a[64 * 32];
  __shared__ __align__(128) unsigned char s_b[WGMMA_N * 32];
  fill_tile<INT8>(s_a, sizeof(s_a), true, mode, seed);
  fill_tile<INT8>(s_b, sizeof(s_b), false, mode, seed);
  // Ordinary stores that the tensor cores (async proxy) read next: fence each writer, then barrier.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const std::uint64_t da = smem_desc(s_a), db = smem_desc(s_b);
  const std::size_t base = (static_cast<std::size_t>(blockIdx.x) * 128 + threadIdx.x) * 64;
  if constexpr (INT8) {
    u32 d[64];
#pragma unroll
    for (int j = 0; j < 64; ++j) d[j] = 0;
    for (int it = 0; it < iters; ++it) {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int u = 0; u < WGMMA_PER_ITER; ++u) wgmma_s8(d, da, db);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }
#pragma unroll
    for (int j = 0; j < 64; ++j) out[base + j] = d[j];
  } else {
    u32 d[64];  // fp32 bit patterns: "+r" operands (with "+f" ptxas serialized the wgmmas, C7514)
#pragma unroll
    for (int j = 0; j < 64; ++j) d[j] = 0u;  // the bits of +0.0f
    for (int it = 0; it < iters; ++it) {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int u = 0; u < WGMMA_PER_ITER; ++u) wgmma_bf16(d, da, db);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }
#pragma unroll
    for (int j = 0; j < 64; ++j) out[base + j] = d[j];
  }
#elif defined(__CUDA_ARCH__)
  __trap();  // no sm_90a code in this pass: the host skips wgmma (wgmma_built() / measure::Needs)
#endif
}

// The shape probe (int8): WGS warpgroups a block (blocks = 4 / WGS a SM, so always four warpgroups a SM), each with
// its own A tile (ss) or fragment (rs) and one B tile shared by the block's warpgroups (SHARED) or its own; PER wgmmas a
// commit group, WAIT groups left in flight by the wait after each commit; B without swizzle (32-byte rows, core
// matrices as above) or with the 64-byte swizzle (SW64: 64-byte rows, the first 32 bytes used, as joseki's combine
// reads its TMA-written stage). The same accumulator chain as wgmma_kernel: the check's sums are iters x PER x 32 x
// ga x fb.
template <int WGS, int PER, int WAIT, bool SHARED, bool SW64, bool RS>
__global__ void __launch_bounds__(128 * WGS) wgmma_shape_kernel(int mode, int iters, u32 seed, u32* out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int BTILES = SHARED ? 1 : WGS, BROW = SW64 ? 64 : 32;
  __shared__ __align__(1024) unsigned char s_b[BTILES][WGMMA_N * BROW];
  __shared__ __align__(128) unsigned char s_a[WGS][64 * 32];
  const int wg = static_cast<int>(threadIdx.x) / 128;
  for (int t = 0; t < WGS; ++t) fill_tile<true>(s_a[t], sizeof(s_a[t]), true, mode, seed);
  for (int t = 0; t < BTILES; ++t) {
    if constexpr (SW64) {  // row n = o / 64 (its 16-byte chunks permuted within the row: a row's bytes are all one value
      // in the check, any value in the timed runs)
      for (unsigned o = threadIdx.x * 4; o < sizeof(s_b[t]); o += blockDim.x * 4) {
        const int r = static_cast<int>((o / 64) % 8);
        const u32 b = static_cast<u32>(dev_fb(r)) & 0xFFu;
        *reinterpret_cast<u32*>(s_b[t] + o) =
            mode == MMA_CHECK ? (b | (b << 8) | (b << 16) | (b << 24)) : mix32(static_cast<std::uint64_t>(blockIdx.x) * 65536 + o, seed);
      }
    } else {
      fill_tile<true>(s_b[t], sizeof(s_b[t]), false, mode, seed);
    }
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const std::uint64_t da = smem_desc(s_a[wg]);
  const unsigned char* bt = s_b[SHARED ? 0 : wg];
  const std::uint64_t db = SW64 ? smem_desc_sw64(bt) : smem_desc(bt);
  // rs: this thread's fragment, rows g and g + 8 of its warp (both g mod 8), four bytes each from A's tile
  const int lane = static_cast<int>(threadIdx.x) % 32, g = lane / 4;
  u32 fa = 0;
  if constexpr (RS) {
    const u32 b = static_cast<u32>(dev_ga(g)) & 0xFFu;
    fa = mode == MMA_CHECK ? (b | (b << 8) | (b << 16) | (b << 24)) : mix32(static_cast<std::uint64_t>(threadIdx.x), seed);
  }
  const std::size_t base = (static_cast<std::size_t>(blockIdx.x) * 128 * WGS + threadIdx.x) * 64;
  u32 d[64];
#pragma unroll
  for (int j = 0; j < 64; ++j) d[j] = 0;
  for (int it = 0; it < iters; ++it) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int u = 0; u < PER; ++u) {
      if constexpr (RS)
        wgmma_s8_rs(d, fa, fa, fa, fa, db);
      else
        wgmma_s8(d, da, db);
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    wgmma_wait_n<WAIT>();
  }
  wgmma_wait_n<0>();
#pragma unroll
  for (int j = 0; j < 64; ++j) out[base + j] = d[j];
#elif defined(__CUDA_ARCH__)
  __trap();
#endif
}

}  // namespace

bool wgmma_built() {
#if defined(JOSEKI_WGMMA_SM90A)
  return true;
#else
  return false;
#endif
}

void launch_wgmma(bool int8, int mode, int iters, int blocks, std::uint32_t seed, std::uint32_t* d_out, cudaStream_t s) {
  if (int8)
    wgmma_kernel<true><<<blocks, 128, 0, s>>>(mode, iters, seed, d_out);
  else
    wgmma_kernel<false><<<blocks, 128, 0, s>>>(mode, iters, seed, d_out);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

double wgmma_expected(bool int8, int t, int j, int iters) {
  const int lane = t % 32, g = lane / 4, q = lane % 4;
  const int i = j % 4, jj = j / 4;
  const int col = 8 * jj + 2 * q + (i & 1);  // row = 16 w + g + 8 (i >> 1): row % 8 = g
  const int k = int8 ? 32 : 16;
  return static_cast<double>(iters) * WGMMA_PER_ITER * k * mma_ga(g) * mma_fb(col);
}

namespace {

// One list of the shapes: each entry's fields are its kernel's template arguments, so the table the probe walks and
// the launch it makes cannot drift apart.
struct ShapeEntry {
  WgmmaShapeProbe probe;
  void (*launch)(int mode, int iters, int blocks, std::uint32_t seed, std::uint32_t* d_out, cudaStream_t s);
};
template <int W, int P, int T, bool SH, bool SW, bool R>
ShapeEntry shape(const char* name) {
  return {{name, W, P, T, SH, SW, R}, [](int mode, int iters, int blocks, std::uint32_t seed, std::uint32_t* d_out,
                                         cudaStream_t s) {
            wgmma_shape_kernel<W, P, T, SH, SW, R><<<blocks, 128 * W, 0, s>>>(mode, iters, seed, d_out);
          }};
}
const std::vector<ShapeEntry>& shape_entries() {
  static const std::vector<ShapeEntry> v = {
      shape<1, 8, 0, false, false, false>("wg1.per8.wait0"),        // the probe's own shape (wgmma_int8)
      shape<4, 8, 0, true, false, false>("wg4.shared.per8.wait0"),  // four warpgroups a block, one B tile
      shape<4, 2, 0, true, false, false>("wg4.shared.per2.wait0"),  // the combine's group of two wgmmas a stage
      shape<4, 2, 1, true, false, false>("wg4.shared.per2.wait1"),  // ... one group left in flight (r10 .. r44)
      shape<4, 2, 1, true, true, false>("wg4.shared.per2.wait1.sw64"),    // ... B 64-byte swizzled (the TMA stage)
      shape<4, 2, 1, true, true, true>("wg4.shared.per2.wait1.sw64.rs"),  // ... A from registers: the skewed combine
      shape<1, 2, 1, false, true, true>("wg1.per2.wait1.sw64.rs"),  // the same rhythm, one warpgroup a block
  };
  return v;
}

}  // namespace

const std::vector<WgmmaShapeProbe>& wgmma_shape_probes() {
  static const std::vector<WgmmaShapeProbe> v = [] {
    std::vector<WgmmaShapeProbe> p;
    for (const ShapeEntry& e : shape_entries()) p.push_back(e.probe);
    return p;
  }();
  return v;
}

void launch_wgmma_shape(const WgmmaShapeProbe& sh, int mode, int iters, int sms, std::uint32_t seed, std::uint32_t* d_out,
                        cudaStream_t s) {
  for (const ShapeEntry& e : shape_entries())
    if (std::string_view(e.probe.name) == sh.name) {
      e.launch(mode, iters, sms * 4 / sh.warpgroups, seed, d_out, s);
      JOSEKI_CUDA_CHECK_LAUNCH();
      return;
    }
  throw std::invalid_argument(std::string("mma probe: no wgmma shape kernel for ") + sh.name);
}

double wgmma_shape_expected(const WgmmaShapeProbe& sh, int t, int j, int iters) {
  return wgmma_expected(true, t % 128, j, iters) / WGMMA_PER_ITER * sh.per_group;
}

}  // namespace joseki::probes
