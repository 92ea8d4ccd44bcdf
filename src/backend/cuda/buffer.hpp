// RAII buffers: device memory (cudaMalloc) and pinned host memory (cudaMallocHost).
// Move-only; sizes in elements. Allocation failures throw CudaError naming the size.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "backend/cuda/check.hpp"

namespace joseki::cuda {

// Throws CudaError; out of memory says how much was asked for and how much is free.
void check_alloc(cudaError_t err, std::size_t bytes, const char* what);

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) : m_n(n) {
    if (n) check_alloc(cudaMalloc(reinterpret_cast<void**>(&m_p), n * sizeof(T)), n * sizeof(T), "cudaMalloc");
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : m_p(std::exchange(o.m_p, nullptr)), m_n(std::exchange(o.m_n, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      m_p = std::exchange(o.m_p, nullptr);
      m_n = std::exchange(o.m_n, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void reset() noexcept {
    if (m_p) cudaFree(m_p);  // errors here are unreportable; a sticky error shows at the next checked call
    m_p = nullptr;
    m_n = 0;
  }
  T* data() const { return m_p; }
  std::size_t size() const { return m_n; }
  std::size_t bytes() const { return m_n * sizeof(T); }

  void copy_from_host(const T* src, std::size_t n, cudaStream_t s = nullptr) {
    JOSEKI_CUDA_CHECK(cudaMemcpyAsync(m_p, src, n * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void copy_to_host(T* dst, std::size_t n, cudaStream_t s = nullptr) const {
    JOSEKI_CUDA_CHECK(cudaMemcpyAsync(dst, m_p, n * sizeof(T), cudaMemcpyDeviceToHost, s));
  }
  // Fill every byte with `byte` (poisoning before a run: 0xA5 by default).
  void poison(cudaStream_t s = nullptr, int byte = 0xA5) {
    if (m_n) JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_p, byte, bytes(), s));
  }

 private:
  T* m_p = nullptr;
  std::size_t m_n = 0;
};

template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t n) : m_n(n) {
    if (n) check_alloc(cudaMallocHost(reinterpret_cast<void**>(&m_p), n * sizeof(T)), n * sizeof(T), "cudaMallocHost");
  }
  ~PinnedBuffer() {
    if (m_p) cudaFreeHost(m_p);
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept : m_p(std::exchange(o.m_p, nullptr)), m_n(std::exchange(o.m_n, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    std::swap(m_p, o.m_p);
    std::swap(m_n, o.m_n);
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* data() const { return m_p; }
  T& operator[](std::size_t i) const { return m_p[i]; }
  std::size_t size() const { return m_n; }
  std::size_t bytes() const { return m_n * sizeof(T); }

 private:
  T* m_p = nullptr;
  std::size_t m_n = 0;
};

// A stream owned by RAII.
// A CUDA event: ordering between streams (default), or timed (cudaEventElapsedTime).
class Event {
 public:
  explicit Event(bool timed = false) {
    JOSEKI_CUDA_CHECK(cudaEventCreateWithFlags(&m_e, timed ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~Event() {
    if (m_e) cudaEventDestroy(m_e);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  operator cudaEvent_t() const { return m_e; }

 private:
  cudaEvent_t m_e = nullptr;
};

class Stream {
 public:
  Stream() { JOSEKI_CUDA_CHECK(cudaStreamCreateWithFlags(&m_s, cudaStreamNonBlocking)); }
  // A stream whose pending blocks the scheduler serves after those of default-priority streams.
  static Stream lowest_priority() {
    int least = 0, greatest = 0;
    JOSEKI_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    Stream st(0);
    JOSEKI_CUDA_CHECK(cudaStreamCreateWithPriority(&st.m_s, cudaStreamNonBlocking, least));
    return st;
  }
  Stream(Stream&& o) noexcept : m_s(o.m_s) { o.m_s = nullptr; }
  ~Stream() {
    if (m_s) cudaStreamDestroy(m_s);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return m_s; }

 private:
  explicit Stream(int) {}  // no stream yet (lowest_priority creates it)

 public:
  operator cudaStream_t() const { return m_s; }
  void sync() const { JOSEKI_CUDA_CHECK(cudaStreamSynchronize(m_s)); }

 private:
  cudaStream_t m_s = nullptr;
};

}  // namespace joseki::cuda
