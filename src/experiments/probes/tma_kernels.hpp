// Launchers of the tma probe (tma_kernels.cu): streaming a large buffer through bulk copies
// (cp.async.bulk global -> shared, completed on mbarriers, sm_90) and through plain 16-byte loads.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

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

}  // namespace joseki::probes
