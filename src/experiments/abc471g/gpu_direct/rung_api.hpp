// The interface between the ladder's host code (ladder.cpp, compiled by g++) and its rungs
// (.cu files: kernels and thin launchers). Standard headers only, so nvcc, g++ and the host
// emulation of the unit tests (emu.hpp) all compile it. Each rung file defines `RungOps gNN_ops()`;
// the list of rungs is rungs.def.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#if defined(JOSEKI_GPU_EMULATION)
#include "experiments/abc471g/gpu_direct/emu.hpp"
#define JK_GPU_NS gpu_emu
#else
struct CUstream_st;  // = cudaStream_t, without the CUDA headers
#define JK_GPU_NS gpu
#endif

// The types are the same in a CUDA build and in the host emulation of the tests (gpu_api); the
// rungs' functions live in JK_GPU_NS: `gpu`, or `gpu_emu` when a test compiles them on the host.
namespace joseki::abc471g::gpu_api {

// The shape of one problem, as the launchers need it.
struct Shape {
  std::uint64_t n = 0;  // elements, >= 1
  std::uint32_t k = 0;  // shifts (lanes), >= 1
  std::uint64_t m = 0;  // given values b, 1..n
};

// A rung's knobs. Each rung documents what `chunk` means for it (elements per thread's
// time-direction chunk, or per block for g10+); `block` is threads per block.
struct Config {
  int block = 64;
  std::int64_t chunk = 0;
};

// What a launch receives: device pointers, prepared and poisoned by the harness.
struct DeviceProblem {
  Shape shape;
  std::uint64_t seed = 0;
  const std::uint32_t* d_a = nullptr;  // A[0..n), generated on the host (null for rungs that generate A)
  const std::uint32_t* d_b = nullptr;  // b[0..m)
  const std::uint8_t* d_v = nullptr;   // V[0..k), each 0 or 1
  std::uint32_t* d_answer = nullptr;   // k counts: the rung writes all of them
  void* d_scratch = nullptr;           // scratch_bytes(shape, cfg) bytes, 256-byte aligned, poisoned
};

struct RungOps {
  // "" when the rung can run this shape with this configuration, else why not (names the value).
  std::string (*check)(const Shape&, const Config&) = nullptr;
  // Bytes of scratch memory the launch needs (partial counts, tables); 0 for none.
  std::size_t (*scratch_bytes)(const Shape&, const Config&) = nullptr;
  // Enqueues every kernel and memset of one solve on the stream (checked); no host sync.
  void (*launch)(const DeviceProblem&, const Config&, CUstream_st*) = nullptr;
  // Loads the rung's kernels (lazy module loading) so that a timed pipeline does not pay for it.
  void (*prepare)(const Shape&, const Config&) = nullptr;
  // The search space of the rung's sweep, declared next to its kernel (empty: not swept).
  std::string sweep_name{};
  std::vector<int> sweep_blocks{};
  std::vector<std::int64_t> sweep_chunks{};
};

}  // namespace joseki::abc471g::gpu_api

namespace joseki::abc471g::JK_GPU_NS {

using gpu_api::Config;
using gpu_api::DeviceProblem;
using gpu_api::RungOps;
using gpu_api::Shape;

#define JK_RUNG(id, ...) RungOps id##_ops();
#include "experiments/abc471g/gpu_direct/rungs.def"
#undef JK_RUNG

}  // namespace joseki::abc471g::JK_GPU_NS
