// Launchers of the tma probe (tma_kernels.cu): streaming a large buffer through bulk copies
// (cp.async.bulk global -> shared, completed on mbarriers, sm_90) and through plain 16-byte loads.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace joseki::probes {

inline constexpr int TMA_MAX_STAGES = 16;
inline constexpr unsigned TMA_RING_OFFSET = 128;  // the stages' mbarriers (8 bytes each) sit before the ring

// `blocks` blocks of `threads`: block b streams tiles b, b + blocks, ... of `tile_bytes` (a
// multiple of 16) of d[0, bytes) (bytes a multiple of tile_bytes, d 16-byte aligned) through a
// ring of `stages` shared-memory stages: thread 0 issues cp.async.bulk for a stage, every thread
// waits on the stage's mbarrier, sums it, the block barriers, the stage is refilled.
// d_partials[b] = block b's sum of the 32-bit words it read.
void launch_tma_stream(const void* d, std::size_t bytes, unsigned tile_bytes, int stages, int blocks, int threads,
                       std::uint32_t* d_partials, cudaStream_t s);
// Blocks per SM the bulk kernel can keep resident with this ring (occupancy calculator).
int tma_blocks_per_sm(unsigned tile_bytes, int stages, int threads);
// Plain loads: grid-stride 16-byte loads, UNROLL (1 or 4) in flight per thread; d_partials[b] = block sums.
void launch_vec_stream(const uint4* d, std::size_t n16, int unroll, int blocks, int threads, std::uint32_t* d_partials,
                       cudaStream_t s);

// Tensor-map copies (tma_tensor_kernels.cu): the same ring, each stage filled by
// cp.async.bulk.tensor.2d from a CUtensorMap viewing d as rows of 1 KiB and a box of tile_bytes / 1 KiB
// rows (tile_bytes a multiple of 1 KiB, at most 256 KiB, dividing bytes). "" when the driver can encode
// tensor maps, else why not. Throws RunError when it cannot (the probe asks first).
std::string tma_tensor_unavailable();
int tma_tensor_blocks_per_sm(unsigned tile_bytes, int stages, int threads);  // 0: the ring does not fit
void launch_tma_tensor_stream(const void* d, std::size_t bytes, unsigned tile_bytes, int stages, int blocks,
                              int threads, std::uint32_t* d_partials, cudaStream_t s);

}  // namespace joseki::probes
