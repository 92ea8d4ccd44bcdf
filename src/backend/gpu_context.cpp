// gpu::holds_context(): whether this process holds a CUDA primary context now, asked of the
// driver only if it is already loaded (RTLD_NOLOAD: asking must not load it, nor create a
// context). The same code in a CUDA and a CPU-only build: without a loaded driver the answer is no.
#include <dlfcn.h>

#include "backend/gpu.hpp"

namespace joseki::gpu {

bool holds_context() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return false;
  using GetCount = int (*)(int*);                     // cuDeviceGetCount
  using DeviceGet = int (*)(int*, int);               // cuDeviceGet
  using CtxState = int (*)(int, unsigned*, int*);     // cuDevicePrimaryCtxGetState
  const auto count = reinterpret_cast<GetCount>(dlsym(lib, "cuDeviceGetCount"));
  const auto get = reinterpret_cast<DeviceGet>(dlsym(lib, "cuDeviceGet"));
  const auto state = reinterpret_cast<CtxState>(dlsym(lib, "cuDevicePrimaryCtxGetState"));
  bool active = false;
  int n = 0;
  if (count && get && state && count(&n) == 0)  // not initialised (no cuInit yet): no context
    for (int i = 0; i < n && !active; ++i) {
      int dev = 0, on = 0;
      unsigned flags = 0;
      active = get(&dev, i) == 0 && state(dev, &flags, &on) == 0 && on != 0;
    }
  dlclose(lib);
  return active;
}

}  // namespace joseki::gpu
