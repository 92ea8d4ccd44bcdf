// Device-side clocks and placement for kernels that time their own parts: %globaltimer (ns, one clock for the whole
// GPU: compares blocks on different SMs) and %smid (the SM a block runs on). clock64() (the SM's own cycle counter)
// is CUDA's. Users: the launch probe (probes/launch_kernels.cu), the L2 probe (probes/caches_l2_kernels.cu), the
// combine's trace (abc471g gpu_pairs/sm90a, WgmmaCombineArgs::d_trace).
#pragma once

namespace joseki::cuda {

__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ int sm_id() {
  unsigned v;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(v));
  return static_cast<int>(v);
}

}  // namespace joseki::cuda
