// Rung 9 of the gpu-pairs ladder (issue 19): the combine on wgmma (sm_90a) with the masked column sum
// in the GEMM's epilogue: G never goes to memory, and circ(V) never exists outside shared memory.
//
// What changed from r04: r04's combine is prep (circ(V), 5.3 MB, and 1 - V), cuBLASLt's int8 GEMM
// G = C_0 circ(V) (kp x kp int32, 21 MB written, ncu ~24.9 us at the max case, ~960 TOPS) and a
// masked column sum that reads G back (~10 us: G returns from HBM), plus r02's mma.sync kernel for
// the planes above bit 7: 39.9 us "combine alone" at the max case (N = 7e6, K = 2300).
// Here one kernel computes, per tile, the transposed product D[k][a] = sum_b W[k][b] P_j[a][b] with
// W[k][b] = V[(k+b) mod K] (b < K; 0 beyond) and P_j a byte plane of C, on wgmma m64n128k32
// .s32.u8.u8 (u8: plane 0's 0..127 and the upper planes' 0..255 alike, so every plane runs here:
// no mma.sync kernel beside it), and its epilogue adds sum_a (1 - V[(a+k) mod K]) D[k][a] << shift(j)
// to answer[k] (32-bit partial sums per row of the tile, exact below 2^32 for K <= 16384; one 64-bit
// atomic per row and segment). Exact by construction: integer products and sums, no rounding anywhere.
//   * Tile 128 (k) x 128 (a) per block of two warpgroups (64 rows of k each; or 256 x 128 with four
//     warpgroups, one block per SM: the planes are read from L2 once per row tile, 18 x 5.3 MB = 95 MB
//     with 128 rows at the max case, ~7 TB/s at the tensor cores' pace -- as much an L2 limit as a
//     tensor one -- and half that with 256 rows), 64 bytes of b per stage,
//     4 stages of cp.async (the plane's rows a, b contiguous: K-major, as integer wgmma needs, in the
//     no-swizzle core-matrix layout the mma probe validated: 8 rows x 16 bytes per core matrix,
//     LBO 128, SBO 256).
//   * The circulant operand W: variant rs assembles each thread's A fragment (4 registers, 16 bytes
//     of V per k32 step) from V twice over in shared memory by funnel shifts (it never exists as a
//     tile); variant ss writes W's tile into shared memory per stage (the probe's path for both
//     operands) -- rs/ss x 2/4 warpgroups are all built so that the device step keeps the exact, fastest one.
//   * Stream-K: the (plane, tile, stage) units are split evenly over one wave of blocks (2 per SM
//     with two warpgroups: 264 on the H200), each block's range cut at tile boundaries into segments, each segment ending in
//     its epilogue (split-K is free: the column sum is linear in D). The planes the table's maximum
//     does not need are not units at all (the maximum is read on the device: r04's fused count
//     writes it).
// Prediction (max case, one plane): 2300 x 2304 x 2304 MACs = 24.4 G int8 ops at ~70 % of the
// 1979 TOPS peak (a plain cp.async pipeline, one barrier and one wgmma wait per stage, no warp
// specialization; the probe's 92.8 % is the instruction's ceiling) -> ~17-18 us, plus ~1-2 us of
// prologue/epilogue/atomics: ~19-20 us against r04's combine alone 39.9 us (GEMM 24.9 + column sum
// ~10 + prep and planes beside them), i.e. ~2x; the max case would drop from ~78 us to ~58 us.
// Measured (H200, mid-session calls 1 and 2 of 2026-12-01, step wgmma_combine; GPU_COMPUTE cold, max case):
// every shape exact (GPU tests incl. whole solves through PairsDevice, memcheck and racecheck clean), but
// SLOWER than r04: the best, rs.wg4.bk128 / rs.wg4.bk64, 51.7-53.6 us for the kernel alone (~455 TOPS,
// 23 % of peak), 55-57 us with the first terms, against r04's combine alone 39.1-39.6 us; the whole max
// case with r09 in r05's graph 107.6 us (r05 77.2 us). Where the time goes (call 2): L2 warm changes
// nothing (52.1 hot), without the proxy fence 52.9, without any load after the prologue still 45.1 us;
// ncu: issue slots 34-39 % busy, 10.9 cycles per issued instruction, no eligible warp 58-63 % of the
// time, 25 % occupancy. So neither memory nor the fence: each warp's instruction stream between wgmmas
// (the A fragments: 8 shared loads, funnel shifts and byte masks per k32 step and thread; ss: the same
// work writing W's tile) takes ~1000 cycles per k32 step against 256 tensor cycles for the SM's four
// warpgroups. After call 2 (this version, not yet measured on the H200): rs reads its fragments from
// V2 and three byte-shifted copies of it (four aligned word loads at fixed offsets per k32 step, no
// shifts, no masks), and instead of masking W at b >= K it zeroes P's columns >= K in the stage tile
// (the last stage of a tile only). Prediction: the per-k32 instruction stream ~5x shorter -> rs at
// 50-70 % of peak, ~18-25 us alone; ss unchanged (its W tile is still built per stage).
// Measured, this version (final call of 2026-12-01, results/h200/2026-12-01-session6/final-a, commit
// 566b24d, median of the runs): every shape exact; rs.wg4.bk64 46.88 us alone (519 TOPS), rs.wg4.bk128
// 49.22 us, ss.wg4.bk64 52.90 us, against r04's combine alone 40.19 us in the same run; the whole max case
// (p09) 91.04 us vs r05 77.52 us; 10^9 4.6564 ms vs r05 4.7194 ms (G never written: -0.06 ms); ncu: issue
// slots 18-23 % busy. The prediction (18-25 us) was wrong: ~12 % off, not 2x; the fragment assembly still
// bounds it. A negative-result rung.
//
// Rungs r10 .. r15 (session 8, docs/ABC471G_SCALE.md "r10 .. r15") are this kernel with knobs, measured one at
// a time (kernel alone at the max case, results/h200/2026-12-02-session8/final-a): INFLIGHT (r10, a wgmma group
// left in flight across the barrier) 42.18 us; pad_copies (r11, conflict-free fragment loads) 36.74 us; six
// slots (r12) 35.87 us; and wgmma_combine_tma_kernel below (r13: TMA through mbarriers, no block barrier)
// 31.74 us, with eight slots (r15) 28.38 us, against r09's 47.20 us in the same run.
//
// Built for sm_90a only (CMake: gpu_pairs/sm90a is this file's own object library with
// -gencode=arch=compute_90a,code=sm_90a and JOSEKI_WGMMA_SM90A when 90 is among the build's
// architectures); in any other pass the kernel body is left out (__CUDA_ARCH_FEAT_SM90_ALL) and
// wgmma_combine_built() says false: callers check measure::Needs{Feature::Wgmma} and it first.
#include <cuda.h>
#include <cuda_runtime.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>

#include "backend/cuda/check.hpp"
#include "backend/cuda/clocks.cuh"
#include "backend/cuda/launch.cuh"
#include "backend/cuda/mbarrier.cuh"
#include "backend/cuda/tensor_map.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_combine.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_math.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::pairs {

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

using cuda::global_timer;  // the trace (WgmmaCombineArgs::d_trace)
using cuda::sm_id;
using namespace r09;  // BN, STAGES, block shapes, tile layout, fragments, segments (r09_wgmma_math.hpp)

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// Matrix descriptor, no swizzle: start >> 4 (bits 0-13), LBO 128 >> 4 (16-29), SBO 256 >> 4 (32-45).
// `swap` (a diagnostic, WgmmaCombineArgs::desc_swap): LBO and SBO exchanged.
__device__ __forceinline__ u64 desc(u32 saddr, bool swap) {
  const u64 lbo = swap ? SBO : LBO, sbo = swap ? LBO : SBO;
  return static_cast<u64>((saddr & 0x3FFFFu) >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32);
}

__device__ __forceinline__ void cp_async16(u32 saddr, const void* g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr), "l"(g) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
// Generic-proxy writes (cp.async, st.shared) made visible to the tensor cores' async proxy.
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait0() { asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait1() { asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// D (64 x 128, s32) += A (64 x 32 u8, registers) * B (32 x 128 u8, descriptor; K-major).
__device__ __forceinline__ void wgmma_rs(u32 (&d)[64], u32 a0, u32 a1, u32 a2, u32 a3, u64 db) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.s32.u8.u8 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p;\n"
      "}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]), "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(db));
}

