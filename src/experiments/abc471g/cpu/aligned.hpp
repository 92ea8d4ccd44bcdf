// A zeroed, 64-byte-aligned byte buffer (SIMD state and banks), and large zeroed buffers from mmap.
// Each owns its memory through a std::unique_ptr with the matching release (free, munmap): moves
// hand the memory over, copies are not allowed.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace joseki::abc471g::cpu {

class AlignedBytes {
 public:
  AlignedBytes() = default;
  explicit AlignedBytes(std::size_t n) : m_size(n) {
    const std::size_t rounded = (n + 63) / 64 * 64;
    m_p.reset(static_cast<std::uint8_t*>(std::aligned_alloc(64, rounded ? rounded : 64)));
    if (!m_p) throw std::bad_alloc();
    std::memset(m_p.get(), 0, rounded);
  }
  std::uint8_t* data() { return m_p.get(); }
  const std::uint8_t* data() const { return m_p.get(); }
  std::size_t size() const { return m_size; }

 private:
  struct Free {
    void operator()(std::uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint8_t, Free> m_p;
  std::size_t m_size = 0;
};

namespace detail {
struct Unmap {  // outside HugeBuffer: a nested class's default member initializer is not usable there
  std::size_t size = 0;
  void operator()(void* p) const { munmap(p, size); }
};
}  // namespace detail

// Large zeroed buffers (pair tables, FFT arrays) from mmap, with transparent huge pages asked
// for: random increments into a K^2 table otherwise pay a TLB miss (a page walk, nested under a
// hypervisor) on almost every access. Pages are zeroed by the kernel on first touch.
class HugeBuffer {
 public:
  HugeBuffer() = default;
  explicit HugeBuffer(std::size_t bytes) {
    const std::size_t size = bytes ? bytes : 1;
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, size, MADV_HUGEPAGE);  // advice only: fine if refused
    m_p = std::unique_ptr<void, detail::Unmap>(p, detail::Unmap{size});
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(m_p.get());
  }

 private:
  std::unique_ptr<void, detail::Unmap> m_p;
};

}  // namespace joseki::abc471g::cpu
