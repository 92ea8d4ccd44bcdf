// t01 — a test-only rung of the reduction ladder: two loads per iteration (not part of the ladder).
// It exists to prove the documented way of adding a GPU rung (docs/REDUCE.md, "Adding a rung"):
// this one file (the kernel and `GpuOps t01_ops()`) plus one JK_REDUCE_RUNG line, in
// tests/rungs/reduce_rungs.def, the test's rungs.def. tests/unit/test_reduce_ladder.cpp shows it
// listed after its predecessor and in the ladder table (skipped with the reason without a GPU);
// tests/gpu/test_reduce.cpp validates it at edge sizes and offsets and times it beside r04.
// What changed (vs r04_warp_shuffle): each grid-stride iteration issues two independent 4-byte
//   loads (elements i and i + grid threads) into two accumulators before the next iteration, so a
//   thread keeps 8 bytes in flight instead of 4; same warp-shuffle block sum and one atomicAdd per
//   block into the zeroed result word (memset inside the rung, timed).
// Prediction: up to 2x r04 where r04 is bound by one 4-byte load in flight per thread (2^24 and
//   up), short of r05's 16-byte loads. Not a ladder rung: the GPU test only checks that it
//   validates and times.
// H200 (debug call 2 of 2026-12-01, branch reducerung c16c1e1, ReduceGpu test's 3-5 samples, not
//   kept under results/): n = 2^22+1, offset 1, cold: 10.08 us vs r04 12.19 us (both block 256 x 8
//   per SM, grid 1056) = 1.21x r04, 1.24x CUB, 85 % of the stream-read ceiling; exact at 6 sizes x
//   4 offsets. As predicted in direction; 1.21x, not 2x, at this size (4 MiB: the fixed costs of a
//   ~10 us launch weigh; 2^24 and up not measured).
// Preconditions: block a multiple of 32, up to 1024 (full warps for the shuffle sum).
#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {

__global__ void JOSEKI_FULL_WAVE t01_two_loads_kernel(const std::uint32_t* __restrict__ in, std::size_t n,
                                                      std::uint32_t* out) {
  const std::size_t stride = dev::grid_threads();
  std::size_t i = dev::global_thread();
  std::uint32_t a = 0, b = 0;
  for (; i + stride < n; i += 2 * stride) {  // elements i and i + stride: both below n
    a += in[i];
    b += in[i + stride];
  }
  if (i < n) a += in[i];  // the last element of this thread's stride when its count is odd
  const std::uint32_t sum = dev::block_sum_warps<false>(a + b);
  if (threadIdx.x == 0) atomicAdd(out, sum);
}

void launch_t01_two_loads(const GpuArgs& a, CUstream_st* s) { dev::launch_adding(t01_two_loads_kernel, a, s); }

}  // namespace

GpuOps t01_ops() { return {&launch_t01_two_loads}; }

}  // namespace joseki::reduce
