// r05: 16-byte vector loads, several in flight per thread.
// What changed from r04b: the body of the input is read as uint4 words (LDG.E.128), in tiles
//   of block x UNROLL words: each thread issues UNROLL independent loads before it adds any,
//   so a thread keeps 16 x UNROLL bytes in flight instead of 4. An input that does not start
//   on a 16-byte boundary is split into a scalar head (0..3 elements), the 16-byte body and
//   a scalar tail (0..3). Grid: at most one full wave (SMs x blocks per SM), fewer when the
//   input has fewer tiles.
// Prediction: this is what reaches the bandwidth limit: Little's law wants ~4.8 TB/s x ~1 us
//   of latency, about 5 MB in flight, i.e. ~36 KB per SM; 2048 threads x 64 bytes = 128 KB
//   per SM is plenty. Expect close to the stream-read ceiling at 2^28; at small n the memset
//   and two launches remain. Bottleneck: DRAM bandwidth.
// Registers: __launch_bounds__(1024, 2) holds every instance to 32 (ptxas -v), so 2048 threads
//   are resident per SM and "one full wave" is real; within 32 registers ptxas schedules UNROLL 8
//   as 5 loads, adds, then 3 more (SASS), so 8 is not twice 4 in flight. The last partial round
//   of tiles is spread over all threads, so no block ends a whole tile after the others.
// Preconditions: input 4-byte aligned (any 16-byte phase); block a multiple of 32, up to
//   1024; UNROLL in {1, 2, 4, 8}. Result zeroed by a memset (timed). Takes r06's configuration.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold: 2^20 / 2^24 / 2^28 = 6.34 / 20.29 /
//   241.01 us; x r04b 1.07 / 1.55 / 1.72; x CUB 1.18 / 1.08 / 1.01; 78.8 / 95.9 / 99.5 % of the
//   ceiling (4.455 TB/s at 2^28); hot 2^24 19.07 us (1.11x CUB). As predicted; the memset node
//   costs 0.65-0.80 us against r10, which drops it.
#include <stdexcept>

#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
template <int UNROLL>
__global__ void JOSEKI_FULL_WAVE r05_vector_loads_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out) {
  const std::uint32_t sum = dev::vector_block_sum<UNROLL>(in, n, dev::PlainLoad{});
  if (threadIdx.x == 0) atomicAdd(out, sum);
}

void launch_r05_vector_loads(const GpuArgs& a, CUstream_st* s) {
  dev::with_unroll(a, "r05_vector_loads",
                   [&](auto u) { dev::launch_adding(r05_vector_loads_kernel<decltype(u)::value>, a, s); });
}

}  // namespace

GpuOps r05_ops() { return {&launch_r05_vector_loads}; }

}  // namespace joseki::reduce
