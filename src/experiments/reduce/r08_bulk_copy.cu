// r08: bulk asynchronous copies (Hopper's TMA engine, cp.async.bulk) into a shared-memory
//   ring, single pass.
// What changed from r06: threads no longer issue global loads. One thread per block asks
//   the copy engine for whole chunks (chunk_bytes, e.g. 16 KiB) of the 16-byte body into a
//   ring of `stages` shared-memory buffers; an mbarrier per stage counts the bytes in; the
//   block sums a stage from shared memory, barriers, and the stage is refilled. Bytes in
//   flight per SM = blocks per SM x (stages - 1..stages) x chunk_bytes, independent of the
//   thread count. Chunks are dealt round-robin (block b: b, b + grid, ...). Same head/tail
//   split and last-block-done finish as r06. The ring is bulk.cuh's (shared with r11).
// Prediction: the same DRAM limit as r06 with far fewer load instructions; it pays if large
//   contiguous requests keep DRAM pages open better than 512-byte warp loads. Costs: a
//   barrier per chunk and the latency of filling the ring at small n. Bottleneck: DRAM.
// Preconditions: sm_90 (cp.async.bulk, mbarrier tx counts); chunk_bytes a multiple of 16;
//   stages in 2..16; stages x chunk_bytes + 128 <= the opt-in shared memory per block;
//   block a multiple of 32. Workspace: SinglePassState.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold, swept: 2^20 / 2^24 / 2^28 = 7.49 /
//   21.60 / 241.82 us; x r06 0.91 / 0.96 / 1.00; x CUB 1.00 / 1.01 / 1.01; 99.2 % of the ceiling at
//   2^28; offset 1 25.06 us (0.93x CUB, the worst vector rung unaligned). As predicted: the same
//   DRAM limit at 2^28, no gain from fewer instructions; the ring's fill costs at small n. 2^30
//   (dev run2 only): 4.564 TB/s.
#include <stdexcept>

#include "experiments/reduce/bulk.cuh"

namespace joseki::reduce {

namespace {

__global__ void JOSEKI_FULL_WAVE r08_bulk_copy_kernel(const std::uint32_t* __restrict__ in, std::size_t n,
                                                      std::uint32_t* out, SinglePassState* st, unsigned chunk_bytes,
                                                      unsigned stages) {
#if JOSEKI_ARCH_AT_LEAST(900)  // cp.async.bulk, mbarrier tx counts (Needs: Feature::BulkCopy)
  extern __shared__ __align__(128) unsigned char smem[];
  const VecSplit sp = vec_split(reinterpret_cast<std::uintptr_t>(in), n);
  const auto* body = reinterpret_cast<const unsigned char*>(in + sp.head);
  const std::size_t body_bytes = sp.nvec * 16;
  const std::size_t chunks = (body_bytes + chunk_bytes - 1) / chunk_bytes;
  // This block's chunks: blockIdx.x, blockIdx.x + gridDim.x, ... (rung.hpp; unit-tested on the host).
  const std::size_t mine = chunks_of_block(chunks, blockIdx.x, gridDim.x);
  auto src = [&](std::size_t k) { return body + chunk_index(blockIdx.x, k, gridDim.x) * chunk_bytes; };
  auto bytes_of = [&](std::size_t k) {
    return chunk_size(body_bytes, chunk_bytes, chunk_index(blockIdx.x, k, gridDim.x));
  };
  const std::uint32_t sum = dev::block_sum_with_head_tail(
      bulk::sum_through_ring(smem, stages, chunk_bytes, mine, src, bytes_of), in, n, sp);
  dev::single_pass_finish(sum, st, out);
#else
  JOSEKI_ARCH_UNSUPPORTED();
#endif
}

void launch_r08_bulk_copy(const GpuArgs& a, CUstream_st* s) {
  bulk::launch_ring<r08_bulk_copy_kernel>(a, s, "r08_bulk_copy");
}

}  // namespace

GpuOps r08_ops() { return {&launch_r08_bulk_copy, &dev::single_pass_workspace}; }

}  // namespace joseki::reduce
