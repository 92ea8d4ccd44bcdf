// Rung 1 of the gpu-pairs ladder: count on the GPU (count.cu), combine with number-theoretic
// transforms over the Goldilocks prime p = 2^64 - 2^32 + 1.
//
// What changed from r00 (cpu-pairs): both phases on the GPU; no A in memory, no host round trip.
// The combine: with b = a + d, answer[k] - V[A_1 + k] = sum_d sum_u D_d[u - k] W_d[u], where
// D_d[a] = C[a][a + d] (a diagonal of the table) and W_d[u] = (1 - V[u]) V[u + d] (indices mod
// K): one cyclic correlation of length K per d, summed over d in the frequency domain, so
// 2K forward transforms and one inverse. The correlation is read at [K, 2K) of the linear
// convolution of Z_d[i] = D_d[-i mod K] (i < 2K) and W_d, exact in a cyclic transform of any
// power-of-two length L >= 2K - 1 (8192 for K = 2300).
// Exact: every true sum is <= N < p, and arithmetic mod p is exact below p (no rounding, unlike
// an FFT in doubles, whose error grows with N).
// Kernels: (1) one block per d at a time (a persistent grid of min(K, #SM) blocks), both arrays
// in 128 KiB of shared memory, 13 radix-2 stages each, pointwise product added into the block's
// partial spectrum; (2) sum the partial spectra; (3) one block: inverse transform and answers.
// Prediction: ~2.5e8 Goldilocks multiply-adds (~20 integer instructions each) for the max case:
// ~0.2-0.5 ms, ALU-bound; slower than the tensor-core product (r02) for every N but exact for
// any N; the count phase dominates beyond N ~ 10^8 either way.
// Preconditions: K <= 4096 (L <= 8192: two length-L arrays in shared memory).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 1.164 ms at the max case, 37.26x r00
// (43.360 ms CPU_COMPUTE; x previous = x baseline). The NTT combine alone takes 1.094 ms: the
// 0.2-0.5 ms prediction was wrong by 2-5x (why: not measured, no profile of these kernels).
#include <cuda_runtime.h>

#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"

namespace joseki::abc471g::pairs {

namespace {

constexpr int ACC_THREADS = 1024;
constexpr int FINISH_THREADS = 1024;

template <class T>
__global__ void __launch_bounds__(ACC_THREADS) ntt_accumulate_kernel(NttArgs a) {
  extern __shared__ std::uint64_t sm[];
  std::uint64_t* x = sm;        // Z_d, then its transform
  std::uint64_t* y = sm + a.l;  // W_d, then its transform
  const T* __restrict__ table = static_cast<const T*>(a.d_table);
  std::uint64_t* part = a.d_partials + static_cast<std::size_t>(blockIdx.x) * a.l;
  const std::uint32_t half = a.l / 2;
  for (std::uint32_t d = blockIdx.x; d < a.k; d += gridDim.x) {
    for (std::uint32_t i = threadIdx.x; i < a.l; i += ACC_THREADS) {
      std::uint64_t z = 0, w = 0;
      if (i < 2 * a.k) {
        const std::uint32_t r = i % a.k;
        const std::uint32_t row = r ? a.k - r : 0;  // -i mod K
        std::uint32_t col = row + d;
        if (col >= a.k) col -= a.k;
        z = static_cast<std::uint64_t>(table[static_cast<std::size_t>(row) * a.kp + col]);
      }
      if (i < a.k) {
        std::uint32_t j = i + d;
        if (j >= a.k) j -= a.k;
        w = (!a.d_v[i] && a.d_v[j]) ? 1u : 0u;
      }
      x[i] = z;
      y[i] = w;
    }
    __syncthreads();
    for (std::uint32_t len = half; len >= 1; len >>= 1) {
      for (std::uint32_t q = threadIdx.x; q < half; q += ACC_THREADS) {
        ntt_dif_butterfly(x, a.d_tw, a.l, len, q);
        ntt_dif_butterfly(y, a.d_tw, a.l, len, q);
      }
      __syncthreads();
    }
    const bool first = d == blockIdx.x;
    for (std::uint32_t f = threadIdx.x; f < a.l; f += ACC_THREADS) {
      const std::uint64_t prod = gl_mul(x[f], y[f]);  // both in bit-reversed order
      part[f] = first ? prod : gl_add(part[f], prod);
    }
    __syncthreads();  // x and y are refilled next
  }
}

__global__ void ntt_reduce_kernel(NttArgs a) {
  const std::uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
  if (f >= a.l) return;
  std::uint64_t s = 0;
  for (std::uint32_t b = 0; b < a.blocks; ++b) s = gl_add(s, a.d_partials[static_cast<std::size_t>(b) * a.l + f]);
  a.d_sum[f] = s;
}

__global__ void __launch_bounds__(FINISH_THREADS) ntt_finish_kernel(NttArgs a) {
  extern __shared__ std::uint64_t sm[];
  for (std::uint32_t i = threadIdx.x; i < a.l; i += FINISH_THREADS) sm[i] = a.d_sum[i];
  __syncthreads();
  const std::uint32_t half = a.l / 2;
  for (std::uint32_t len = 1; len < a.l; len <<= 1) {
    for (std::uint32_t q = threadIdx.x; q < half; q += FINISH_THREADS) ntt_dit_butterfly(sm, a.d_itw, a.l, len, q);
    __syncthreads();
  }
  for (std::uint32_t k = threadIdx.x; k < a.k; k += FINISH_THREADS) {
    const std::uint64_t r = gl_mul(sm[k + a.k], a.l_inv);  // the correlation, exact (< N < p)
    a.d_answer[k] = r + a.d_v[(a.a0 + k) % a.k];
  }
}

std::size_t acc_smem(std::uint32_t l) { return 2u * l * sizeof(std::uint64_t); }  // = ntt_accumulate_smem_bytes(k)
std::size_t finish_smem(std::uint32_t l) { return static_cast<std::size_t>(l) * sizeof(std::uint64_t); }

}  // namespace

void prepare_ntt_combine(std::uint32_t l) {
  const int acc = static_cast<int>(acc_smem(l)), fin = static_cast<int>(finish_smem(l));
  if (acc > 48 * 1024) {
    JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(ntt_accumulate_kernel<std::uint32_t>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, acc));
    JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(ntt_accumulate_kernel<std::uint64_t>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, acc));
  }
  if (fin > 48 * 1024)
    JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(ntt_finish_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, fin));
}

void launch_ntt_combine(const NttArgs& a, cudaStream_t s) {
  if (a.wide)
    ntt_accumulate_kernel<std::uint64_t><<<a.blocks, ACC_THREADS, acc_smem(a.l), s>>>(a);
  else
    ntt_accumulate_kernel<std::uint32_t><<<a.blocks, ACC_THREADS, acc_smem(a.l), s>>>(a);
  JOSEKI_CUDA_CHECK_LAUNCH();
  ntt_reduce_kernel<<<(a.l + 255) / 256, 256, 0, s>>>(a);
  JOSEKI_CUDA_CHECK_LAUNCH();
  ntt_finish_kernel<<<1, FINISH_THREADS, finish_smem(a.l), s>>>(a);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::abc471g::pairs
