// The generation floor of the gpu-pairs path (issue 19, item (a)): generate A_0 .. A_{N-1} on the
// GPU exactly as every count does (a run of elements per thread, the LCG jumped to the run's first
// element with the 2^j-step table in constant memory, PCG output, division-free mod K) and do
// nothing with the values but add them up (a 32-bit sum per thread, one warp reduction, one atomic
// per warp), so the compiler keeps the generator. No pair is formed, nothing is counted.
//
// Every rung that generates A on the GPU pays at least this; the records put each rung's time
// beside it (`floor_x`: rung / floor). The sum (mod 2^32) is checked against the CPU's generator,
// so the floor is measured on the same values the rungs count.
//
// Work split: one wave (the kernel's resident threads, from the occupancy API), each thread a run
// of ceil(N / resident) elements: the jump-ahead (<= 64 affine maps) is paid once per thread.
// Prediction (H200, 132 SMs): ~20 integer instructions per element (64-bit LCG step ~4, PCG
// output ~6, fastmod ~5, sum 1) at 4 x 32 lanes per SM-cycle -> ~1.1e-3 ns per element at
// 1.98 GHz: the max case ~4 us + launch and tail (~3 us), N = 10^9 ~0.6-0.8 ms. The count
// kernel's generate-only variant (`pairs.phase.generate_only`, 26 pairs per thread, many waves)
// took 16.03 us at the max case.
// Measured (H200, call 1 of 2026-12-01, a debug call whose files are not kept; median of three
// processes at the max case): 15.52 us at the max case (the prediction, ~7 us, was wrong by 2x: 64-bit
// multiplies run at half the integer rate and the one-wave launch, jump-ahead and tail are ~8 us of it),
// 111.8 us at 10^8, 1039.8 us at 10^9 (9.6e11 elements/s: at 10^9 the ALU bound holds). Against it:
// r04 5.04x at the max case (count 2.86x, combine 2.53x), 4.57x at 10^9 (count 4.39x). The goals need
// 2.6x (max case, 40 us) and 2.9x (10^9, 3.0 ms) of this floor.
#include <cuda_runtime.h>

#include "backend/cuda/arch.cuh"
#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_pairs/hopper_kernels.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"

namespace joseki::abc471g::pairs {

namespace {

__constant__ JumpTable c_jump_floor = make_jump_table();

constexpr int FLOOR_THREADS = 256;

// LEAN (FloorArgs::lean): r16's generator (lcg_step_halves, pcg_raw_halves, fastmod32): the same values.
template <bool LEAN>
__global__ void __launch_bounds__(FLOOR_THREADS) generate_floor_kernel(FloorArgs a, int bits) {
  const std::uint64_t tid = blockIdx.x * static_cast<std::uint64_t>(FLOOR_THREADS) + threadIdx.x;
  const std::uint64_t e0 = tid * a.run;
  std::uint32_t sum = 0;
  if (e0 < a.n) {
    const std::uint64_t e1 = a.n - e0 < a.run ? a.n : e0 + a.run;
    std::uint64_t j = e0;
    for (; j < e1 && j < a.m; ++j) sum += a.d_b[j];
    if (j < e1) {
      std::uint64_t state = jump_with(c_jump_floor, a.seed, j - a.m, bits);
      const std::uint32_t left = static_cast<std::uint32_t>(e1 - j);
      if constexpr (LEAN) {
        const FastMod32 fm = make_fastmod32(a.k);
        std::uint32_t lo = static_cast<std::uint32_t>(state), hi = static_cast<std::uint32_t>(state >> 32);
#pragma unroll 4
        for (std::uint32_t c = 0; c < left; ++c) sum += lean_next(lo, hi, fm);
      } else {
        const FastMod fm{a.fastmod_m, a.k};
#pragma unroll 4
        for (std::uint32_t c = 0; c < left; ++c) {
          sum += fastmod(pcg_raw(state), fm);
          state = state * LCG_MUL + LCG_INC;
        }
      }
    }
  }
#if JOSEKI_ARCH_AT_LEAST(800)
  sum = __reduce_add_sync(0xFFFFFFFFu, sum);
#else  // no redux.sync below sm_80: five butterfly shuffles
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xFFFFFFFFu, sum, off);
#endif
  if ((threadIdx.x & 31) == 0 && sum) atomicAdd(a.d_sum, sum);
}

}  // namespace

std::uint64_t floor_resident_threads(int device) {
  int sms = 1, per_sm = 1;
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, generate_floor_kernel<false>, FLOOR_THREADS, 0));
  return static_cast<std::uint64_t>(sms) * static_cast<std::uint64_t>(per_sm > 0 ? per_sm : 1) * FLOOR_THREADS;
}

void launch_generate_floor(const FloorArgs& a, cudaStream_t s) {
  if (a.zero_sum) JOSEKI_CUDA_CHECK(cudaMemsetAsync(a.d_sum, 0, sizeof(std::uint32_t), s));
  if (a.n == 0 || a.run == 0) return;
  const std::uint64_t threads = (a.n + a.run - 1) / a.run;
  const unsigned blocks = static_cast<unsigned>((threads + FLOOR_THREADS - 1) / FLOOR_THREADS);
  const int bits = a.n > a.m ? bit_length(a.n - a.m) : 0;
  if (a.lean)
    generate_floor_kernel<true><<<blocks, FLOOR_THREADS, 0, s>>>(a, bits);
  else
    generate_floor_kernel<false><<<blocks, FLOOR_THREADS, 0, s>>>(a, bits);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::abc471g::pairs
