#include "backend/cuda/tensor_map.hpp"

#include <cuda_runtime.h>

#include <mutex>

namespace joseki::cuda {

TensorMapEncodeTiled tensor_map_encoder(std::string* why) {
  static std::once_flag once;
  static TensorMapEncodeTiled fn = nullptr;
  static std::string reason;
  std::call_once(once, [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    const cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p)
      reason = std::string("the driver has no cuTensorMapEncodeTiled (") + cudaGetErrorString(e) + ")";
    else
      fn = reinterpret_cast<TensorMapEncodeTiled>(p);
  });
  if (!fn && why) *why = reason;
  return fn;
}

}  // namespace joseki::cuda