// D (64 x 128, s32) += A (64 x 32 u8, descriptor) * B (32 x 128 u8, descriptor); both K-major.
__device__ __forceinline__ void wgmma_ss(u32 (&d)[64], u64 da, u64 db) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.s32.u8.u8 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p;\n"
      "}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]), "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
      : "l"(da), "l"(db));
}
#endif

// WGS consumer warpgroups (2: 128 rows of k, two blocks per SM; 4: 256 rows, one block per SM and
// half the L2 reads of the planes).
// BK bytes of b per stage (64 or 128).
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// V into shared memory at s_v as V2 (V twice over, v_bytes(kp) bytes): up to 8 independent loads per thread
// in flight (not one round trip per byte), then the copies beyond K from shared memory. COPIES (rs): also
// V2 shifted by 1, 2, 3 bytes, copy_stride(kp, a.pad_copies) apart (the fragments' aligned word loads).
// Ends with a block barrier.
template <u32 THREADS, bool COPIES>
__device__ __forceinline__ void load_v(const WgmmaCombineArgs& a, unsigned char* s_v) {
  const u32 K = a.k, kp = a.kp;
  for (u32 base = 0; base < K; base += 8 * THREADS) {
    unsigned char x[8];
#pragma unroll
    for (u32 e = 0; e < 8; ++e) {
      const u32 i = base + e * THREADS + threadIdx.x;
      x[e] = i < K ? __ldg(a.d_v + i) : 0;
    }
#pragma unroll
    for (u32 e = 0; e < 8; ++e) {
      const u32 i = base + e * THREADS + threadIdx.x;
      if (i < K) s_v[i] = x[e];
    }
  }
  __syncthreads();
  for (u32 i = K + threadIdx.x; i < v_bytes(kp); i += THREADS) s_v[i] = s_v[i % K];
  __syncthreads();
  if constexpr (COPIES) {
    const u32* s_v32 = reinterpret_cast<const u32*>(s_v);
    const u32 vw = v_bytes(kp) / 4;
    for (u32 c = 1; c < 4; ++c) {
      u32* dst = reinterpret_cast<u32*>(s_v + c * copy_stride(kp, a.pad_copies));
      for (u32 j = threadIdx.x; j + 1 < vw; j += THREADS) dst[j] = window4(s_v32, 4 * j + c);
    }
    __syncthreads();
  }
}

// r48 (WgmmaCombineArgs::lean_prologue): load_v with COPIES in one pass less. V's bytes as load_v loads them, one
// barrier, then every word of the four copies straight from V at positions mod K (no V2 pass and no barrier between
// it and the shifted copies, no `%` for a position below 2 K). The words of copy 0 that hold bytes below K are V
// itself and are not written again (other threads read them); of its word that straddles K only the bytes >= K are.
// Ends with a block barrier.
template <u32 THREADS>
__device__ __forceinline__ void load_v_lean(const WgmmaCombineArgs& a, unsigned char* s_v) {
  const u32 K = a.k, kp = a.kp;
  for (u32 base = 0; base < K; base += 8 * THREADS) {
    unsigned char x[8];
#pragma unroll
    for (u32 e = 0; e < 8; ++e) {
      const u32 i = base + e * THREADS + threadIdx.x;
      x[e] = i < K ? __ldg(a.d_v + i) : 0;
    }
#pragma unroll
    for (u32 e = 0; e < 8; ++e) {
      const u32 i = base + e * THREADS + threadIdx.x;
      if (i < K) s_v[i] = x[e];
    }
  }
  __syncthreads();
  const u32 vw = v_bytes(kp) / 4, stride = copy_stride(kp, a.pad_copies), k_words = K / 4;
  const auto mod_k = [K](u32 o) { return o < K ? o : o < 2 * K ? o - K : o % K; };
  for (u32 idx = threadIdx.x; idx < 4 * vw; idx += THREADS) {
    const u32 c = idx / vw, j = idx - c * vw;
    if (c == 0 && j < k_words) continue;  // V's own bytes
    if (c > 0 && j + 1 == vw) continue;   // as load_v: the last word of a shifted copy is never read
    const u32 o = 4 * j + c;
    u32 p = mod_k(o), w = 0;
#pragma unroll
    for (u32 t = 0; t < 4; ++t) {
      w |= static_cast<u32>(s_v[p]) << (8 * t);
      p = p + 1 == K ? 0u : p + 1;
    }
    if (c == 0 && 4 * j < K) {  // the word that straddles K: only its bytes from K on
      for (u32 t = K - 4 * j; t < 4; ++t) s_v[4 * j + t] = static_cast<unsigned char>(w >> (8 * t));
    } else {
      *reinterpret_cast<u32*>(s_v + c * stride + 4 * j) = w;
    }
  }
  __syncthreads();
}

// r49 (WgmmaCombineArgs::d_vimage): V's four copies copied as they lie in shared memory (v_copies_image, made on the
// host), 16 bytes a load, up to four loads in flight a thread. Ends with a block barrier.
template <u32 THREADS>
__device__ __forceinline__ void load_v_image(const WgmmaCombineArgs& a, unsigned char* s_v) {
  const u32 n = (3 * copy_stride(a.kp, 1) + v_bytes(a.kp)) / 16;  // v_bytes: a multiple of 256; the pads 32 bytes
  const uint4* src = reinterpret_cast<const uint4*>(a.d_vimage);
  uint4* dst = reinterpret_cast<uint4*>(s_v);  // s_v is 1 KB aligned (after the ring's slots)
  for (u32 base = 0; base < n; base += 4 * THREADS) {
    uint4 x[4];
#pragma unroll
    for (u32 e = 0; e < 4; ++e) {
      const u32 i = base + e * THREADS + threadIdx.x;
      if (i < n) x[e] = __ldg(src + i);
    }
#pragma unroll
    for (u32 e = 0; e < 4; ++e) {
      const u32 i = base + e * THREADS + threadIdx.x;
      if (i < n) dst[i] = x[e];
    }
  }
  __syncthreads();
}

// rs: a stage's A fragments (HALVES k32 steps, from the copy of V2 for this thread's rows) and its wgmmas
// into d; desc_of(h) is the B operand's descriptor for k32 step h. The caller commits the group.
// frag(h, fr[h]) assembles the fragment of k32 step h (r33: a_fragment_skew's rows).
template <u32 HALVES, class Frag, class Desc>
__device__ __forceinline__ void rs_stage_mma_with(u32 (&d)[64], u32 (&fr)[HALVES][4], Frag frag, Desc desc_of) {
#pragma unroll
  for (u32 h = 0; h < HALVES; ++h) frag(h, fr[h]);
  wgmma_fence();
#pragma unroll
  for (u32 h = 0; h < HALVES; ++h) wgmma_rs(d, fr[h][0], fr[h][1], fr[h][2], fr[h][3], desc_of(h));
}
template <u32 HALVES, class Desc>
__device__ __forceinline__ void rs_stage_mma(u32 (&d)[64], u32 (&fr)[HALVES][4], const u32* copy, u32 row, u32 b0, u32 q,
                                             Desc desc_of) {
  rs_stage_mma_with(d, fr, [&](u32 h, u32 (&f)[4]) { a_fragment_rs(copy, row, b0 + 32 * h, q, f); }, desc_of);
}

