// r06: one launch end to end (no memset, no second kernel).
// What changed from r05: the result is not zeroed by the host's memset and summed by
//   atomics into it; each block adds its sum to a workspace accumulator, takes a ticket,
//   and the last block done publishes the total to the output and resets the accumulator
//   and the counter (threadfence pattern), so the next launch needs no host work.
// Prediction: the same bandwidth as r05 at 2^28 (one memset is ~2 us of 240 us); at 2^20
//   (4 MiB, ~1 us of data) the saved memset node and launch are a large share, and against
//   CUB's two kernels this is where >= 1.3x must come from. Bottleneck: launch latency and
//   DRAM latency at small n, DRAM bandwidth at large n.
// Preconditions: as r05. Workspace: SinglePassState, zeroed once at setup.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold, swept: 2^20 / 2^24 / 2^28 = 6.82 /
//   20.77 / 241.47 us; x r05 0.93 / 0.98 / 1.00; x CUB 1.09 / 1.05 / 1.01; hot 2^24 20.33 us (0.94x
//   r05). The prediction was wrong: the finish (two device fences, 196-404 ns each in probe fences,
//   and three dependent atomic round trips after the last load) costs more than the memset node it
//   saves. r09 and r10 replace it. At 2^28 its sweep's fastest point (512 x 4, unroll 4) was 239.17
//   us = 1.016x CUB; the 1 % tie band preferred 256 x 4 x unroll 8 (+0.9 %), which r05, r09 and r10
//   inherit.
#include <stdexcept>

#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
template <int UNROLL>
__global__ void JOSEKI_FULL_WAVE r06_single_pass_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out,
                                       SinglePassState* st) {
  const std::uint32_t sum = dev::vector_block_sum<UNROLL>(in, n, dev::PlainLoad{});
  dev::single_pass_finish(sum, st, out);
}

void launch_r06_single_pass(const GpuArgs& a, CUstream_st* s) {
  dev::launch_single_pass(a, s, "r06_single_pass",
                          [](auto u) { return &r06_single_pass_kernel<decltype(u)::value>; });
}

}  // namespace

GpuOps r06_ops() { return {&launch_r06_single_pass, &dev::single_pass_workspace}; }

}  // namespace joseki::reduce
