// Start-up probe CONTEXT: cudaGetDeviceCount, then cudaFree(0), which creates the primary
// context on device 0. The context is torn down by cudart at exit: that cost lands in
// post-main, which the parent measures. Exit code 3 when either call fails.
#include <cuda_runtime.h>

#include "measure/program_scope.hpp"

int main() {
  using joseki::measure::ProgramScope;
  ProgramScope::begin();
  const double t0 = ProgramScope::elapsed_s();
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  const double t1 = ProgramScope::elapsed_s();
  ProgramScope::add("device_count_call", t1 - t0);
  if (err == cudaSuccess && n > 0) {
    err = cudaFree(nullptr);
    ProgramScope::add("context_create", ProgramScope::elapsed_s() - t1);
  } else if (err == cudaSuccess) {
    err = cudaErrorNoDevice;
  }
  ProgramScope::add("cuda_status", static_cast<double>(err));
  const bool ok = ProgramScope::end();
  return err != cudaSuccess ? 3 : (ok ? 0 : 4);
}