// The epilogue (acc_row / acc_col: the accumulator's layout): this thread's two rows' masked sums,
// answer[k] += sum_{a < K} (1 - V[(a + k) mod K]) D[k][a] << shift, one 64-bit atomic per row and quad.
__device__ __forceinline__ void masked_row_sums(const WgmmaCombineArgs& a, const u32 (&d)[64], const unsigned char* s_v,
                                                u32 plane, u32 k0, u32 a0, u32 row_lo, u32 wg, u32 warp, u32 g, u32 q) {
  const u32 K = a.k;
  u32 s_lo = 0, s_hi = 0;
#pragma unroll
  for (u32 e = 0; e < 64; ++e) {
    const u32 col = a0 + acc_col(q, e), row = k0 + 64 * wg + acc_row(warp, g, e);
    const bool keep = col < K && s_v[row + col] == 0;  // row + col < 2 kp + 128 < v_bytes
    const u32 add = keep ? d[e] : 0u;
    if ((e & 3) >> 1)
      s_hi += add;
    else
      s_lo += add;
  }
  s_lo += __shfl_xor_sync(0xFFFFFFFFu, s_lo, 1);
  s_lo += __shfl_xor_sync(0xFFFFFFFFu, s_lo, 2);
  s_hi += __shfl_xor_sync(0xFFFFFFFFu, s_hi, 1);
  s_hi += __shfl_xor_sync(0xFFFFFFFFu, s_hi, 2);
  if (q == 0) {
    const int shift = plane_shift(static_cast<int>(plane), a.low_bits);
    auto* ans = reinterpret_cast<unsigned long long*>(a.d_answer);
    if (row_lo < K && s_lo) atomicAdd(ans + row_lo, static_cast<unsigned long long>(s_lo) << shift);
    if (row_lo + 8 < K && s_hi) atomicAdd(ans + row_lo + 8, static_cast<unsigned long long>(s_hi) << shift);
  }
}

// r33's epilogue (a whole block, every thread; r09_wgmma_math.hpp "r33"): D'[m][n] of this thread's rows m_lo and
// m_lo + 8 (x_lo, x_hi) goes to answer[(x - a) mod K], a = a0 + n < K, rows m < a.rows only. The block's tile is
// summed along x - a in its shared-memory windows (the copy of this lane's q), then each window entry is added
// to the answer with one 64-bit atomic; a tile whose rows span more than the window (V's ones dense there) adds
// each element to the answer itself. Leaves the windows zero; two block barriers.
template <u32 THREADS, u32 WIN>
__device__ __forceinline__ void skew_sums(const WgmmaCombineArgs& a, const u32 (&d)[64], u32* s_win, u32 copies, u32 stride,
                                          u32 plane, u32 k0, u32 bm, u32 a0, u32 m_lo, u32 x_lo, u32 x_hi, u32 q,
                                          bool have_span, u32 base_in, u32 last_in) {
  const u32 K = a.k, n = a.rows;
  // k0 < n: the tile has a row. have_span (r45): the tile's first and last x were loaded at the segment's start.
  const u32 base = have_span ? base_in : a.d_rows[k0], last = have_span ? last_in : a.d_rows[min(k0 + bm, n) - 1];
  const u32 span = skew_span(base, last);
  const int shift = plane_shift(static_cast<int>(plane), a.low_bits);
  auto* ans = reinterpret_cast<unsigned long long*>(a.d_answer);
  u32* win = s_win + (copies == 4 ? q * stride : 0u);  // stride: WIN, or WIN + WINDOW_PAD (r43)
  const bool fits = span <= WIN;  // the same in every thread of the block
  // r53 (a.edge_fast): the last column tile (a0 + BN > K) on this path too. Its columns a >= K hold zeros there (the
  // planes' map then ends at row K, so the copies fill P's rows >= K with zeros), and a zero added into a slot of the
  // window changes nothing (slot x - base + 127 - 2q - off lies inside the span). Without it that tile takes the general
  // path below (~3.3 us an epilogue against ~1.45, session 20's trace).
  if (fits && (a0 + BN <= K || a.edge_fast)) {  // the entries' slots are this row's slot less a constant
    // Element e's column is a0 + 2q + 8 (e / 4) + (e & 1): its slot is the row's slot of column a0 + 2q less that.
    const bool lo_ok = m_lo < n, hi_ok = m_lo + 8 < n;
    u32* w_lo = win + skew_slot(lo_ok ? x_lo : base, base, a0, a0 + 2 * q);
    u32* w_hi = win + skew_slot(hi_ok ? x_hi : base, base, a0, a0 + 2 * q);
#pragma unroll
    for (u32 e = 0; e < 64; ++e) {
      const u32 off = 8 * (e >> 2) + (e & 1);
      if ((e & 3) >> 1) {
        if (hi_ok) atomicAdd(w_hi - off, d[e]);
      } else if (lo_ok) {
        atomicAdd(w_lo - off, d[e]);
      }
    }
  } else {  // the last column tile (columns >= K dropped), or a tile wider than the window (to the answer directly)
#pragma unroll
    for (u32 e = 0; e < 64; ++e) {
      const bool hi = (e & 3) >> 1;
      const u32 m = m_lo + (hi ? 8u : 0u), x = hi ? x_hi : x_lo, col = a0 + acc_col(q, e);
      if (m < n && col < K && d[e] != 0) {
        if (fits)
          atomicAdd(win + skew_slot(x, base, a0, col), d[e]);
        else
          atomicAdd(ans + (x >= col ? x - col : x + K - col), static_cast<unsigned long long>(d[e]) << shift);
      }
    }
  }
  __syncthreads();
  if (fits)
    for (u32 w = threadIdx.x; w < span; w += THREADS) {
      unsigned long long s = 0;
      for (u32 c = 0; c < copies; ++c) {
        s += s_win[c * stride + w];
        s_win[c * stride + w] = 0;
      }
      if (s) atomicAdd(ans + skew_answer(w, base, a0, K), s << shift);
    }
  __syncthreads();  // the windows are zero again before the next segment's adds
}
#endif

