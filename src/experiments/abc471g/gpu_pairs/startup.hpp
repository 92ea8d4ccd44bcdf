// Start-up cost of a GPU solve, and what can be cut (issue 6, item 3).
//
// A process that solves one input on the GPU pays, before its first kernel: driver
// initialisation (cudaGetDeviceCount, ~0.1 s on the H200 host), creation of the primary
// context (cudaFree(0)), the module load of the first kernel (lazy by default since CUDA 12.2),
// and after main: the CUDA runtime's teardown (context destruction) and process exit.
//   begin_context_async(device)  creates the context on a second thread while the input is
//                                read and parsed (call it first thing in the command), and
//                                optionally loads cuBLASLt on a third (gpu-pairs' GEMM, ~50 ms);
//   await_context(device)        joins it (or creates the context now when nothing was started);
//   fast_exit(code)              flushes every output stream and ends the process without the
//                                CUDA teardown (no static destructors, no atexit handlers).
// Pure C++ over backend/gpu.hpp: in a CPU-only build begin_context_async does nothing and
// await_context throws GpuUnavailable.
#pragma once

namespace joseki::abc471g::pairs::startup {

// libraries: also load the GPU libraries the solve dlopens (cuBLASLt for gpu-pairs) on a third
// thread, beside the context creation.
void begin_context_async(int device, bool libraries = false);

// Seconds this call spent waiting for (or creating) the context. Throws GpuUnavailable when
// there is no usable GPU, InputError when the device index is out of range, CudaError otherwise.
double await_context(int device);

struct ContextTimes {
  bool started = false;       // a context was created by begin_context_async or await_context
  bool async = false;         // ... on the background thread
  double driver_init_s = 0;   // cudaGetDeviceCount (driver load and initialisation)
  double context_s = 0;       // cudaSetDevice + cudaFree(0) (primary context creation)
  double waited_s = 0;        // what await_context spent on the calling thread
};
ContextTimes context_times();

// Only after all GPU work has completed and every output (stdout, --json, the scope report)
// has been written: the driver reclaims the context when the process's descriptors close.
[[noreturn]] void fast_exit(int code);

}  // namespace joseki::abc471g::pairs::startup
