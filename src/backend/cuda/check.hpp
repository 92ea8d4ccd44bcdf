// Every CUDA call and every launch checked; the message names the call, file and line.
//   JOSEKI_CUDA_CHECK(cudaMalloc(&p, n));
//   kernel<<<grid, block, 0, s>>>(...); JOSEKI_CUDA_CHECK_LAUNCH();
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "measure/errors.hpp"

namespace joseki::cuda {

// A CUDA error: exit code 1. Out of memory and "no device/driver" keep their own wording.
class CudaError : public RunError {
 public:
  CudaError(cudaError_t code, const std::string& what) : RunError(what), m_code(code) {}
  cudaError_t code() const { return m_code; }

 private:
  cudaError_t m_code;
};

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);

inline void check(cudaError_t err, const char* call, const char* file, int line) {
  if (err != cudaSuccess) throw_cuda_error(err, call, file, line);
}

}  // namespace joseki::cuda

#define JOSEKI_CUDA_CHECK(call) ::joseki::cuda::check((call), #call, __FILE__, __LINE__)
// After a launch: configuration errors show at once; with JOSEKI_SYNC_LAUNCHES=1 in the
// environment every launch is also synchronized so that a faulting kernel is named.
#define JOSEKI_CUDA_CHECK_LAUNCH() ::joseki::cuda::check_launch(__FILE__, __LINE__)

namespace joseki::cuda {
void check_launch(const char* file, int line);
}
