// Rung 2 of the gpu-pairs ladder: the same count (count.cu), combined as a matrix product on
// the tensor cores with exact integer arithmetic.
//
// What changed from r01: the combine is no longer O(K^2 log K) NTT butterflies on the integer
// ALUs but the O(K^3) product G = C * circ(V) on mma.sync m16n8k32 (u8 x u8 -> s32), reduced in
// its epilogue: answer[k] += sum_a (1 - V[(a+k) mod K]) * G[a][k]. G is never stored.
//   * C = sum_j 2^(8j) C_j with byte planes C_j in [0, 255] (a slicing pass, which also takes the
//     table's maximum; planes above it exit at once, so a max case with small counts needs one).
//   * circ(V)[b][k] = V[(b+k) mod K] is 0/1, built on the fly from a bank of 4 pre-shifted copies
//     of V in shared memory (no K x K matrix in memory).
//   * Exact: one plane's dot product is at most 255 * Kp < 2^31 (Kp <= 16384), the warp's
//     row-sum at most 64 * 255 * Kp < 2^31, and planes are recombined in 64-bit atomics.
// Prediction: the max case (K = 2300, Kp = 2304) is 2.99 M mma per plane, ~10-25 us on the
// H200's tensor cores through mma.sync (wgmma would be faster but needs sm_90a), against
// ~0.3 ms for the NTT: faster by ~10x for small N; for large N both are hidden by the count.
// Preconditions: K <= 16384 (bank + V copy in shared memory, table in device memory).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 201.76 us at the max case, 5.77x r01,
// 214.91x r00; count 80.29 us (at the random-atomic ceiling) + combine 126.32 us. The ~10-25 us
// combine prediction was wrong by 5-12x (slicing vs mma not split in the records); ~10x over the
// NTT held roughly (8.7x: the NTT combine took 1.094 ms, not ~0.3 ms). Tile sweep: 64x128
// 190.40 us beats the default 128x128 (204.22 us).
// Goal 0.08 ms not met: the count alone is 80.29 us.
#include <cuda_runtime.h>

#include "backend/cuda/arch.cuh"
#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"