// INFLIGHT (r10): the stage's wgmma group stays in flight across the next stage's barrier (wait_group 1,
// not 0), so the tensor cores run while the warps assemble the next fragments and pass the barrier; the
// copies then run STAGES - 2 stages ahead (not STAGES - 1: the slot of the group still in flight is not
// overwritten), and rs keeps its A fragments in two sets of registers (a set is rewritten only after
// the group that read it has completed).
// NST: stage slots (STAGES; r12: DEEP_STAGES with rs and INFLIGHT, the copies NST - 2 = 4 stages ahead).
template <bool SS, u32 WGS, u32 BK, bool INFLIGHT, u32 NST = STAGES>
__global__ void __launch_bounds__(block_threads(WGS), 4 / WGS) wgmma_combine_kernel(WgmmaCombineArgs a) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr u32 AHEAD = INFLIGHT ? NST - 2 : NST - 1;  // stages copied ahead of the one computed
  static_assert(AHEAD >= 1, "at least one stage ahead");
  constexpr u32 THREADS = block_threads(WGS), ROWS = block_rows(WGS);
  constexpr u32 TILE_BYTES = tile_bytes(BN, BK), W_TILE_BYTES = tile_bytes(ROWS, BK);
  constexpr u32 HALF_P = half_bytes(BN), HALF_W = half_bytes(ROWS), CHUNKS = BK / 16, HALVES = BK / 32;
  extern __shared__ __align__(128) unsigned char smem[];
  unsigned char* s_w = smem + NST * TILE_BYTES;                             // ss only
  unsigned char* s_v = smem + NST * TILE_BYTES + (SS ? NST * W_TILE_BYTES : 0);
  const u32* s_v32 = reinterpret_cast<const u32*>(s_v);
  (void)s_v32;  // ss's W tiles read it
  const u32 K = a.k, kp = a.kp;
  const bool swap = a.desc_swap != 0;

  const int planes = planes_to_run(a.planes, a.d_max != nullptr, a.d_max ? *a.d_max : 0, a.low_bits);
  const Units un = units(K, planes, WGS, BK);
  const u64 u_begin = block_begin(un, blockIdx.x, gridDim.x), u_end = block_begin(un, blockIdx.x + 1, gridDim.x);
  if (u_begin >= u_end) return;  // the whole block

  load_v<THREADS, !SS>(a, s_v);
  // Diagnostics (WgmmaCombineArgs::debug; 0 in every real run): 1 no proxy fence, 2 no loads after the
  // prologue (a runtime "no wgmma" made ptxas inject warpgroup arrives into the real path: left out).
  const bool dbg_nofence = (a.debug & 1) != 0, dbg_noloads = (a.debug & 2) != 0;

  const u32 tid = threadIdx.x, wg = tid >> 7, warp = (tid >> 5) & 3, lane = tid & 31, g = lane >> 2, q = lane & 3;
  // This thread's fragment rows are = g (mod 4) (k0 and 64 wg + 16 warp are multiples of 4): its copy of V2.
  const u32* my_copy = reinterpret_cast<const u32*>(s_v + (SS ? 0u : (g & 3) * copy_stride(kp, a.pad_copies)));
  const u32 s_p_addr = static_cast<u32>(__cvta_generic_to_shared(smem));
  const u32 s_w_addr = static_cast<u32>(__cvta_generic_to_shared(s_w));

  for (u64 u = u_begin; u < u_end;) {
    const Segment sg = segment_at(un, u, u_end);
    u += sg.nsteps;
    const u32 plane = sg.plane, s0 = sg.s0, nsteps = sg.nsteps, k0 = sg.k0, a0 = sg.a0;
    const unsigned char* P = a.d_planes + static_cast<std::size_t>(plane) * kp * kp;

    __syncthreads();  // both warpgroups are done with the previous segment's stage slots

    // Stage st of the segment into slot `slot`: P's rows a0.. (128 x 64 bytes, cp.async), and for ss
    // W's rows k0.. (128 x 64 bytes from V, st.shared).
    auto load_stage = [&](u32 st, u32 slot) {
      const u32 b0 = (s0 + st) * BK;
#pragma unroll
      for (u32 i = 0; i < BN * CHUNKS / THREADS; ++i) {
        // A warp: 8 rows x 4 chunks (each bank group of the core layout written 4 times: 4 wavefronts).
        const u32 c = tid + i * THREADS, r = ((c >> 3) / CHUNKS) * 8 + (c & 7), cc = (c >> 3) % CHUNKS;
        cp_async16(s_p_addr + slot * TILE_BYTES + tile_offset(r, cc, BN),
                   P + static_cast<std::size_t>(a0 + r) * kp + b0 + 16 * cc);
      }
      if constexpr (SS) {
#pragma unroll
        for (u32 i = 0; i < ROWS * CHUNKS / THREADS; ++i) {
          const u32 c = tid + i * THREADS, r = ((c >> 3) / CHUNKS) * 8 + (c & 7), cc = (c >> 3) % CHUNKS;
          u32 x[4];
          w_chunk(s_v32, k0 + r, b0 + 16 * cc, K, x);
          const uint4 v = make_uint4(x[0], x[1], x[2], x[3]);
          *reinterpret_cast<uint4*>(s_w + slot * W_TILE_BYTES + tile_offset(r, cc, ROWS)) = v;
        }
      }
    };

#pragma unroll
    for (u32 st = 0; st < AHEAD; ++st) {
      if (st < nsteps) load_stage(st, st);
      cp_async_commit();
    }

    u32 d[64];
#pragma unroll
    for (int j = 0; j < 64; ++j) d[j] = 0;

    // This thread's rows of k (its fragment rows): 16 warp + g and + 8 within its warpgroup's 64.
    const u32 row_lo = k0 + 64 * wg + 16 * warp + g;
    // One stage: wait for its copies, free the slot AHEAD stages on, compute. fr: rs's fragment registers
    // for this stage (with INFLIGHT, two sets used in turn: see the loop below).
    auto stage = [&](u32 it, u32 (&fr)[HALVES][4]) {
      const u32 slot = it % NST;
      cp_async_wait<AHEAD - 1>();  // this thread's copies of stage it have landed
      if constexpr (!SS) {
        // rs: W is not masked at b >= K; P's columns >= K are zeroed instead, each thread in the chunks it
        // copied itself (landed: its own wait above), in the tile's last stage only.
        const u32 bz = (s0 + it) * BK;
        if (bz + BK > K) {
#pragma unroll
          for (u32 i = 0; i < BN * CHUNKS / THREADS; ++i) {
            const u32 c = tid + i * THREADS, r = ((c >> 3) / CHUNKS) * 8 + (c & 7), cc = (c >> 3) % CHUNKS;
            const int keep = p_chunk_keep(K, bz + 16 * cc);
            if (keep < 16) {
              uint4* q4 = reinterpret_cast<uint4*>(smem + slot * TILE_BYTES + tile_offset(r, cc, BN));
              uint4 v = *q4;
              v.x = keep_bytes(v.x, keep);
              v.y = keep_bytes(v.y, keep - 4);
              v.z = keep_bytes(v.z, keep - 8);
              v.w = keep_bytes(v.w, keep - 12);
              *q4 = v;
            }
          }
        }
      }
      if (!dbg_nofence) fence_proxy_async();
      // Everyone's copies are in; the slot the next copy overwrites is free: its group completed (wait_group
      // 0, or with INFLIGHT wait_group 1 after the group of the stage after it) in every warpgroup.
      __syncthreads();
      {
        const u32 nx = it + AHEAD;
        if (nx < nsteps && !dbg_noloads) load_stage(nx, nx % NST);
        cp_async_commit();
      }
      const u32 b0 = (s0 + it) * BK;
      if constexpr (SS) {
        (void)fr;
        wgmma_fence();
#pragma unroll
        for (u32 h = 0; h < HALVES; ++h)
          wgmma_ss(d, desc(s_w_addr + slot * W_TILE_BYTES + h * HALF_W + wg * half_bytes(64), swap),
                   desc(s_p_addr + slot * TILE_BYTES + h * HALF_P, swap));
      } else {
        // A fragment of k32 half h (the mma.sync m16n8k32 layout per warp): a0 = row g, columns
        // 4q..4q+3; a1 = row g + 8, same columns; a2, a3 = the same rows, columns 16 + 4q...
        // W[row][b + col] = V2[row + b + col]: the bytes at o, o + 8, o + 16, o + 24 for o = row_lo + b + 4q.
        rs_stage_mma(d, fr, my_copy, row_lo, b0, q,
                     [&](u32 h) { return desc(s_p_addr + slot * TILE_BYTES + h * HALF_P, swap); });
      }
      wgmma_commit();
      if constexpr (INFLIGHT)
        wgmma_wait1();  // the previous stage's group has completed (its slot and fragments are free)
      else
        wgmma_wait0();
    };
    u32 fr_a[HALVES][4], fr_b[HALVES][4];
    if constexpr (INFLIGHT) {  // fr_a and fr_b in turn: no fragment register is rewritten under a running group
      u32 it = 0;
      for (; it + 1 < nsteps; it += 2) {
        stage(it, fr_a);
        stage(it + 1, fr_b);
      }
      if (it < nsteps) stage(it, fr_a);
      wgmma_wait0();  // the last group, before the epilogue reads d
    } else {
      for (u32 it = 0; it < nsteps; ++it) stage(it, fr_a);
    }
    (void)fr_b;
    cp_async_wait<0>();  // the segment's trailing (empty) groups

    masked_row_sums(a, d, s_v, plane, k0, a0, row_lo, wg, warp, g, q);
  }
#elif defined(__CUDA_ARCH__)
  (void)a;
  __trap();  // no sm_90a code in this pass: the host never launches it (wgmma_combine_built / Needs)
#else
  (void)a;
#endif
}

// r13: the same product and epilogue as r12 (rs, one group in flight, padded copies), fed by the tensor
// memory accelerator through mbarriers instead of cp.async and a block barrier per stage:
//   * thread 0 copies a stage with one cp.async.bulk.tensor.3d box of 64 bytes x 128 rows of P (the map's
//     dims {K, kp, planes}: columns b >= K arrive as zeros, so no masking pass) into its slot, written
//     with the 64-byte swizzle (16-byte granule j of row r at granule j ^ ((r >> 1) & 3)), which is the
//     layout wgmma reads with a SWIZZLE_64B descriptor (SBO = 512 bytes for 8 rows; the k32 half h
//     starts 32 h bytes in), and announces the bytes on the slot's `full` mbarrier. (A first version
//     used four boxes of 16 bytes x 128 rows and the no-swizzle layout: exact, but no faster than r12:
//     34.4 us under ncu, long-scoreboard waits for the copies first among its stalls, device call 5 of
//     2026-12-02 at 121d6f1: 512 narrow row requests a stage);
//   * every warpgroup waits for `full`, computes, keeps one group in flight (wait_group 1) and then
//     releases the previous stage's slot with one arrival on its `empty` mbarrier (WGS arrivals a phase);
//   * thread 0 refills a slot only after its `empty` phase completed: no block barrier in the main loop,
//     and a warpgroup never waits for another one except through a slot.
// Stages are counted across the block's segments (the mbarriers' phases); the copies do not run across a
// segment boundary (each segment starts its own AHEAD stages).
// Its shared memory: TMA_BARRIER_BYTES (full[NST] and empty[NST]), the ring, V's copies: tma_smem_bytes
// (r09_wgmma_math.hpp, where host code states the needs from it too).

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ void tma_load_3d(u32 dst, const CUtensorMap* map, int x, int y, int z, u32 bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
          dst),
      "l"(reinterpret_cast<u64>(map)), "r"(x), "r"(y), "r"(z), "r"(bar)
      : "memory");
}
// r35: the A descriptor of the Hankel view H (no swizzle; LBO 256: 16 entries on along K, SBO 128: 8 entries on
// along M). `swap` (the bench's diagnostic, WgmmaCombineArgs::desc_swap): the two exchanged.
__device__ __forceinline__ u64 desc_hankel(u32 saddr, bool swap) {
  const u64 lbo = swap ? HANKEL_SBO : HANKEL_LBO, sbo = swap ? HANKEL_LBO : HANKEL_SBO;
  return static_cast<u64>((saddr & 0x3FFFFu) >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32);
}

