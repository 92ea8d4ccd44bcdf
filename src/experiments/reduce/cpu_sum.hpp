// The CPU side of the reduction ladder: the reference (the ground truth every rung is
// checked against) and the two CPU rungs, one core and all cores.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/cpu/cpu_info.hpp"

namespace joseki::reduce {

// The ground truth: a plain loop accumulating in 64 bits, truncated to 32 (= the sum mod 2^32).
std::uint32_t reference_sum(const std::uint32_t* p, std::size_t n);

// cpu_one_core: one core, the compiler's auto-vectorised loop at the given SIMD level
// (Scalar = the x86-64 baseline, i.e. SSE2 vectors; AVX2; AVX-512).
std::uint32_t sum_one_core(const std::uint32_t* p, std::size_t n, cpu::SimdLevel level);
// cpu_all_cores: the same loop over chunks on every thread of ThreadPool::global().
std::uint32_t sum_all_cores(const std::uint32_t* p, std::size_t n, cpu::SimdLevel level);

}  // namespace joseki::reduce
