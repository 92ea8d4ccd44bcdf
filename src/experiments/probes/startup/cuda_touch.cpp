// Start-up probe CUDA_TOUCH: one cudaGetDeviceCount call (loads the driver, no context).
// Without a driver or GPU this measures the failure path; the status is reported as the
// figure "cuda_status" (0 = success) and the exit code is 3.
#include <cuda_runtime.h>

#include "measure/program_scope.hpp"

int main() {
  using joseki::measure::ProgramScope;
  ProgramScope::begin();
  const double t0 = ProgramScope::elapsed_s();
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  ProgramScope::add("device_count_call", ProgramScope::elapsed_s() - t0);
  ProgramScope::add("cuda_status", static_cast<double>(err));
  ProgramScope::add("device_count", err == cudaSuccess ? n : 0);
  const bool ok = ProgramScope::end();
  return err != cudaSuccess ? 3 : (ok ? 0 : 4);
}
