// r11: r08's bulk copies over balanced contiguous slabs, with r09's one-atomic finish.
// What changed from r08: (1) each block owns one contiguous slab of the 16-byte body, the
//   slabs equal to within one word (rung.hpp, slab_of_block), streamed through the same ring
//   in chunks (the last one short) -- instead of 16 KiB chunks dealt round-robin, which leave
//   up to a whole chunk per block of imbalance at the end (at 2^28 with 528 blocks: 124 or 125
//   chunks each); (2) the finish is r09's packed 64-bit ticket (one atomic, no fences) instead
//   of r06's. The block size is swept too (more threads drain a stage sooner).
// Prediction: the best candidate at 2^28 (r08 was the fastest rung at 2^30 in dev run2, but
//   lost ~1 % at 2^28 to the ragged end and the finish): the whole of r08's per-byte rate with
//   neither. At small n it pays the ring's fill latency like r08. Bottleneck: DRAM bandwidth.
// Preconditions: as r08 (sm_90; chunk a multiple of 16 bytes; 2..16 stages; the ring within
//   the shared memory per block); block a multiple of 32. Workspace: SinglePassState (as one
//   64-bit word).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold, swept: 2^20 / 2^24 / 2^28 = 6.56 /
//   21.12 / 249.38 us; x r08 1.14 / 1.02 / 0.97; x CUB 1.14 / 1.03 / 0.97; 96.2 % of the ceiling at
//   2^28. The prediction was wrong: the slowest vector rung at 2^28 (every slab point >= 248.90 us
//   vs r08's best 240.37 us). Why is not measured; its finish (r09's) costs less than r08's (r06's)
//   in every ladder, so the access order (one contiguous slab per block instead of interleaved
//   chunks) is the suspect.
#include <stdexcept>

#include "experiments/reduce/bulk.cuh"

namespace joseki::reduce {

namespace {

__global__ void JOSEKI_FULL_WAVE r11_bulk_slab_kernel(const std::uint32_t* __restrict__ in, std::size_t n,
                                                      std::uint32_t* out, SinglePassState* st, unsigned chunk_bytes,
                                                      unsigned stages) {
#if JOSEKI_ARCH_AT_LEAST(900)  // cp.async.bulk, mbarrier tx counts (Needs: Feature::BulkCopy)
  extern __shared__ __align__(128) unsigned char smem[];
  const VecSplit sp = vec_split(reinterpret_cast<std::uintptr_t>(in), n);
  const Slab slab = slab_of_block(sp.nvec, gridDim.x, blockIdx.x);
  const auto* src0 = reinterpret_cast<const unsigned char*>(in + sp.head) + slab.begin * 16;
  const std::size_t slab_bytes = (slab.end - slab.begin) * 16;
  const std::size_t mine = (slab_bytes + chunk_bytes - 1) / chunk_bytes;
  auto src = [&](std::size_t k) { return src0 + k * chunk_bytes; };
  auto bytes_of = [&](std::size_t k) { return chunk_size(slab_bytes, chunk_bytes, k); };
  const std::uint32_t sum = dev::block_sum_with_head_tail(
      bulk::sum_through_ring(smem, stages, chunk_bytes, mine, src, bytes_of), in, n, sp);
  dev::packed_ticket_finish(sum, st, out);
#else
  JOSEKI_ARCH_UNSUPPORTED();
#endif
}

void launch_r11_bulk_slab(const GpuArgs& a, CUstream_st* s) {
  bulk::launch_ring<r11_bulk_slab_kernel>(a, s, "r11_bulk_slab");
}

}  // namespace

GpuOps r11_ops() { return {&launch_r11_bulk_slab, &dev::single_pass_workspace}; }

}  // namespace joseki::reduce
