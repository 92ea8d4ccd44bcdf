// Launchers of the banks probe (banks_kernels.cu). Both kernels run one block per SM (the
// caller asks for more than half an SM's shared memory) so a block's clock64 interval is
// the SM's; cycles per warp-wide access = block cycles / (warps x 32 x reps).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

inline constexpr int BANK_WORDS = 2048;  // shared words each block loads for the stride kernel

// Lane l of every warp reads shared words l * stride + 32 k (k < 32; stride 1..32), reps
// times; d_out[thread] = the sum, d_cycles[block] = the block's cycles. The block's
// shared data are words block * BANK_WORDS ... of d_in.
void launch_bank_stride(const std::uint32_t* d_in, std::uint32_t* d_out, long long* d_cycles, int stride, int reps,
                        int blocks, int threads, std::size_t smem_bytes, cudaStream_t s);
// The guide's tile[32][pitch] (pitch 32 or 33) filled with the block's 1024 words of d_in;
// column reads (tile[lane][c]) or row reads (tile[c][lane]), reps x 32 per thread.
void launch_tile_reads(int pitch, bool column, const std::uint32_t* d_in, std::uint32_t* d_out, long long* d_cycles,
                       int reps, int blocks, int threads, std::size_t smem_bytes, cudaStream_t s);

}  // namespace joseki::probes
