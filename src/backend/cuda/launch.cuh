// A kernel launched as a programmatic dependent of the previous kernel in its stream
// (cudaLaunchAttributeProgrammaticStreamSerialization, sm_90+): its blocks may start while that kernel's last
// blocks run, once each of them has executed griddepcontrol.launch_dependents (or ended); the kernel must execute
// griddepcontrol.wait before it reads what the previous kernel writes. `allowed` false: a plain stream-ordered launch
// through the same call (for code built without griddepcontrol, which cannot wait). Checked, launch included.
// Users: the fused histograms (abc471g gpu_pairs r04), r38's combine (gpu_pairs/sm90a).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "backend/cuda/check.hpp"

namespace joseki::cuda {

template <class... K, class... A>
void launch_programmatic(void (*kernel)(K...), dim3 grid, dim3 block, std::size_t smem, cudaStream_t s, bool allowed,
                         A&&... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = allowed ? 1 : 0;
  JOSEKI_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, static_cast<K>(args)...));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::cuda
