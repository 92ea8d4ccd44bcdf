#include "experiments/probes/mirrors.hpp"

#include <algorithm>

#include "backend/cpu/parallel.hpp"
#include "experiments/probes/device_common.hpp"

namespace joseki::probes::mirror {

float divergence(int mode, float x, unsigned thread, unsigned block, int ka, int kb) {
  switch (mode) {
    case 0: return path_a(x, ka);                                             // uniform A
    case 1: return path_b(x, kb);                                             // uniform B
    case 2: return (thread & 1u) == 0 ? path_a(x, ka) : path_b(x, kb);        // lane parity
    case 3: return (thread & 1u) == 0 ? path_a(x, ka) : path_b(x, kb);        // predicated (same values)
    case 4: return (block & 1u) == 0 ? path_a(x, ka) : path_b(x, kb);         // block-uniform
    default: return ((thread >> 5) & 1u) == 0 ? path_a(x, ka) : path_b(x, kb);  // warp-uniform
  }
}

std::vector<u32> strided_partials(std::size_t n, std::size_t stride, std::size_t offset, u32 seed, int blocks,
                                  int threads) {
  std::vector<u32> part(static_cast<std::size_t>(blocks), 0u);
  const std::size_t total = static_cast<std::size_t>(blocks) * threads;
  cpu::ThreadPool::global().parallel_for(blocks, [&](std::int64_t b) {
    u32 acc = 0;
    for (std::size_t t = static_cast<std::size_t>(b) * threads; t < static_cast<std::size_t>(b + 1) * threads; ++t)
      for (std::size_t i = t; i < n; i += total) acc += mix32(i * stride + offset, seed);
    part[static_cast<std::size_t>(b)] = acc;
  });
  return part;
}

u32 bank_stride_sum(u32 seed, std::size_t block, int lane, int stride, int reps, std::size_t words) {
  u32 s = 0;
  for (int k = 0; k < 32; ++k) s += mix32(block * words + static_cast<std::size_t>(lane * stride + 32 * k), seed);
  return s * static_cast<u32>(reps);
}

u32 tile_sum(u32 seed, std::size_t block, int lane, bool column, int reps) {
  u32 s = 0;
  for (int c = 0; c < 32; ++c) s += mix32(block * 1024 + static_cast<std::size_t>(column ? lane * 32 + c : c * 32 + lane), seed);
  return s * static_cast<u32>(reps);
}

u32 ws_read_partial(std::size_t n16, std::size_t per_block, int blocks, int b, u32 seed) {
  std::size_t pos = (n16 / static_cast<std::size_t>(blocks)) * static_cast<std::size_t>(b);
  u32 acc = 0;
  for (std::size_t j = 0; j < per_block; ++j, ++pos) {
    if (pos >= n16) pos -= n16;
    for (std::size_t w = 0; w < 4; ++w) acc += mix32(pos * 4 + w, seed);
  }
  return acc;
}

u32 total(std::size_t n, u32 seed) {
  const std::int64_t chunks = 64;
  std::vector<u32> part(chunks, 0u);
  cpu::ThreadPool::global().parallel_for(chunks, [&](std::int64_t c) {
    u32 acc = 0;
    for (std::size_t i = n * static_cast<std::size_t>(c) / chunks; i < n * static_cast<std::size_t>(c + 1) / chunks; ++i)
      acc += mix32(i, seed);
    part[static_cast<std::size_t>(c)] = acc;
  });
  u32 s = 0;
  for (u32 p : part) s += p;
  return s;
}

u32 lcg_iterate(u32 x, int iters) {
  for (int k = 0; k < iters; ++k) x = lcg_step(x);
  return x;
}

}  // namespace joseki::probes::mirror
