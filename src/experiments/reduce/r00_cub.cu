// r00 (baseline): cub::DeviceReduce::Sum, the library's answer, in the same run as every rung.
// What it is: CUB's tuned two-kernel reduction (a grid of tiles, then one block over the
//   partials), temporary storage allocated once by the harness, outside the timed region.
// Prediction: close to the bandwidth limit at large sizes; at small sizes its second kernel
//   and launch cost show.
// Preconditions: none (n >= 1; 32-bit item count up to 2^31-1, 64-bit above).
// H200, 2026-11-29 (first run; the final run may differ by a few percent), cold:
//   2^20 7.23 us (580 GB/s, 67 % of the stream-read ceiling: two kernels, ~3.7 us each to
//   launch), 2^24 21.76 us (3.08 TB/s, 89 %), 2^28 242.94 us (4.42 TB/s, 98.7 %), 2^30
//   945.86 us (4.54 TB/s, 100.2 %); hot 2^24 20.32 us. Near the limit at large n, as predicted;
//   at 2^20 the second launch is most of the gap to the stream-read kernel (4.86 us).
#include <cub/device/device_reduce.cuh>

#include <climits>
#include <cstdint>

#include "backend/cuda/check.hpp"
#include "experiments/reduce/launchers.hpp"

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
}  // namespace

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

}  // namespace joseki::reduce
