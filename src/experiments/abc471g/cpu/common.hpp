// Host-side helpers shared by the CPU solvers: the kernel set for a SIMD level, the thread pool
// for --threads, and streaming generation across the M boundary.
#pragma once

#include <cstdint>
#include <memory>

#include "backend/cpu/cpu_info.hpp"
#include "backend/cpu/parallel.hpp"
#include "experiments/abc471g/cpu/kernels.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g::cpu {

// The kernels for a level; never above what this CPU has (a higher request is lowered).
const KernelSet& kernel_set(joseki::cpu::SimdLevel level);

// A CPU solver (needs no GPU) that runs at the SIMD level chosen at run time (simd_level()).
using LevelSolveFn = SolveResult (*)(const Problem&, const SolveOptions&, joseki::cpu::SimdLevel);
Solver simd_solver(const char* name, const char* description, int order, LevelSolveFn solve);

// The pool to use for `threads` workers (0 = all): the global pool when it fits, else a local
// one kept alive by `holder`.
joseki::cpu::ThreadPool& pool_for(int threads, std::unique_ptr<joseki::cpu::ThreadPool>& holder);
int thread_count(int threads);  // 0 -> the global pool's size

// The LCG state that generates element i (i >= M), or the state for element M when i < M.
std::uint64_t state_at(const Problem& p, std::uint64_t i);

// Writes A_i (stride == 0) or its bank offset (a & 7) * stride + (a >> 3) for i in [i, i + n).
// `state` must be state_at(p, i); returns state_at(p, i + n).
std::uint64_t fill(const Problem& p, const KernelSet& ks, std::uint64_t i, std::size_t n, std::uint64_t state,
                   std::uint32_t stride, std::uint32_t* out);

}  // namespace joseki::abc471g::cpu
