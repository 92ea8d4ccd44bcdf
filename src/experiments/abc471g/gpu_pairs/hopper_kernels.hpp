// Launchers of issue 19's gpu-pairs kernels (floor_generate.cu and the Hopper rungs r05+).
// Only <cuda_runtime.h> and std types here: the host code that calls them is g++-compiled.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace joseki::abc471g::pairs {

// ---- the generation floor (floor_generate.cu) ----------------------------------------------
struct FloorArgs {
  const std::uint32_t* d_b = nullptr;  // the M given values
  std::uint64_t m = 0;
  std::uint64_t seed = 0;
  std::uint32_t k = 1;
  std::uint64_t fastmod_m = 0;  // make_fastmod(k).m
  std::uint64_t n = 0;          // elements A_0 .. A_{n-1}
  std::uint64_t run = 1;        // elements per thread (>= 1)
  std::uint32_t* d_sum = nullptr;  // sum of A_i mod 2^32 is added here
  // Zero *d_sum first (a memset on the stream). The timed runs leave it out: their sums are not read,
  // and a memset would add its own launch to the floor.
  bool zero_sum = true;
  // r16's generator (pairs_math.hpp: lcg_step_halves, pcg_raw_halves, fastmod32) instead of r03's.
  bool lean = false;
};
// Threads of generate_floor_kernel the device holds at once (one wave).
std::uint64_t floor_resident_threads(int device);
void launch_generate_floor(const FloorArgs& a, cudaStream_t s);

}  // namespace joseki::abc471g::pairs