// Matrix descriptor of a K-major tile written with the 64-byte swizzle (layout type 2 in bits 62-63):
// SBO = 512 bytes between 8-row groups, LBO unused for a swizzled K-major tile (1).
__device__ __forceinline__ u64 desc_sw64(u32 saddr) {
  return static_cast<u64>((saddr & 0x3FFFFu) >> 4) | (1ull << 16) | (static_cast<u64>(512 >> 4) << 32) | (2ull << 62);
}
#endif

// SKEW (r33): the product's rows are a.d_rows (the x with V[x] = 0) and the epilogue is skew_sums; the planes
// are skewed (the map is the same). Its windows lie after V's copies (skew_window_bytes more shared memory).
// HANKEL (r35, operand ss): wgmma's A operand is read by the tensor cores from H, circ(V) as a Hankel view
// (r09_wgmma_math.hpp "r35"), written once per block after V2 (no shifted copies): the main loop has no fragment
// loads, only a descriptor per k32 step.
// TRACE: the block's clocks into a.d_trace (a diagnostic; its own instantiation, so that the kernels the rungs time
// keep their registers: the trace's live clocks made the traced kernel spill).
template <u32 WGS, u32 BK, u32 NST, bool SKEW = false, bool HANKEL = false, bool TRACE = false, bool LEAN = false>
__global__ void __launch_bounds__(block_threads(WGS), 4 / WGS)
    wgmma_combine_tma_kernel(const __grid_constant__ CUtensorMap map, WgmmaCombineArgs a) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  static_assert(!(SKEW && HANKEL), "r33's rows are a list, not a run: no Hankel view");
  constexpr u32 THREADS = block_threads(WGS), HALVES = BK / 32;
  // AHEAD: stages copied ahead (HANKEL: with hankel_in_flight(NST) commit groups left in flight, r36).
  constexpr u32 TILE = tile_bytes(BN, BK), AHEAD = HANKEL ? hankel_ahead(NST) : NST - 2;
  static_assert(2 * NST * 8 + 1023 <= TMA_BARRIER_BYTES && AHEAD >= 1, "barriers and alignment fit, copies run ahead");
  static_assert(BK == 64 && TILE % 1024 == 0, "one 64-byte swizzled box a stage, slots 1 KB aligned");
  extern __shared__ __align__(16) unsigned char smem[];
  auto* full = reinterpret_cast<unsigned long long*>(smem);  // full[NST], then empty[NST]
  unsigned long long* empty = full + NST;
  const u32 base = cuda::smem_addr(smem), ring = (base + 2 * NST * 8 + 1023) & ~1023u;
  unsigned char* s_v = smem + (ring - base) + NST * TILE;
  const u32 K = a.k, kp = a.kp;
  u32* s_win = reinterpret_cast<u32*>(s_v + 3 * copy_stride(kp, 1) + v_bytes(kp));  // SKEW only
  unsigned char* s_h = s_v + v_bytes(kp);  // HANKEL only: H (16-byte aligned: the ring is 1 KB aligned, v_bytes 256)
  const u32 win_copies = skew_copies(kp), win_stride = skew_copy_stride(WGS, a.window_pad != 0);

  const u32 tid = threadIdx.x, wg = tid >> 7, warp = (tid >> 5) & 3, lane = tid & 31, g = lane >> 2, q = lane & 3;
  // The prologue reads nothing an earlier kernel of the solve writes (V was uploaded with the problem).
  auto prologue = [&] {
    if (tid == 0) {
      for (u32 i = 0; i < NST; ++i) {
        cuda::mbar_init(&full[i], 1);     // the copier's arrival, plus the bytes
        cuda::mbar_init(&empty[i], WGS);  // one arrival per warpgroup
      }
      cuda::fence_barrier_init();
    }
    if constexpr (SKEW)
      for (u32 i = tid; i < win_copies * win_stride; i += THREADS) s_win[i] = 0;
    // Each ends with a block barrier: the mbarriers are initialised (the windows zero) too.
    if (!HANKEL && a.d_vimage)  // r49
      load_v_image<THREADS>(a, s_v);
    else if (!HANKEL && a.lean_prologue)  // r48
      load_v_lean<THREADS>(a, s_v);
    else
      load_v<THREADS, !HANKEL>(a, s_v);
    if constexpr (HANKEL) {  // H[p] = V2[p .. p + 15], then made visible to the tensor cores (the async proxy)
      const u32* s_v32 = reinterpret_cast<const u32*>(s_v);
      for (u32 p = tid; p < hankel_rows(kp); p += THREADS) {
        u32 e[4];
        hankel_entry(s_v32, p, e);
        *reinterpret_cast<uint4*>(s_h + 16 * p) = make_uint4(e[0], e[1], e[2], e[3]);
      }
      fence_proxy_async();
      __syncthreads();
    }
  };
  // The trace (TRACE, a diagnostic): thread 0 writes its block's words as it goes (its own words only: plain stores
  // and read-modify-writes), so that no clock stays live in a register across the main loop.
  const bool tracing = TRACE && tid == 0 && blockIdx.x < a.trace_blocks;
  const auto tr = [&](u32 slot) -> u64& { return a.d_trace[static_cast<u64>(blockIdx.x) * COMBINE_TRACE_SLOTS + slot]; };
  if (tracing) {
    tr(TRACE_GT_ENTRY) = global_timer();
    tr(TRACE_CLK_ENTRY) = clock64();
    tr(TRACE_CLK_LOOPS) = tr(TRACE_CLK_EPILOGUES) = tr(TRACE_WHERE) = 0;
  }
  // r38 (a.dependent): launched as a programmatic dependent of the histograms, the prologue runs while they finish;
  // then wait for their end (and their writes) before d_max, the planes and the answers are read.
  // r69 (a.d_done): instead, thread 0 waits for the histograms' count of ended blocks (acquire loads; each block adds 1
  // after its writes), then orders the copies it issues after what it saw (proxy fence); the barrier hands that to the
  // block. A wait of 2^25 sleeps (~2 s or more) traps: histograms that never end are an error, not a hang.
  if (a.dependent) {
    prologue();
    if (tracing) tr(TRACE_CLK_READY) = clock64();
    if (a.d_done) {
      if (tid == 0) {
        u32 spins = 0;
        for (;;) {
          u32 done;
          asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(done) : "l"(a.d_done) : "memory");
          if (done >= a.done_target) break;
          __nanosleep(32);
          if (++spins == (1u << 25)) __trap();
        }
        asm volatile("fence.proxy.async.global;" ::: "memory");
      }
      __syncthreads();
    } else {
      asm volatile("griddepcontrol.wait;" ::: "memory");
    }
    if (tracing) tr(TRACE_CLK_GO) = clock64();
  }
  // r69: the combine's last block to end sets both counts back to zero for the next solve (which starts after this
  // kernel ends). Thread 0 only: it passed its block's wait before it counts the block as ended.
  const auto finish = [&] {
    if (!a.d_done || tid != 0) return;
    __threadfence();
    if (atomicAdd(a.d_done + 1, 1u) == gridDim.x - 1) {
      a.d_done[0] = 0;
      a.d_done[1] = 0;
    }
  };
  const int planes = planes_to_run(a.planes, a.d_max != nullptr, a.d_max ? *a.d_max : 0, a.low_bits);
  const Units un = units_rows(SKEW ? a.rows : K, K, planes, WGS, BK);
  const u32 sw = static_cast<u32>(a.segment_weight);  // r46: the split weighs each segment
  // r51, r52: the warpgroups past the rows skip their stages, and the split weighs the last row tile's stages lighter
  const bool skip_idle = SKEW && a.skip_idle != 0;
  const u32 discount = skip_idle ? static_cast<u32>(a.idle_discount) : 0u;
  // r54 (LEAN: a.lean_split, launched when range_fits32 holds): thread 0 alone finds the block's range in 32-bit
  // arithmetic and hands it to the others through shared memory, and each segment is found in 32-bit arithmetic too.
  // Otherwise every thread finds them itself with 64-bit divisions (r33 .. r53), on every block's critical path.
  u32 lean_begin = 0, lean_end = 0;
  if constexpr (LEAN) {
    __shared__ u32 s_range[2];  // 8 bytes of static shared memory, within the 1 KB alignment slack of the dynamic part
    if (tid == 0) {
      s_range[0] = block_begin32(un, a.rows, WGS, blockIdx.x, gridDim.x, sw, discount);
      s_range[1] = block_begin32(un, a.rows, WGS, blockIdx.x + 1, gridDim.x, sw, discount);
    }
    __syncthreads();
    lean_begin = s_range[0];
    lean_end = s_range[1];
  }
  const u64 u_begin = LEAN       ? u64{lean_begin}
                      : discount ? block_begin_light(un, a.rows, WGS, blockIdx.x, gridDim.x, sw, discount)
                                 : block_begin_weighted(un, blockIdx.x, gridDim.x, sw),
            u_end = LEAN       ? u64{lean_end}
                    : discount ? block_begin_light(un, a.rows, WGS, blockIdx.x + 1, gridDim.x, sw, discount)
                               : block_begin_weighted(un, blockIdx.x + 1, gridDim.x, sw);
  const auto trace_end = [&] {
    if (!tracing) return;
    tr(TRACE_CLK_END) = clock64();
    tr(TRACE_GT_END) = global_timer();
    tr(TRACE_WHERE) += static_cast<u64>(sm_id()) | (u_end - u_begin) << 32;
  };
  if (u_begin >= u_end) {  // the whole block
    if (tracing && !a.dependent) tr(TRACE_CLK_READY) = tr(TRACE_CLK_GO) = clock64();
    finish();
    trace_end();
    return;
  }
  if (!a.dependent) {
    prologue();
    if (tracing) tr(TRACE_CLK_READY) = tr(TRACE_CLK_GO) = clock64();
  }
  const u32 h_base = cuda::smem_addr(s_h), h_step = BK % K;  // HANKEL only
  const bool h_swap = a.desc_swap != 0;
  // HANKEL with debug 2 (the bench's diagnostic only: answers wrong by design): no copies and no waits for them
  // after the prologue - the tensor cores multiply whatever the slots hold.
  const bool noloads = HANKEL && a.debug == 2;
  const u32* my_copy = reinterpret_cast<const u32*>(s_v + (g & 3) * copy_stride(kp, a.pad_copies));

  // Stage st of segment sg (running index r) into its slot; thread 0 only.
  auto copy_segment_stage = [&](const Segment& sg, u32 st, u32 r) {
    const u32 slot = r % NST;
    if (r >= NST) cuda::mbar_wait(&empty[slot], (r / NST - 1) & 1);  // the slot's last use released
    cuda::mbar_expect_tx(&full[slot], TILE);
    tma_load_3d(ring + slot * TILE, &map, static_cast<int>((sg.s0 + st) * BK), static_cast<int>(sg.a0),
                static_cast<int>(sg.plane), cuda::smem_addr(&full[slot]));
  };
  // r56 .. r59 (LEAN only): fewer stages copied ahead, so that warpgroup 0, whose thread 0 issues the copies, is not held
  // to one stage ahead of the slowest warpgroup (check_wgmma_combine_args: 1 .. NST - 2).
  const u32 ahead = LEAN && a.ahead > 0 ? static_cast<u32>(a.ahead) : AHEAD;
  const bool early = a.early_copies != 0 && !noloads;  // r44
  u32 run = 0;  // stages of this block before the segment (the mbarriers' phases count them)
  bool primed = false;  // r44: this segment's first stages were copied before the previous segment's epilogue
  u32 next_lo = 0, next_hi = 0;  // r45: this segment's rows, loaded before the previous segment's epilogue
  bool rows_ready = false;
  for (u64 u = u_begin; u < u_end;) {
    const Segment sg = LEAN ? segment_at32(un, static_cast<u32>(u), static_cast<u32>(u_end)) : segment_at(un, u, u_end);
    u += sg.nsteps;
    if (tracing) {
      tr(TRACE_CLK_LOOPS) -= clock64();  // + the loop's end below
      tr(TRACE_WHERE) += 1u << 16;       // a segment
    }
    const u32 plane = sg.plane, s0 = sg.s0, nsteps = sg.nsteps, k0 = sg.k0, a0 = sg.a0;
    auto copy_stage = [&](u32 st, u32 r) { copy_segment_stage(sg, st, r); };
    if (tid == 0 && !noloads && !primed)
      for (u32 st = 0; st < ahead && st < nsteps; ++st) copy_stage(st, run + st);
    __syncwarp();

    u32 d[64];
#pragma unroll
    for (int j = 0; j < 64; ++j) d[j] = 0;
    const u32 row_lo = k0 + 64 * wg + 16 * warp + g;
    // SKEW: this thread's rows are x_lo = d_rows[row_lo] and x_hi = d_rows[row_lo + 8] (0 past the list: their sums
    // are dropped), each from the copy of V2 for its own x & 3.
    u32 x_lo = 0, x_hi = 0;
    const u32 *copy_lo = my_copy, *copy_hi = my_copy;
    [[maybe_unused]] u32 span_base = 0, span_last = 0;  // r45: the tile's first and last x, for the epilogue
    if constexpr (SKEW) {
      x_lo = rows_ready ? next_lo : row_lo < a.rows ? __ldg(a.d_rows + row_lo) : 0u;
      x_hi = rows_ready ? next_hi : row_lo + 8 < a.rows ? __ldg(a.d_rows + row_lo + 8) : 0u;
      if (a.early_rows) {
        span_base = __ldg(a.d_rows + k0);
        span_last = __ldg(a.d_rows + min(k0 + un.bm, a.rows) - 1);
      }
      copy_lo = reinterpret_cast<const u32*>(s_v + (x_lo & 3) * copy_stride(kp, a.pad_copies));
      copy_hi = reinterpret_cast<const u32*>(s_v + (x_hi & 3) * copy_stride(kp, a.pad_copies));
    }
    // HANKEL: H's entry for this warpgroup's rows and the stage's first byte, advanced stage by stage.
    u32 t = HANKEL ? hankel_start(k0 + 64 * wg, s0 * BK, K) : 0u;
    auto stage = [&](u32 it, u32 (&fr)[HALVES][4]) {
      const u32 r = run + it, slot = r % NST;
      if (tid == 0 && it + ahead < nsteps) copy_stage(it + ahead, r + ahead);
      __syncwarp();
      cuda::mbar_wait(&full[slot], (r / NST) & 1);  // the stage's bytes have landed
      const u32 b0 = (s0 + it) * BK;
      const auto desc_of = [&](u32 h) { return desc_sw64(ring + slot * TILE + 32 * h); };
      if constexpr (SKEW)
        rs_stage_mma_with(
            d, fr, [&](u32 h, u32 (&f)[4]) { a_fragment_skew(copy_lo, x_lo, copy_hi, x_hi, b0 + 32 * h, q, f); }, desc_of);
      else
        rs_stage_mma(d, fr, my_copy, row_lo, b0, q, desc_of);
      wgmma_commit();
      wgmma_wait1();  // the previous stage's group has completed: release its slot
      if (it > 0 && (tid & 127) == 0) cuda::mbar_arrive(&empty[(r - 1) % NST]);
    };
    if constexpr (HANKEL) {  // r35, r36 (not `stage`): no fragments; a commit group a stage, W groups in flight, a stage's
      // slot released once its group is done (the copies AHEAD = NST - W - 1 stages ahead never wait on a slot this
      // warp has still to release). Every stage runs the same fence / wgmmas / commit / wait: a fence or commit on a
      // divergent path makes ptxas serialize the wgmmas (C7520; session 14's call 2 measured it: +35 %).
      (void)stage;
      constexpr u32 W = hankel_in_flight(NST);
      for (u32 it = 0; it < nsteps; ++it) {
        const u32 r = run + it, slot = r % NST;
        if (tid == 0 && it + AHEAD < nsteps && !noloads) copy_stage(it + AHEAD, r + AHEAD);
        __syncwarp();
        if (!noloads) cuda::mbar_wait(&full[slot], (r / NST) & 1);  // the stage's bytes have landed
        wgmma_fence();
#pragma unroll
        for (u32 h = 0; h < HALVES; ++h)
          wgmma_ss(d, desc_hankel(h_base + 16 * (t + 32 * h), h_swap), desc_sw64(ring + slot * TILE + 32 * h));
        t = hankel_advance(t, h_step, K);
        wgmma_commit();
        wgmma_wait<W>();  // stage it - W's group has completed: release its slot
        if (it >= W && (tid & 127) == 0) cuda::mbar_arrive(&empty[(r - W) % NST]);
      }
      wgmma_wait0();
      if ((tid & 127) == 0)
        for (u32 j = nsteps > W ? nsteps - W : 0u; j < nsteps; ++j) cuda::mbar_arrive(&empty[(run + j) % NST]);
    } else if (skip_idle && k0 + 64 * wg >= a.rows) {  // r51: no row of this warpgroup is in the list (x = 0, dropped)
      // No fragments and no wgmma: the tensor cores serve the others. It still waits for each stage's bytes before it
      // releases the slot, so that its arrivals stay in the slot's phase (one a stage, as the others' are). Never
      // warpgroup 0 (a tile's first row is in the list), whose thread 0 issues the copies.
      for (u32 it = 0; it < nsteps; ++it) {
        const u32 r = run + it, slot = r % NST;
        cuda::mbar_wait(&full[slot], (r / NST) & 1);
        if ((tid & 127) == 0) cuda::mbar_arrive(&empty[slot]);
      }
    } else {
      u32 fr_a[HALVES][4], fr_b[HALVES][4];
      u32 it = 0;
      for (; it + 1 < nsteps; it += 2) {
        stage(it, fr_a);
        stage(it + 1, fr_b);
      }
      if (it < nsteps) stage(it, fr_a);
      wgmma_wait0();
      if ((tid & 127) == 0) cuda::mbar_arrive(&empty[(run + nsteps - 1) % NST]);
    }
    run += nsteps;
    // r44: the next segment's first stages copied now, so that their latency hides behind this epilogue. Their slots
    // were released by every warpgroup at the end of its loop above (thread 0 waits at `empty` for the others', which
    // come before the epilogue's first block barrier).
    primed = false;
    if (early && u < u_end) {
      const Segment nx = segment_at(un, u, u_end);
      if (tid == 0)
        for (u32 st = 0; st < ahead && st < nx.nsteps; ++st) copy_segment_stage(nx, st, run + st);
      __syncwarp();
      primed = true;
    }
    rows_ready = false;
    if constexpr (SKEW)
      if (a.early_rows && u < u_end) {  // r45: the next segment's rows now, their latency behind the epilogue
        const u32 nrow = segment_at(un, u, u_end).k0 + 64 * wg + 16 * warp + g;
        next_lo = nrow < a.rows ? __ldg(a.d_rows + nrow) : 0u;
        next_hi = nrow + 8 < a.rows ? __ldg(a.d_rows + nrow + 8) : 0u;
        rows_ready = true;
      }
    if (tracing) {
      const u64 now = clock64();
      tr(TRACE_CLK_LOOPS) += now;
      tr(TRACE_CLK_EPILOGUES) -= now;  // + the epilogue's end below
    }
    if constexpr (SKEW)
      skew_sums<THREADS, skew_window(WGS)>(a, d, s_win, win_copies, win_stride, plane, k0, un.bm, a0, row_lo, x_lo, x_hi, q,
                                                a.early_rows != 0, span_base, span_last);
    else
      masked_row_sums(a, d, s_v, plane, k0, a0, row_lo, wg, warp, g, q);
    if (tracing) tr(TRACE_CLK_EPILOGUES) += clock64();
  }
  finish();
  trace_end();
