// Launchers of the mma probe: tensor-core throughput of mma.sync (mma_kernels.cu, sm_80+) and of
// wgmma (sm90a/mma_wgmma.cu, built for sm_90a only), int8 and bf16.
//
// Inputs (mode): MMA_CHECK fills A[m][k] = ga(m % 8) and B[k][n] = fb(n % 8) (small integers,
// exact in int32 and in fp32), so every element of D = A x B is K x ga(m % 8) x fb(n % 8) and the
// accumulated output after `iters` is known exactly (mma_expected); MMA_RANDOM fills random
// values (the timed runs: tensor-core power depends on the data).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

namespace joseki::probes {

enum MmaMode : int { MMA_CHECK = 0, MMA_RANDOM = 1 };

inline int mma_ga(int r) { return (r % 8) - 3; }        // -3 .. 4
inline int mma_fb(int c) { return ((c % 8) * 3) % 8 - 4; }  // a permutation of -4 .. 3

// mma.sync: blocks x 256 threads; each warp runs iters x MMA_ILP independent
// m16n8k32.s8 (int8) or m16n8k16.bf16 (bf16) mma.sync; out[(block * 256 + thread) * 4 + i] =
// the thread's accumulator element i summed over the MMA_ILP chains (int32 bits or fp32 bits).
inline constexpr int MMA_ILP = 4;
void launch_mma_sync(bool int8, int mode, int iters, int blocks, std::uint32_t seed, std::uint32_t* d_out,
                     cudaStream_t s);
// Expected value of thread `lane`'s accumulator element i (0..3) after the check run.
double mma_sync_expected(bool int8, int lane, int i, int iters);

// wgmma: blocks x 128 threads (one warpgroup); each runs iters x WGMMA_PER_ITER
// m64n128k32.s32.s8.s8 (int8) or m64n128k16.f32.bf16.bf16 (bf16) into one accumulator set,
// operands K-major in shared memory without swizzle; out[(block * 128 + thread) * 64 + j] = element j.
inline constexpr int WGMMA_PER_ITER = 8;
inline constexpr int WGMMA_N = 128;
// Whether this build carries sm_90a code for wgmma (CMake: 90 in CMAKE_CUDA_ARCHITECTURES).
bool wgmma_built();
void launch_wgmma(bool int8, int mode, int iters, int blocks, std::uint32_t seed, std::uint32_t* d_out, cudaStream_t s);
// Expected value of accumulator element j of thread `t` (0..127) after the check run.
double wgmma_expected(bool int8, int t, int j, int iters);

// The shape probe (int8, session 17): which of the combine's choices costs the tensor pipe its rate. Four warpgroups
// a SM in every shape; each shape's check is exact (structured inputs), its timed runs random.
struct WgmmaShapeProbe {
  const char* name;
  int warpgroups;   // a block (blocks: 4 / warpgroups a SM)
  int per_group;    // wgmmas a commit group
  int in_flight;    // groups left in flight by the wait after each commit
  bool shared_b;    // the block's warpgroups read one B tile
  bool sw64;        // B written and read with the 64-byte swizzle
  bool rs;          // A from registers
};
const std::vector<WgmmaShapeProbe>& wgmma_shape_probes();
void launch_wgmma_shape(const WgmmaShapeProbe& sh, int mode, int iters, int sms, std::uint32_t seed, std::uint32_t* d_out,
                        cudaStream_t s);
double wgmma_shape_expected(const WgmmaShapeProbe& sh, int t, int j, int iters);

}  // namespace joseki::probes
