// The facts of six real GPUs, from a T4 to a B200, for the planner tests (test_*_gpu_facts.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "measure/record.hpp"

namespace joseki::test {

struct Gpu {
  const char* name;
  int major, minor;
  int sms;
  std::int64_t l2, smem_per_sm, smem_optin;
  int regs_per_sm, max_threads_per_sm;
  std::int64_t reserved_per_block;  // shared memory the runtime keeps per block (1 KiB from sm_80)
};

// NVIDIA's CUDA C++ Programming Guide (compute capability tables) and the product pages.
inline const std::vector<Gpu>& gpus() {
  static const std::vector<Gpu> v = {
      {"Tesla T4", 7, 5, 40, 4 << 20, 64 << 10, 64 << 10, 65536, 1024, 0},
      {"A100-SXM4-40GB", 8, 0, 108, 40 << 20, 164 << 10, 163 << 10, 65536, 2048, 1024},
      {"RTX 3060 Laptop", 8, 6, 30, 3 << 20, 100 << 10, 99 << 10, 65536, 1536, 1024},
      {"RTX 4090", 8, 9, 128, 72 << 20, 100 << 10, 99 << 10, 65536, 1536, 1024},
      {"H200", 9, 0, 132, 60 << 20, 228 << 10, 227 << 10, 65536, 2048, 1024},
      {"B200", 10, 0, 148, std::int64_t{126} << 20, 228 << 10, 227 << 10, 65536, 2048, 1024},
  };
  return v;
}

inline measure::DeviceFacts facts(const Gpu& g) {
  measure::DeviceFacts d;
  d.present = true;
  d.name = g.name;
  d.cc_major = g.major;
  d.cc_minor = g.minor;
  d.sm_count = g.sms;
  d.warp_size = 32;
  d.l2_bytes = g.l2;
  d.smem_per_sm = g.smem_per_sm;
  d.smem_per_block_optin = g.smem_optin;
  d.regs_per_sm = g.regs_per_sm;
  d.max_threads_per_sm = g.max_threads_per_sm;
  d.code_arch = g.major * 10 + g.minor;  // the fat binary: native SASS for each of them
  return d;
}

}  // namespace joseki::test