#elif defined(__CUDA_ARCH__)
  (void)map;
  (void)a;
  __trap();  // no sm_90a code in this pass
#else
  (void)map;
  (void)a;
#endif
}

// Blocks of one wave for this kernel, cached per device and shape (the occupancy query is not free).
template <auto KERNEL>
u32 wave_blocks(u32 threads, std::size_t smem, u32 kp) {
  // One per kernel (a function template's static) and device: the shared memory it was asked for (it sets the
  // blocks a SM: r35's grows with kp from kp = 2304 on) in the high half, the wave in the low half.
  static std::atomic<u64> cached[64] = {};
  (void)kp;
  int dev = 0;
  JOSEKI_CUDA_CHECK(cudaGetDevice(&dev));
  if (dev < 0 || dev >= 64) dev = 0;
  const u64 held = cached[dev].load(std::memory_order_relaxed);
  u32 v = (held >> 32) == smem ? static_cast<u32>(held) : 0u;
  if (v == 0) {
    int per_sm = 0, sms = 0;
    JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, KERNEL, static_cast<int>(threads), smem));
    JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    v = static_cast<u32>((per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1));
    cached[dev].store((static_cast<u64>(smem) << 32) | v, std::memory_order_relaxed);
  }
  return v;
}

// The TMA kernel's dynamic shared memory (r33's windows beside it with SKEW; r35's H instead of V's copies with
// HANKEL).
template <bool SKEW, bool HANKEL = false>
std::size_t tma_kernel_smem(u32 kp, u32 nst, u32 wgs) {
  if constexpr (HANKEL) return tma_hankel_smem_bytes(kp, nst);
  return tma_smem_bytes(kp, nst, 64) + (SKEW ? skew_window_bytes(kp, wgs) : 0);
}

