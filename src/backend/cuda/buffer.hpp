// RAII buffers: device memory (cudaMalloc) and pinned host memory (cudaMallocHost), and CUDA
// events and streams. Move-only; sizes in elements. Allocation failures throw CudaError naming the size.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "backend/cuda/check.hpp"

namespace joseki::cuda {

// Throws CudaError; out of memory says how much was asked for and how much is free.
void check_alloc(cudaError_t err, std::size_t bytes, const char* what);

// A CUDA handle (an allocation, an event, a stream) owned by RAII: move-only, handed back with
// `Release` (cudaFree, cudaEventDestroy, ...) when destroyed or reset. A release error is not
// reportable there; a sticky error shows at the next checked call.
template <class H, auto Release>
class Owned {
 public:
  Owned() = default;
  explicit Owned(H h) : m_h(h) {}
  ~Owned() { reset(); }
  Owned(Owned&& o) noexcept : m_h(std::exchange(o.m_h, H{})) {}
  Owned& operator=(Owned&& o) noexcept {
    if (this != &o) {
      reset();
      m_h = std::exchange(o.m_h, H{});
    }
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  void reset() noexcept {
    if (m_h) Release(m_h);
    m_h = H{};
  }
  H get() const { return m_h; }

 private:
  H m_h{};
};

// n elements of T from an allocator with its `Free`; the buffers below add what their memory allows.
template <class T, auto Free>
class OwnedArray {
 public:
  OwnedArray() = default;
  OwnedArray(OwnedArray&& o) noexcept : m_p(std::move(o.m_p)), m_n(std::exchange(o.m_n, 0)) {}
  OwnedArray& operator=(OwnedArray&& o) noexcept {
    if (this != &o) {
      m_p = std::move(o.m_p);
      m_n = std::exchange(o.m_n, 0);
    }
    return *this;
  }
  void reset() noexcept {
    m_p.reset();
    m_n = 0;
  }
  T* data() const { return m_p.get(); }
  std::size_t size() const { return m_n; }
  std::size_t bytes() const { return m_n * sizeof(T); }

 protected:
  // alloc(void**, bytes) -> cudaError_t, checked (out of memory names the size).
  template <class Alloc>
  OwnedArray(std::size_t n, Alloc alloc, const char* what) {
    if (!n) return;
    void* p = nullptr;
    check_alloc(alloc(&p, n * sizeof(T)), n * sizeof(T), what);
    m_p = Owned<T*, Free>(static_cast<T*>(p));
    m_n = n;
  }

 private:
  Owned<T*, Free> m_p;
  std::size_t m_n = 0;
};

template <class T>
class DeviceBuffer : public OwnedArray<T, cudaFree> {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n)
      : OwnedArray<T, cudaFree>(n, [](void** p, std::size_t b) { return cudaMalloc(p, b); }, "cudaMalloc") {}

  void copy_from_host(const T* src, std::size_t n, cudaStream_t s = nullptr) {
    JOSEKI_CUDA_CHECK(cudaMemcpyAsync(this->data(), src, n * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void copy_to_host(T* dst, std::size_t n, cudaStream_t s = nullptr) const {
    JOSEKI_CUDA_CHECK(cudaMemcpyAsync(dst, this->data(), n * sizeof(T), cudaMemcpyDeviceToHost, s));
  }
  // Fill every byte with `byte` (poisoning before a run: 0xA5 by default).
  void poison(cudaStream_t s = nullptr, int byte = 0xA5) {
    if (this->size()) JOSEKI_CUDA_CHECK(cudaMemsetAsync(this->data(), byte, this->bytes(), s));
  }
};

template <class T>
class PinnedBuffer : public OwnedArray<T, cudaFreeHost> {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t n)
      : OwnedArray<T, cudaFreeHost>(n, [](void** p, std::size_t b) { return cudaMallocHost(p, b); },
                                    "cudaMallocHost") {}
  T& operator[](std::size_t i) const { return this->data()[i]; }
};

// A CUDA event: ordering between streams (default), or timed (cudaEventElapsedTime).
class Event {
 public:
  explicit Event(bool timed = false) {
    cudaEvent_t e = nullptr;
    JOSEKI_CUDA_CHECK(cudaEventCreateWithFlags(&e, timed ? cudaEventDefault : cudaEventDisableTiming));
    m_e = Owned<cudaEvent_t, cudaEventDestroy>(e);
  }
  operator cudaEvent_t() const { return m_e.get(); }

 private:
  Owned<cudaEvent_t, cudaEventDestroy> m_e;
};

// A non-blocking stream owned by RAII.
class Stream {
 public:
  Stream() {
    cudaStream_t s = nullptr;
    JOSEKI_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    m_s = Owned<cudaStream_t, cudaStreamDestroy>(s);
  }
  // A stream whose pending blocks the scheduler serves after those of default-priority streams.
  static Stream lowest_priority() {
    int least = 0, greatest = 0;
    JOSEKI_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaStream_t s = nullptr;
    JOSEKI_CUDA_CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, least));
    return Stream(s);
  }
  cudaStream_t get() const { return m_s.get(); }
  operator cudaStream_t() const { return m_s.get(); }
  void sync() const { JOSEKI_CUDA_CHECK(cudaStreamSynchronize(get())); }

 private:
  explicit Stream(cudaStream_t s) : m_s(s) {}
  Owned<cudaStream_t, cudaStreamDestroy> m_s;
};

}  // namespace joseki::cuda
