// Start-up probe CUDA_LINK: the CUDA runtime (static cudart) is linked in but never called.
// A volatile function pointer keeps cudart in the binary; it is called only when the
// program gets an impossible number of arguments, so the runtime is never initialised.
#include <cuda_runtime.h>

#include "measure/program_scope.hpp"

int main(int argc, char**) {
  joseki::measure::ProgramScope::begin();
  cudaError_t (*volatile get_count)(int*) = &cudaGetDeviceCount;
  if (argc > 1000) {
    int n = 0;
    get_count(&n);
  }
  return joseki::measure::ProgramScope::end() ? 0 : 4;
}
