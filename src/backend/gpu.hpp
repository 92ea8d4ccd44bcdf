// The GPU as seen from pure C++ code (the CLI, experiments' host code). Implemented by
// backend/cuda/*.cu in a CUDA build and by backend/gpu_absent.cpp in a CPU-only build,
// so everything above this line compiles without nvcc.
#pragma once

#include <string>
#include <vector>

#include "measure/record.hpp"
#include "measure/stopping.hpp"

namespace joseki::gpu {

struct Availability {
  bool ok = false;
  int device_count = 0;
  std::string reason;  // why not, in one line, when !ok
};

// Never throws. Built without CUDA, no driver, no device: ok == false with the reason.
Availability availability();

// Throws GpuUnavailable (no GPU) or InputError (index out of range, naming it).
void require_device(int device);

// Facts of one device (name, compute capability, SMs, L2, clocks, ...). Throws like require_device.
measure::DeviceFacts device_facts(int device);

// The facts measure::unmet() reads (present, compute capability, the architecture of the code this
// binary runs there, shared memory per block), cheap and cached per device: for solvers that check
// their needs on every call. Throws like require_device.
const measure::DeviceFacts& needs_facts(int device);

struct CeilingOptions {
  measure::StoppingRule rule;
  bool include_context_creation = true;  // spawns child processes
  std::string self_exe;                  // path of the joseki binary, for the context-creation child
};

// Measured limits of this device: device-to-device copy, stream read, kernel launch
// latency, pageable and pinned host<->device copies, context creation (child process).
// One record each, scope GPU_COMPUTE or EXTERNAL, with the figure in extra["value"].
std::vector<measure::Record> measure_ceilings(int device, const CeilingOptions& opt);

// The seed's WORK1 sanity run: detect -> copy in -> small kernel -> synchronize ->
// copy out -> verify. Returns records (event time of the kernel, wall time of the
// whole round trip) and throws ValidationError if the result is wrong.
struct CheckReport {
  std::string summary;  // human-readable lines
  std::vector<measure::Record> records;
};
CheckReport run_check(int device);

// Whether this process holds a CUDA primary context now (never creates one; false without a
// loaded driver). The four-scope runner records it on EXTERNAL records (extra.parent_gpu_context):
// a parent with a live context shares the device with the child it times.
bool holds_context();

// For `joseki device --context-child`: create a context (cudaFree(0)) and return.
void create_context_only(int device);

// Loads the GPU libraries a solve may dlopen later (cuBLASLt: ~50 ms on the H200 host), so that a
// caller can do it on a spare thread while the context is created. Never throws; a library that
// is missing is reported by its user. No-op without CUDA.
void preload_libraries();

}  // namespace joseki::gpu