template <u32 WGS, u32 NST, bool SKEW = false, bool HANKEL = false, bool TRACE = false, bool LEAN = false>
void set_tma_smem_limit(u32 kp) {
  constexpr auto kernel = wgmma_combine_tma_kernel<WGS, 64, NST, SKEW, HANKEL, TRACE, LEAN>;
  const std::size_t smem = tma_kernel_smem<SKEW, HANKEL>(kp, NST, WGS);
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  (void)wave_blocks<kernel>(block_threads(WGS), smem, kp);
}

// P's planes as a 3-D tensor of bytes {K columns, kp rows (r53: K), planes}: the boxes past column K (row K) read zeros.
CUtensorMap planes_map(const WgmmaCombineArgs& a) {
  std::string why;
  const cuda::TensorMapEncodeTiled encode = cuda::tensor_map_encoder(&why);
  if (!encode) throw RunError("r13 wgmma combine (tma): " + why);
  CUtensorMap map;
  std::memset(&map, 0, sizeof map);
  // r53 (edge_fast): rows past K out of the map, so the copies fill them with zeros (the epilogue adds them unchecked)
  const cuuint64_t dims[3] = {a.k, a.edge_fast ? a.k : a.kp, static_cast<cuuint64_t>(a.planes)};
  const cuuint64_t strides[2] = {a.kp, static_cast<cuuint64_t>(a.kp) * a.kp};  // bytes: a row, a plane
  const cuuint32_t box[3] = {64, BN, 1};  // one stage: 64 bytes of b x 128 rows
  const cuuint32_t elem_strides[3] = {1, 1, 1};
  const CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, const_cast<std::uint8_t*>(a.d_planes), dims, strides,
                            box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw RunError("r13 wgmma combine (tma): cuTensorMapEncodeTiled failed (CUresult " + std::to_string(r) + ")");
  return map;
}

