// r09: r06 with a cheaper finish: one 64-bit atomic per block carries both its sum and its
//   ticket, and no fence.
// What changed from r06: r06's thread 0 of every block does RED(acc) + __threadfence() +
//   ATOM(count) (a round trip), and the last block another __threadfence() + two atomic
//   exchanges -- a serial tail of two device fences (~200-400 ns each on the H200, probe
//   fences) and three atomic round trips after the last load. Here each block adds
//   (sum << 32) | 1 to one 64-bit word (common.cuh, packed_ticket_finish); the block that
//   gets back count == grid - 1 holds every other block's sum in the returned value, writes
//   the total and resets the word. Same output contract as CUB and r06 (the result word is
//   written, nothing assumed about it before). Same loads and knobs as r06 (its sweep choice).
// Prediction: at 2^20 and 2^24, where r06 lost 0.4 us to r05's memset + per-block atomics
//   (6.66 vs 6.30 us at 2^20 in dev run2), most of the tail goes: one atomic round trip
//   remains. Nothing at 2^28 beyond that ~1 us. Bottleneck: launch + DRAM latency at small n,
//   DRAM at large n.
// Preconditions: as r06. Workspace: SinglePassState as one 64-bit word, zeroed once at setup.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold: 2^20 / 2^24 / 2^28 = 6.02 / 19.94 /
//   240.64 us; x r06 1.13 / 1.04 / 1.00; x CUB 1.24 / 1.09 / 1.01; hot 2^24 18.90 us (1.12x),
//   offset 1 19.68 us (1.18x). As predicted: 0.80-0.83 us of r06's tail gone; the one returning
//   atomic costs 0.35-0.48 us against r10. Best rung with CUB's contract at 2^20 and 2^24, short of
//   1.3x and 1.10x.
#include <stdexcept>

#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
template <int UNROLL>
__global__ void JOSEKI_FULL_WAVE r09_packed_ticket_kernel(const std::uint32_t* __restrict__ in, std::size_t n,
                                                          std::uint32_t* out, SinglePassState* st) {
  const std::uint32_t sum = dev::vector_block_sum<UNROLL>(in, n, dev::PlainLoad{});
  dev::packed_ticket_finish(sum, st, out);
}

void launch_r09_packed_ticket(const GpuArgs& a, CUstream_st* s) {
  dev::launch_single_pass(a, s, "r09_packed_ticket",
                          [](auto u) { return &r09_packed_ticket_kernel<decltype(u)::value>; });
}

}  // namespace

GpuOps r09_ops() { return {&launch_r09_packed_ticket, &dev::single_pass_workspace}; }

}  // namespace joseki::reduce
