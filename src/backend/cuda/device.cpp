// Device layer: error reporting, availability, device facts.
#include <cuda_runtime.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include <fmt/format.h>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/check.hpp"
#include "backend/cuda/kernels.hpp"
#include "backend/gpu.hpp"
#include "backend/nvml.hpp"
#include "measure/build_info.hpp"
#include "measure/needs.hpp"

namespace joseki::cuda {

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  cudaGetLastError();  // clear a non-sticky error so that later calls are not confused by it
  std::string where = file;
  if (auto p = where.rfind("/src/"); p != std::string::npos) where = where.substr(p + 1);
  const std::string msg = fmt::format("CUDA error {} ({}): {} in {} at {}:{}", static_cast<int>(err),
                                      cudaGetErrorName(err), cudaGetErrorString(err), call, where, line);
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
    throw GpuUnavailable(msg);
  throw CudaError(err, msg);
}

void check_launch(const char* file, int line) {
  check(cudaGetLastError(), "kernel launch", file, line);
  static const bool sync = [] {
    const char* e = std::getenv("JOSEKI_SYNC_LAUNCHES");
    return e && *e && std::string(e) != "0";
  }();
  if (sync) check(cudaDeviceSynchronize(), "kernel execution (JOSEKI_SYNC_LAUNCHES)", file, line);
}

void check_alloc(cudaError_t err, std::size_t bytes, const char* what) {
  if (err == cudaSuccess) return;
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    throw CudaError(err, fmt::format("out of memory: {} of {:.3f} GB failed ({:.3f} GB free of {:.3f} GB)", what,
                                     bytes / 1e9, free_b / 1e9, total_b / 1e9));
  }
  throw_cuda_error(err, what, __FILE__, __LINE__);
}

}  // namespace joseki::cuda

namespace joseki::gpu {

Availability availability() {
  Availability a;
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (err == cudaErrorInsufficientDriver)
      a.reason = "no usable NVIDIA driver (CUDA reports: " + std::string(cudaGetErrorString(err)) + ")";
    else if (err == cudaErrorNoDevice)
      a.reason = "no CUDA-capable GPU found";
    else
      a.reason = fmt::format("CUDA cannot be initialised: {} ({})", cudaGetErrorName(err), cudaGetErrorString(err));
    return a;
  }
  a.device_count = n;
  a.ok = n > 0;
  if (!a.ok) a.reason = "no CUDA-capable GPU found";
  return a;
}

void require_device(int device) {
  const Availability a = availability();
  if (!a.ok) throw GpuUnavailable(a.reason);
  if (device < 0 || device >= a.device_count)
    throw InputError(fmt::format("--device {}: out of range (this machine has {} GPU{}: 0..{})", device,
                                 a.device_count, a.device_count == 1 ? "" : "s", a.device_count - 1));
  JOSEKI_CUDA_CHECK(cudaSetDevice(device));
}

namespace {

int attr(int device, cudaDeviceAttr a) {
  int v = 0;
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&v, a, device));
  return v;
}

}  // namespace

measure::DeviceFacts device_facts(int device) {
  require_device(device);
  cudaDeviceProp p{};
  JOSEKI_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  measure::DeviceFacts d;
  d.present = true;
  d.index = device;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.warp_size = p.warpSize;
  d.l2_bytes = p.l2CacheSize;
  d.global_mem_bytes = static_cast<std::int64_t>(p.totalGlobalMem);
  d.smem_per_sm = static_cast<std::int64_t>(p.sharedMemPerMultiprocessor);
  d.smem_per_block_optin = static_cast<std::int64_t>(p.sharedMemPerBlockOptin);
  d.regs_per_sm = p.regsPerMultiprocessor;
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.sm_clock_khz = attr(device, cudaDevAttrClockRate);
  d.mem_clock_khz = attr(device, cudaDevAttrMemoryClockRate);
  d.bus_width_bits = attr(device, cudaDevAttrGlobalMemoryBusWidth);
  JOSEKI_CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  JOSEKI_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  char bus[64] = {};
  JOSEKI_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, device));
  d.pci_bus_id = bus;
  d.nvml = nvml::device_facts(d.pci_bus_id);  // persistence / ECC mode, power limit, other processes
  // Which of this binary's device code runs here (require_device made `device` current): loads the
  // module for it (the driver compiles PTX now when the binary has no SASS for this GPU).
  d.code_arch = cuda::code_version().ptx;
  d.code_jit = !measure::has_sass_for(measure::build_info().cuda_architectures, p.major, p.minor);
  return d;
}

const measure::DeviceFacts& needs_facts(int device) {
  static std::mutex mu;
  static std::map<int, measure::DeviceFacts> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(device); it != cache.end()) return it->second;
  require_device(device);
  measure::DeviceFacts d;
  d.present = true;
  d.index = device;
  d.cc_major = attr(device, cudaDevAttrComputeCapabilityMajor);
  d.cc_minor = attr(device, cudaDevAttrComputeCapabilityMinor);
  d.smem_per_block_optin = attr(device, cudaDevAttrMaxSharedMemoryPerBlockOptin);
  d.code_arch = cuda::code_version().ptx;
  d.code_jit = !measure::has_sass_for(measure::build_info().cuda_architectures, d.cc_major, d.cc_minor);
  return cache.emplace(device, d).first->second;
}

void create_context_only(int device) {
  require_device(device);
  JOSEKI_CUDA_CHECK(cudaFree(nullptr));
}

}  // namespace joseki::gpu