template <u32 WGS, u32 NST, bool SKEW = false, bool HANKEL = false, bool TRACE = false, bool LEAN = false>
void launch_tma_nst(const WgmmaCombineArgs& a, cudaStream_t s) {
  const Units most = units_rows(SKEW ? a.rows : a.k, a.k, a.planes, WGS, 64);  // at most a.planes planes
  const u64 total = most.total;
  if (total == 0) return;  // r33 with no row (V all ones): nothing to add
  const CUtensorMap map = planes_map(a);
  constexpr auto kernel = wgmma_combine_tma_kernel<WGS, 64, NST, SKEW, HANKEL, TRACE, LEAN>;
  const std::size_t smem = tma_kernel_smem<SKEW, HANKEL>(a.kp, NST, WGS);
  const u32 wave = wave_blocks<kernel>(block_threads(WGS), smem, a.kp);
  const u32 blocks = static_cast<u32>(total < wave ? total : wave);
  if constexpr (LEAN) {  // r54's 32-bit split needs every product of the cost line below 2^32
    if (!range_fits32(most, static_cast<u32>(a.segment_weight), blocks))
      return launch_tma_nst<WGS, NST, SKEW, HANKEL, TRACE, false>(a, s);
  }
  if (a.dependent) {  // r38: a programmatic dependent of the previous kernel (the kernel waits for it: griddepcontrol)
    cuda::launch_programmatic(kernel, dim3(blocks), dim3(block_threads(WGS)), smem, s, true, map, a);
  } else {
    kernel<<<blocks, block_threads(WGS), smem, s>>>(map, a);
    JOSEKI_CUDA_CHECK_LAUNCH();
  }
}
template <u32 WGS>
void launch_tma(const WgmmaCombineArgs& a, bool ss, cudaStream_t s) {
  if (a.d_rows) {  // r33 (check_wgmma_combine_args: 8 stages; the trace: 4 warpgroups only)
    if constexpr (WGS == 4) {
      if (a.lean_split) {  // r54 (launch_tma_nst falls back to r53's kernel, which ignores `ahead`, when the split does
                           // not fit 32 bits)
        if (a.d_trace) return launch_tma_nst<WGS, TMA_DEEPER_STAGES, true, false, true, true>(a, s);
        return launch_tma_nst<WGS, TMA_DEEPER_STAGES, true, false, false, true>(a, s);
      }
      if (a.d_trace) return launch_tma_nst<WGS, TMA_DEEPER_STAGES, true, false, true>(a, s);
    }
    return launch_tma_nst<WGS, TMA_DEEPER_STAGES, true>(a, s);
  }
  if (ss) {  // r35 (8 slots), r36 (14: groups of 4 stages), the bench's 10 (groups of 2); checked: kp in reach
    if (a.stages == 14) return launch_tma_nst<WGS, 14, false, true>(a, s);
    if (a.stages == 10) return launch_tma_nst<WGS, 10, false, true>(a, s);
    return launch_tma_nst<WGS, TMA_DEEPER_STAGES, false, true>(a, s);
  }
  a.stages == static_cast<int>(TMA_DEEPER_STAGES) ? launch_tma_nst<WGS, TMA_DEEPER_STAGES>(a, s)
                                                  : launch_tma_nst<WGS, DEEP_STAGES>(a, s);
}

template <bool SS, u32 WGS, u32 BK, bool INFLIGHT, u32 NST = STAGES>
void launch_shape(const WgmmaCombineArgs& a, cudaStream_t s) {
  const u64 total = units(a.k, a.planes, WGS, BK).total;  // the planes the maximum needs may be fewer: same grid
  const u32 wave = wave_blocks<wgmma_combine_kernel<SS, WGS, BK, INFLIGHT, NST>>(block_threads(WGS),
                                                                             smem_bytes(a.kp, SS, WGS, BK, NST), a.kp);
  const u32 blocks = static_cast<u32>(total < wave ? total : wave);
  wgmma_combine_kernel<SS, WGS, BK, INFLIGHT, NST>
      <<<blocks, block_threads(WGS), smem_bytes(a.kp, SS, WGS, BK, NST), s>>>(a);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

template <bool SS, u32 WGS, u32 BK>
void launch_bk(const WgmmaCombineArgs& a, cudaStream_t s) {
  if constexpr (!SS) {
    if (a.stages == static_cast<int>(DEEP_STAGES)) return launch_shape<SS, WGS, BK, true, DEEP_STAGES>(a, s);
  }
  a.inflight ? launch_shape<SS, WGS, BK, true>(a, s) : launch_shape<SS, WGS, BK, false>(a, s);
}

template <bool SS, u32 WGS>
void launch_wgs(const WgmmaCombineArgs& a, cudaStream_t s) {
  if (a.stage_bytes == 128)
    launch_bk<SS, WGS, 128>(a, s);
  else
    launch_bk<SS, WGS, 64>(a, s);
}

// The shared-memory limit, and the wave's size asked for now (not first during a graph capture).
template <bool SS, u32 WGS, u32 BK, bool INFLIGHT, u32 NST = STAGES>
void set_smem_limit_of(u32 kp) {
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(wgmma_combine_kernel<SS, WGS, BK, INFLIGHT, NST>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(smem_bytes(kp, SS, WGS, BK, NST))));
  (void)wave_blocks<wgmma_combine_kernel<SS, WGS, BK, INFLIGHT, NST>>(block_threads(WGS), smem_bytes(kp, SS, WGS, BK, NST),
                                                                     kp);
}
template <bool SS, u32 WGS, u32 BK>
void set_smem_limit(u32 kp) {
  set_smem_limit_of<SS, WGS, BK, false>(kp);
  set_smem_limit_of<SS, WGS, BK, true>(kp);
  if constexpr (!SS) set_smem_limit_of<SS, WGS, BK, true, DEEP_STAGES>(kp);
}

}  // namespace

bool wgmma_combine_built() {
#if defined(JOSEKI_WGMMA_SM90A)
  return true;
#else
  return false;
#endif
}

void prepare_wgmma_combine(std::uint32_t kp) {
  set_tma_smem_limit<2, DEEP_STAGES>(kp);
  set_tma_smem_limit<4, DEEP_STAGES>(kp);
  set_tma_smem_limit<2, TMA_DEEPER_STAGES>(kp);
  set_tma_smem_limit<4, TMA_DEEPER_STAGES>(kp);
  set_tma_smem_limit<4, TMA_DEEPER_STAGES, true>(kp);
  set_tma_smem_limit<4, TMA_DEEPER_STAGES, true, false, true>(kp);  // the traced r33 kernel
  set_tma_smem_limit<4, TMA_DEEPER_STAGES, true, false, false, true>(kp);  // r54's
  set_tma_smem_limit<4, TMA_DEEPER_STAGES, true, false, true, true>(kp);   // r54's, traced
  set_tma_smem_limit<2, TMA_DEEPER_STAGES, true>(kp);
  // r35's H grows with kp: beyond each kernel's reach the launcher refuses the shape (a clear error)
  if (kp <= hankel_max_kp(TMA_DEEPER_STAGES)) {
    set_tma_smem_limit<4, TMA_DEEPER_STAGES, false, true>(kp);
    set_tma_smem_limit<2, TMA_DEEPER_STAGES, false, true>(kp);
  }
  if (kp <= hankel_max_kp(10)) {
    set_tma_smem_limit<4, 10, false, true>(kp);
    set_tma_smem_limit<2, 10, false, true>(kp);
  }
  if (kp <= hankel_max_kp(14)) {
    set_tma_smem_limit<4, 14, false, true>(kp);
    set_tma_smem_limit<2, 14, false, true>(kp);
  }
  set_smem_limit<false, 2, 64>(kp);
  set_smem_limit<true, 2, 64>(kp);
  set_smem_limit<false, 4, 64>(kp);
  set_smem_limit<true, 4, 64>(kp);
  set_smem_limit<false, 2, 128>(kp);
  set_smem_limit<true, 2, 128>(kp);
  set_smem_limit<false, 4, 128>(kp);
  set_smem_limit<true, 4, 128>(kp);
}

void launch_wgmma_combine(const WgmmaCombineArgs& a, WgmmaOperand op, cudaStream_t s) {
  if (!wgmma_combine_built())
    throw std::runtime_error("r09 wgmma combine: this build has no sm_90a code (90 not among its CUDA architectures)");
  check_wgmma_combine_args(a, op);  // std::invalid_argument naming the bad knob (r09_wgmma_combine.cpp)
  const bool ss = op == WgmmaOperand::Ss;
  if (a.tma) {
    a.warpgroups == 4 ? launch_tma<4>(a, ss, s) : launch_tma<2>(a, ss, s);
    return;
  }
  if (a.warpgroups == 4)
    ss ? launch_wgs<true, 4>(a, s) : launch_wgs<false, 4>(a, s);
  else
    ss ? launch_wgs<true, 2>(a, s) : launch_wgs<false, 2>(a, s);
}

}  // namespace joseki::abc471g::pairs
