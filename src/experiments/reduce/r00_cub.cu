// r00 (baseline): cub::DeviceReduce::Sum, the library's answer, in the same run as every rung.
// What it is: CUB's tuned two-kernel reduction (a grid of tiles, then one block over the
//   partials), temporary storage allocated once by the harness, outside the timed region.
// Prediction: close to the bandwidth limit at large sizes; at small sizes its second kernel
//   and launch cost show.
// Preconditions: none (n >= 1; 32-bit item count up to 2^31-1, 64-bit above).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold: 2^20 / 2^24 / 2^28 = 7.46 / 21.82 /
//   243.09 us = 67.0 / 89.1 / 98.7 % of the stream-read ceiling (4.417 TB/s at 2^28); hot 2^24
//   21.18 us; offset 1 23.23 us (6.5 % slower unaligned). As predicted: near the limit at 2^28; at
//   2^20 its second kernel shows, 2.47 us behind the one-launch stream-read kernel (4.99 us;
//   back-to-back launches are 3.68 us apart, probe launch).
#include <cub/device/device_reduce.cuh>

#include <climits>
#include <cstdint>

#include "backend/cuda/check.hpp"
#include "experiments/reduce/rung.hpp"

namespace joseki::reduce {

namespace {
template <class NumItems>
cudaError_t cub_sum(void* d_temp, std::size_t& bytes, const std::uint32_t* d_in, std::uint32_t* d_out, NumItems n,
                    cudaStream_t s) {
  return cub::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, n, s);
}

cudaError_t dispatch(void* d_temp, std::size_t& bytes, const std::uint32_t* d_in, std::uint32_t* d_out,
                     std::size_t n, cudaStream_t s) {
  // The narrowest item count that fits, as a CUB user would pass it.
  if (n <= static_cast<std::size_t>(INT_MAX)) return cub_sum(d_temp, bytes, d_in, d_out, static_cast<int>(n), s);
  return cub_sum(d_temp, bytes, d_in, d_out, static_cast<std::int64_t>(n), s);
}

std::size_t r00_cub_workspace(std::size_t n) {
  std::size_t bytes = 0;
  JOSEKI_CUDA_CHECK(dispatch(nullptr, bytes, nullptr, nullptr, n, nullptr));
  return bytes < 16 ? 16 : bytes;  // a null d_temp would turn the call into a size query
}

void launch_r00_cub(const GpuArgs& a, CUstream_st* s) {
  std::size_t bytes = a.work_bytes;
  JOSEKI_CUDA_CHECK(dispatch(a.d_work, bytes, a.d_in, a.d_out, a.n, s));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace

GpuOps r00_ops() { return {&launch_r00_cub, &r00_cub_workspace}; }

}  // namespace joseki::reduce
