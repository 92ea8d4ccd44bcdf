// `joseki try --ladder abc471g-direct`: the file's settings as a run-time rung of the ABC471G direct
// (count) ladder (pure C++, unit-testable). The user's kernel has one signature:
//   extern "C" __global__ void joseki_count(const unsigned int* a, unsigned long long n,
//                                           const unsigned char* v, unsigned int k, unsigned int* answer)
// and joseki launches it on a grid it sizes from the file's `block` and `chunk` (see direct_grid).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/try/spec.hpp"

namespace joseki::trykernel {

inline constexpr const char* DIRECT_ENTRY = "joseki_count";

struct DirectSpec {
  std::string slug;                      // try_<stem>
  std::string name, technique, like;     // like: a rung id of the direct ladder ("" for none)
  int block = 64;                        // threads per block, 1..1024
  std::int64_t chunk = 0;                // 0: one thread per shift; > 0: elements per block in the x dimension
  bool zero_before = false;              // output=atomic: joseki zeroes answer[0..k) before each launch (timed)
  std::string output_name = "write";
  double tie = 0.02;                     // the sweep's tie band (the direct ladder's rungs use 2 %)
  std::vector<std::int64_t> sweep_blocks, sweep_chunks;
  bool block_macro = false, chunk_macro = false;  // the source uses BLOCK / CHUNK: passed as -D
};

// Throws InputError naming FILE:LINE for a bad value.
DirectSpec direct_spec(const TryFile& f);
// -DBLOCK=.. -DCHUNK=.. for the macros the source uses.
std::vector<std::string> direct_defines(const DirectSpec& s, int block, std::int64_t chunk);

// The launch grid: chunk == 0: (ceil(k / block), 1); chunk > 0: (ceil(n / chunk), ceil(k / block)),
// so blockIdx.x is the chunk of A and blockIdx.y the group of `block` shifts.
struct DirectGrid {
  std::uint64_t x = 0, y = 0;
};
DirectGrid direct_grid(std::uint64_t n, std::uint32_t k, int block, std::int64_t chunk);
// "" when the grid fits CUDA's limits (x < 2^31, y <= 65535), else why not (names the values).
std::string direct_grid_check(std::uint64_t n, std::uint32_t k, int block, std::int64_t chunk);

}  // namespace joseki::trykernel
