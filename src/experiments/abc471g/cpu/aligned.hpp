// A zeroed, 64-byte-aligned byte buffer (SIMD state and banks).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace joseki::abc471g::cpu {

class AlignedBytes {
 public:
  AlignedBytes() = default;
  explicit AlignedBytes(std::size_t n) : m_size(n) {
    const std::size_t rounded = (n + 63) / 64 * 64;
    m_p = static_cast<std::uint8_t*>(std::aligned_alloc(64, rounded ? rounded : 64));
    if (!m_p) throw std::bad_alloc();
    std::memset(m_p, 0, rounded);
  }
  ~AlignedBytes() { std::free(m_p); }
  AlignedBytes(AlignedBytes&& o) noexcept : m_p(o.m_p), m_size(o.m_size) { o.m_p = nullptr; }
  AlignedBytes& operator=(AlignedBytes&& o) noexcept {
    std::swap(m_p, o.m_p);
    std::swap(m_size, o.m_size);
    return *this;
  }
  AlignedBytes(const AlignedBytes&) = delete;
  AlignedBytes& operator=(const AlignedBytes&) = delete;
  std::uint8_t* data() { return m_p; }
  const std::uint8_t* data() const { return m_p; }
  std::size_t size() const { return m_size; }

 private:
  std::uint8_t* m_p = nullptr;
  std::size_t m_size = 0;
};

// Large zeroed buffers (pair tables, FFT arrays) from mmap, with transparent huge pages asked
// for: random increments into a K^2 table otherwise pay a TLB miss (a page walk, nested under a
// hypervisor) on almost every access. Pages are zeroed by the kernel on first touch.
class HugeBuffer {
 public:
  HugeBuffer() = default;
  explicit HugeBuffer(std::size_t bytes) : m_size(bytes ? bytes : 1) {
    void* p = mmap(nullptr, m_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, m_size, MADV_HUGEPAGE);  // advice only: fine if refused
    m_p = p;
  }
  ~HugeBuffer() {
    if (m_p) munmap(m_p, m_size);
  }
  HugeBuffer(HugeBuffer&& o) noexcept : m_p(o.m_p), m_size(o.m_size) { o.m_p = nullptr; }
  HugeBuffer& operator=(HugeBuffer&& o) noexcept {
    std::swap(m_p, o.m_p);
    std::swap(m_size, o.m_size);
    return *this;
  }
  HugeBuffer(const HugeBuffer&) = delete;
  HugeBuffer& operator=(const HugeBuffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(m_p);
  }

 private:
  void* m_p = nullptr;
  std::size_t m_size = 0;
};

}  // namespace joseki::abc471g::cpu
