// Small kernels several rungs share: the per-k reduction of partial counts and the V tables.
// Their time is part of every rung that uses them (they run inside the timed launch).
#include "experiments/abc471g/gpu_direct/common.cuh"
#include "experiments/abc471g/gpu_direct/shared_kernels.hpp"

namespace joseki::abc471g::JK_GPU_NS {

namespace shared {

constexpr int RED_X = 32, RED_Y = 8;  // 32 shifts x 8 chunk slices per block

// Block (32, 8): threadIdx.x picks the shift, threadIdx.y a slice of the chunks; the 8 slice
// sums meet in shared memory and one thread per shift writes the answer.
__global__ void reduce_partials_kernel(const u32* __restrict__ partial, u64 chunks, u32 k, u32* __restrict__ answer) {
  __shared__ u32 s_sum[RED_Y][RED_X + 1];
  const u32 kk = blockIdx.x * RED_X + threadIdx.x;
  u32 sum = 0;
  if (kk < k)
    for (u64 c = threadIdx.y; c < chunks; c += RED_Y) sum += partial[c * k + kk];
  s_sum[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();  // all 8 slice sums are in shared memory
  if (threadIdx.y == 0 && kk < k) {
    u32 total = 0;
    for (int y = 0; y < RED_Y; ++y) total += s_sum[y][threadIdx.x];
    answer[kk] = total;
  }
}

__global__ void build_vbits_kernel(const u8* __restrict__ v, u32 k, u32 words, u32* __restrict__ bits) {
  for (u32 q = blockIdx.x * blockDim.x + threadIdx.x; q < words; q += gridDim.x * blockDim.x) {
    u32 word = 0;
    u32 j = static_cast<u32>((32ull * q) % k);
    for (int b = 0; b < 32; ++b) {
      word |= static_cast<u32>(v[j] & 1u) << b;
      if (++j == k) j = 0;
    }
    bits[q] = word;
  }
}

__global__ void build_bank_kernel(const u32* __restrict__ bits, u32 qb, u32* __restrict__ bank) {
  const u32 total = 32u * qb;
  for (u32 x = blockIdx.x * blockDim.x + threadIdx.x; x < total; x += gridDim.x * blockDim.x) {
    const u32 s = x / qb, q = x % qb;
    bank[x] = window32(bits, 32u * q + s);
  }
}

__global__ void build_strided_kernel(const u8* __restrict__ v, u32 k, u32 words, u32 rows, u32* __restrict__ table) {
  for (u32 u = blockIdx.x * blockDim.x + threadIdx.x; u < rows; u += gridDim.x * blockDim.x) {
    u32 word = 0;
    u32 j = u % k;
    for (int b = 0; b < 32; ++b) {
      word |= static_cast<u32>(v[j] & 1u) << b;
      j += words;  // words <= k: one subtraction keeps j below k
      if (j >= k) j -= k;
    }
    table[u] = word;
  }
}

unsigned small_grid(u64 items, int block) {
  const u64 g = (items + block - 1) / block;
  return static_cast<unsigned>(g < 1 ? 1 : (g > 1024 ? 1024 : g));
}

}  // namespace shared

void launch_reduce_partials(const u32* d_partial, u64 chunks, u32 k, u32* d_answer, CUstream_st* s) {
  const dim3 block(shared::RED_X, shared::RED_Y);
  const dim3 grid(ceil_div_u32(k, shared::RED_X));
  JK_LAUNCH(shared::reduce_partials_kernel, grid, block, 0, s, d_partial, chunks, k, d_answer);
}

void launch_build_vbits(const u8* d_v, u32 k, u32 words, u32* d_bits, CUstream_st* s) {
  JK_LAUNCH(shared::build_vbits_kernel, shared::small_grid(words, 256), 256, 0, s, d_v, k, words, d_bits);
}

void launch_build_bank(const u32* d_bits, u32 qb, u32* d_bank, CUstream_st* s) {
  JK_LAUNCH(shared::build_bank_kernel, shared::small_grid(32ull * qb, 256), 256, 0, s, d_bits, qb, d_bank);
}

void launch_build_strided(const u8* d_v, u32 k, u32 words, u32 rows, u32* d_table, CUstream_st* s) {
  JK_LAUNCH(shared::build_strided_kernel, shared::small_grid(rows, 256), 256, 0, s, d_v, k, words, rows, d_table);
}

}  // namespace joseki::abc471g::JK_GPU_NS
