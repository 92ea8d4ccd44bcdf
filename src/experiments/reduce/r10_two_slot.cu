// r10: no finish at all: per-block atomics into a result slot that the previous launch zeroed.
// What changed from r09: no ticket, no last block. Each block adds its sum into d_out[slot]
//   with one fire-and-forget atomic (RED), and block 0 zeroes d_out[slot ^ 1], the slot the
//   next launch will use; the caller alternates slots (Output::TwoSlot in rung.hpp). That is
//   r05's per-block atomics without r05's memset: the zeroing rides along in the previous
//   launch. The contract differs from CUB's: the result is in d_out[slot] (0 or 1, the
//   caller's alternation) and stays there until the next launch starts; both slots must be
//   zero before the first launch (the harness zeroes them once; validation poisons the
//   slot each launch must clear and checks both words). Same loads and knobs as r06.
// Prediction: the floor of a one-kernel reduction: launch + loads + one RED per block, no
//   serial tail and no extra node. At 2^20 this is where >= 1.3x CUB (<= 5.6 us against
//   CUB's 7.23 us in dev run2, stream-read kernel alone 4.86 us) can come from, if anywhere.
//   Bottleneck: launch + DRAM latency at small n; DRAM bandwidth at large n.
// Preconditions: as r06; d_out holds two words, d_out[slot] == 0 at launch.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold: 2^20 / 2^24 / 2^28 = 5.54 / 19.52 /
//   240.29 us; x r09 1.09 / 1.02 / 1.00; x CUB 1.35 / 1.12 / 1.01; 90.2 / 99.7 / 99.8 % of the
//   ceiling; hot 2^24 18.42 us (1.15x), offset 1 19.26 us (1.21x). As predicted: the fastest rung
//   in every ladder but 2^28, and >= 1.3x CUB at 2^20 in this run (dev run6, a 2x H200 host,
//   500-sample cap: 1.25x), with its own output contract.
#include <stdexcept>

#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
template <int UNROLL>
__global__ void JOSEKI_FULL_WAVE r10_two_slot_kernel(const std::uint32_t* __restrict__ in, std::size_t n,
                                                     std::uint32_t* out, unsigned slot) {
  const std::uint32_t sum = dev::vector_block_sum<UNROLL>(in, n, dev::PlainLoad{});
  if (threadIdx.x == 0) {
    atomicAdd(out + slot, sum);              // RED: d_out[slot] was zeroed by the previous launch
    if (blockIdx.x == 0) out[slot ^ 1u] = 0;  // ... and this launch zeroes the next launch's slot
  }
}

void launch_r10_two_slot(const GpuArgs& a, CUstream_st* s) {
  dev::with_unroll(a, "r10_two_slot", [&](auto u) {
    r10_two_slot_kernel<decltype(u)::value><<<dev::grid_of(a), dev::block_of(a), 0, s>>>(a.d_in, a.n, a.d_out,
                                                                                        a.slot & 1u);
  });
}

}  // namespace

GpuOps r10_ops() { return {&launch_r10_two_slot}; }

}  // namespace joseki::reduce
