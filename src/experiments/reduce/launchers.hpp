// The GPU rungs' launchers, one per .cu file (defined only in a CUDA build; the registry
// refers to them under JOSEKI_HAVE_CUDA). std headers only, so that g++ and nvcc both read it.
#pragma once

#include <cstddef>

#include "experiments/reduce/rung.hpp"

namespace joseki::reduce {

// r00: cub::DeviceReduce::Sum; its workspace is CUB's temporary storage.
std::size_t r00_cub_workspace(std::size_t n);
void launch_r00_cub(const GpuArgs& a, CUstream_st* s);

void launch_r01_atomic(const GpuArgs& a, CUstream_st* s);
std::size_t r01b_workspace(std::size_t n);  // 32 zero slot indices
void launch_r01b_atomic_opaque(const GpuArgs& a, CUstream_st* s);
void launch_r02_shared_tree(const GpuArgs& a, CUstream_st* s);
void launch_r03_coarsen(const GpuArgs& a, CUstream_st* s);
void launch_r04_warp_shuffle(const GpuArgs& a, CUstream_st* s);
void launch_r04b_warp_redux(const GpuArgs& a, CUstream_st* s);
void launch_r05_vector_loads(const GpuArgs& a, CUstream_st* s);

std::size_t single_pass_workspace(std::size_t n);  // sizeof(SinglePassState)
void launch_r06_single_pass(const GpuArgs& a, CUstream_st* s);
void launch_r07_load_hints(const GpuArgs& a, CUstream_st* s);
void launch_r08_bulk_copy(const GpuArgs& a, CUstream_st* s);
void launch_r09_packed_ticket(const GpuArgs& a, CUstream_st* s);  // workspace: single_pass_workspace
void launch_r10_two_slot(const GpuArgs& a, CUstream_st* s);       // Output::TwoSlot, no workspace
void launch_r11_bulk_slab(const GpuArgs& a, CUstream_st* s);      // workspace: single_pass_workspace

}  // namespace joseki::reduce