namespace joseki::abc471g::pairs {

namespace {

// ---- slicing ------------------------------------------------------------------------------
template <class T>
__global__ void slice_table_kernel(SliceArgs a) {
  const T* __restrict__ table = static_cast<const T*>(a.d_table);
  const std::size_t plane = static_cast<std::size_t>(a.kp) * a.kp;
  const std::size_t n4 = plane / 4;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t tid = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  std::uint64_t local_max = 0;
  for (std::size_t i = tid; i < n4; i += stride) {
    std::uint64_t c[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      c[e] = table[4 * i + e];
      local_max = c[e] > local_max ? c[e] : local_max;
    }
    for (int j = 0; j < a.slices; ++j) {
      const int sh = plane_shift(j, a.low_bits);
      const std::uint32_t mask = j == 0 ? (1u << a.low_bits) - 1 : 255u;
      const std::uint32_t w = static_cast<std::uint32_t>((c[0] >> sh) & mask) |
                              static_cast<std::uint32_t>((c[1] >> sh) & mask) << 8 |
                              static_cast<std::uint32_t>((c[2] >> sh) & mask) << 16 |
                              static_cast<std::uint32_t>((c[3] >> sh) & mask) << 24;
      if (a.skew) {  // r33: one byte a cell at its skewed column (rows and columns >= K are not read)
        const std::uint32_t row = static_cast<std::uint32_t>(4 * i / a.kp), col = static_cast<std::uint32_t>(4 * i - std::size_t{row} * a.kp);
        std::uint8_t* r = a.d_slices + j * plane + std::size_t{row} * a.kp;
        for (std::uint32_t e = 0; e < 4 && row < a.k; ++e)
          if (col + e < a.k) r[skew_col(row, col + e, a.k)] = static_cast<std::uint8_t>(w >> (8 * e));
      } else {
        reinterpret_cast<std::uint32_t*>(a.d_slices + j * plane)[i] = w;
      }
    }
  }
  for (int off = 16; off; off >>= 1) {
    const std::uint64_t o = __shfl_xor_sync(0xFFFFFFFFu, local_max, off);
    local_max = o > local_max ? o : local_max;
  }
  if ((threadIdx.x & 31) == 0 && local_max)
    atomicMax(reinterpret_cast<unsigned long long*>(a.d_max), static_cast<unsigned long long>(local_max));
  if (tid < a.k) {  // the first term of every answer: a vowel at A_1 starts a syllable
    const std::uint32_t idx = (a.a0 + static_cast<std::uint32_t>(tid)) % a.k;
    a.d_answer[tid] = a.d_v[idx];
  }
}

// ---- the product ----------------------------------------------------------------------------
__device__ __forceinline__ void mma_u8(int (&c)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
#if JOSEKI_ARCH_AT_LEAST(800)
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  JOSEKI_ARCH_UNSUPPORTED();
#endif
}

std::size_t tc_smem_bytes(std::uint32_t kp) { return tc_combine_smem_bytes(kp); }

// Block tile BM x BN = (WARPS_M * FM * 16) rows a x (WARPS_N * FN * 8) shifts k; each warp owns
// FM x FN fragments and walks the whole b range in steps of 32.
template <int WARPS_M, int WARPS_N, int FM, int FN>
__global__ void __launch_bounds__(WARPS_M * WARPS_N * 32) tc_combine_kernel(TcArgs a) {
  constexpr int THREADS = WARPS_M * WARPS_N * 32;
  constexpr int BM = WARPS_M * FM * 16, BN = WARPS_N * FN * 8;
#if !JOSEKI_ARCH_AT_LEAST(800)
  JOSEKI_ARCH_UNSUPPORTED();  // mma.sync m16n8k32 is sm_80+ (Needs: Feature::Int8MmaK32)
#else
  const int slice = blockIdx.z + a.first_plane;
  if (slice >= planes_for(*a.d_max, a.low_bits)) return;  // uniform over the block: this plane is all zeros

  extern __shared__ std::uint32_t smem[];
  const std::uint32_t bank_words = tc_bank_words(a.kp);
  std::uint32_t* bank = smem;
  std::uint8_t* v2 = reinterpret_cast<std::uint8_t*>(smem + 4 * bank_words);
  const std::uint32_t v2_len = 2 * a.kp + 32;
  for (std::uint32_t i = threadIdx.x; i < v2_len; i += THREADS) v2[i] = a.d_v[i % a.k];
  for (std::uint32_t w = threadIdx.x; w < 4 * bank_words; w += THREADS) {
    const std::uint32_t r = w / bank_words, o = 4 * (w % bank_words) + r;  // byte offset of the word
    bank[w] = static_cast<std::uint32_t>(a.d_v[o % a.k]) | static_cast<std::uint32_t>(a.d_v[(o + 1) % a.k]) << 8 |
              static_cast<std::uint32_t>(a.d_v[(o + 2) % a.k]) << 16 |
              static_cast<std::uint32_t>(a.d_v[(o + 3) % a.k]) << 24;
  }
  __syncthreads();

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int wm = warp / WARPS_N, wn = warp % WARPS_N;
  // Rows of tiles: one per block, or several when the grid is short (the upper planes of the GEMM
  // combiner, usually all zero: fewer blocks to launch only to exit).
  for (std::uint32_t by = blockIdx.y; by < a.kp / BM; by += gridDim.y) {
    const std::uint32_t a_base = by * BM + wm * FM * 16;
    const std::uint32_t k_base = blockIdx.x * BN + wn * FN * 8;
    const std::uint8_t* plane = a.d_slices + static_cast<std::size_t>(slice) * a.kp * a.kp;
    // Each lane reads 8 contiguous bytes of rows g and g + 8 (A registers {0,2} and {1,3}).
    const std::uint8_t* row_ptr[FM][2];
#pragma unroll
    for (int mf = 0; mf < FM; ++mf)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        row_ptr[mf][h] = plane + static_cast<std::size_t>(a_base + mf * 16 + tc_a_row(lane, h)) * a.kp +
                         tc_a_physical_k(lane, 0, 0);

    int acc[FM][FN][4];
#pragma unroll
    for (int mf = 0; mf < FM; ++mf)
#pragma unroll
      for (int nf = 0; nf < FN; ++nf)
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[mf][nf][i] = 0;

#pragma unroll 2
    for (std::uint32_t b0 = 0; b0 < a.kp; b0 += 32) {
      std::uint32_t af[FM][4];
#pragma unroll
      for (int mf = 0; mf < FM; ++mf) {
        const uint2 lo = *reinterpret_cast<const uint2*>(row_ptr[mf][0] + b0);  // row g
        const uint2 hi = *reinterpret_cast<const uint2*>(row_ptr[mf][1] + b0);  // row g + 8
        af[mf][0] = lo.x;
        af[mf][2] = lo.y;
        af[mf][1] = hi.x;
        af[mf][3] = hi.y;
      }
      std::uint32_t bf[FN][2];
#pragma unroll
      for (int nf = 0; nf < FN; ++nf) {
        const std::uint32_t col = k_base + nf * 8 + tc_b_col(lane);
        bf[nf][0] = bank[tc_b_word(bank_words, lane, b0, col, 0)];
        bf[nf][1] = bank[tc_b_word(bank_words, lane, b0, col, 1)];
      }
#pragma unroll
      for (int mf = 0; mf < FM; ++mf)
#pragma unroll
        for (int nf = 0; nf < FN; ++nf) mma_u8(acc[mf][nf], af[mf], bf[nf]);
    }

    // Epilogue: mask by (1 - V[a+k]), sum the warp's rows for each shift, one 64-bit atomic per shift.
#pragma unroll
    for (int nf = 0; nf < FN; ++nf)
#pragma unroll
      for (int c = 0; c < 2; ++c) {
        const std::uint32_t k = k_base + nf * 8 + tc_c_col(lane, c);
        int s = 0;
#pragma unroll
        for (int mf = 0; mf < FM; ++mf)
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const std::uint32_t row = a_base + mf * 16 + tc_c_row(lane, 2 * h);
            s += v2[row + k] ? 0 : acc[mf][nf][2 * h + c];
          }
        s += __shfl_xor_sync(0xFFFFFFFFu, s, 4);
        s += __shfl_xor_sync(0xFFFFFFFFu, s, 8);
        s += __shfl_xor_sync(0xFFFFFFFFu, s, 16);
        if (tc_group(lane) == 0 && k < a.k && s)
          atomicAdd(reinterpret_cast<unsigned long long*>(a.d_answer + k),
                    static_cast<unsigned long long>(static_cast<unsigned>(s)) << plane_shift(slice, a.low_bits));
      }
  }
#endif
}

template <int WARPS_M, int WARPS_N, int FM, int FN>
struct TcConfig {
  static constexpr int THREADS = WARPS_M * WARPS_N * 32;
  static constexpr int BM = WARPS_M * FM * 16, BN = WARPS_N * FN * 8;
  static std::size_t prepare(std::uint32_t kp) {
    const std::size_t bytes = tc_smem_bytes(kp);
    if (bytes > 48 * 1024)
      JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(tc_combine_kernel<WARPS_M, WARPS_N, FM, FN>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
    return bytes;
  }
  static void launch(const TcArgs& a, cudaStream_t s) {
    if (a.slices <= a.first_plane) return;
    const dim3 grid(a.kp / BN, a.first_plane > 0 ? (a.kp / BM + 3) / 4 : a.kp / BM, a.slices - a.first_plane);
    tc_combine_kernel<WARPS_M, WARPS_N, FM, FN><<<grid, THREADS, tc_smem_bytes(a.kp), s>>>(a);
    JOSEKI_CUDA_CHECK_LAUNCH();
  }
};

using Tile128x128 = TcConfig<2, 4, 4, 4>;  // 8 warps of 64 x 32
using Tile64x128 = TcConfig<2, 4, 2, 4>;   // 8 warps of 32 x 32
using Tile64x64 = TcConfig<2, 2, 2, 4>;    // 4 warps of 32 x 32

}  // namespace

void launch_slice_table(const SliceArgs& a, cudaStream_t s) {
  const std::size_t n4 = static_cast<std::size_t>(a.kp) * a.kp / 4;
  std::size_t blocks = (n4 + 255) / 256;
  const std::size_t min_blocks = (a.k + 255) / 256;  // the first-term writes need k threads
  if (blocks > 2048) blocks = 2048;
  if (blocks < min_blocks) blocks = min_blocks;
  if (a.wide)
    slice_table_kernel<std::uint64_t><<<static_cast<unsigned>(blocks), 256, 0, s>>>(a);
  else
    slice_table_kernel<std::uint32_t><<<static_cast<unsigned>(blocks), 256, 0, s>>>(a);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

std::size_t prepare_tc_combine(TcTile tile, std::uint32_t kp) {
  switch (tile) {
    case TcTile::T128x128: return Tile128x128::prepare(kp);
    case TcTile::T64x128: return Tile64x128::prepare(kp);
    case TcTile::T64x64: return Tile64x64::prepare(kp);
  }
  return 0;
}

void launch_tc_combine(const TcArgs& a, TcTile tile, cudaStream_t s) {
  switch (tile) {
    case TcTile::T128x128: Tile128x128::launch(a, s); break;
    case TcTile::T64x128: Tile64x128::launch(a, s); break;
    case TcTile::T64x64: Tile64x64::launch(a, s); break;
  }
}

}  // namespace joseki::abc471g::pairs
