// A host emulation of the small CUDA subset the gpu_direct kernels use, so that the unit tests
// run every rung's own kernel code on a machine without a GPU (g++, no CUDA headers).
//
// A test defines JOSEKI_GPU_EMULATION and includes the rungs' .cu files: kernels become plain
// functions, launches (JK_LAUNCH) run them here, "device" pointers are host pointers. Each CUDA
// thread of a block is a fiber (ucontext) on one OS thread; a fiber runs until __syncthreads(),
// where it yields; when every thread of the block has arrived the barrier opens. A barrier that
// some threads can never reach (a thread exited before it, or waits elsewhere) is reported as an
// error, as compute-sanitizer's synccheck would. Between barriers the threads of a block run
// one after another, in forward or reverse order (Options::order): a kernel whose result depends
// on that order has a missing barrier. __shared__ variables are function statics, shared by the
// fibers of a block as they should be; dynamic shared memory is filled with 0xCD before every
// block, so reading it before writing shows. Warp shuffles (__shfl_xor_sync, g14 and g15) are
// modelled as a block-wide exchange at a barrier: right for kernels in which every thread of the
// block executes the same sequence of full-warp shuffles (the emulator checks full masks and full
// warps). What this does not model: other warp primitives, memory-model races inside one barrier
// interval on the real device (compute-sanitizer racecheck does that on the GPU host), timing.
#pragma once

#include <ucontext.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

struct CUstream_st;
using cudaStream_t = CUstream_st*;
using cudaError_t = int;
inline constexpr cudaError_t cudaSuccess = 0;

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct uint4 {
  unsigned x, y, z, w;
};

enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize };
enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount };
struct cudaFuncAttributes {
  int numRegs = 0;
  std::size_t sharedSizeBytes = 0;
};

namespace joseki::abc471g::emu {

enum class Order { Forward, Reverse };

struct Options {
  int sm_count = 3;           // what cudaDeviceGetAttribute(MultiProcessorCount) answers
  int blocks_per_sm = 1;      // what the occupancy query answers
  Order order = Order::Forward;
  std::size_t stack_bytes = 256 * 1024;
  // The GPU's shared memory per block (opt-in): a launch or a cudaFuncSetAttribute above it fails,
  // as on the GPU (tests set a T4's 64 KiB .. an H200's 227 KiB).
  std::size_t smem_optin = 227 * 1024;
};

inline Options& options() {
  static Options o;
  return o;
}

struct Fiber {
  ucontext_t ctx{};
  dim3 tid;
  bool done = false;
  bool waiting = false;  // at __syncthreads() or at a shuffle
  bool at_shuffle = false;
  unsigned shuffles = 0;  // shuffles done: their parity picks the exchange buffer
};

struct Runtime {
  dim3 grid, block, block_idx;
  std::vector<unsigned char> dyn_smem;
  std::vector<Fiber> fibers;
  std::vector<void*> stacks;
  int current = -1;
  ucontext_t scheduler{};
  const std::function<void()>* body = nullptr;
  bool in_kernel = false;
  bool direct = false;  // the block's threads run as plain calls (no barrier in this block)
  std::vector<std::uint64_t> exchange[2];  // one value per thread, for shuffles of even / odd number
  std::uint64_t launches = 0;

  ~Runtime() {
    for (void* s : stacks) std::free(s);
  }
};

inline Runtime& rt() {
  static Runtime r;
  return r;
}

inline void trampoline() {
  Runtime& r = rt();
  (*r.body)();
  r.fibers[static_cast<std::size_t>(r.current)].done = true;
  // returning resumes the scheduler (uc_link)
}

inline std::string dims(dim3 d);

inline void syncthreads(bool shuffle = false) {
  Runtime& r = rt();
  if (r.direct)
    throw std::logic_error("emu: __syncthreads() in block " + dims(r.block_idx) + " reached by thread " +
                           std::to_string(r.current) + " but not by the first thread, which exited (divergent barrier)");
  Fiber& f = r.fibers[static_cast<std::size_t>(r.current)];
  f.waiting = true;
  f.at_shuffle = shuffle;
  swapcontext(&f.ctx, &r.scheduler);
}

inline dim3 thread_idx() { return rt().fibers[static_cast<std::size_t>(rt().current)].tid; }
inline unsigned char* dynamic_smem() { return rt().dyn_smem.data(); }

inline std::string dims(dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

inline void start_fiber(Runtime& r, unsigned i) {
  if (r.stacks.size() <= i) {
    for (std::size_t j = r.stacks.size(); j <= i; ++j) {
      void* s = std::malloc(options().stack_bytes);
      if (!s) throw std::bad_alloc();
      r.stacks.push_back(s);
    }
  }
  Fiber& f = r.fibers[i];
  getcontext(&f.ctx);
  f.ctx.uc_stack.ss_sp = r.stacks[i];
  f.ctx.uc_stack.ss_size = options().stack_bytes;
  f.ctx.uc_link = &r.scheduler;
  makecontext(&f.ctx, trampoline, 0);
}

// Runs every thread of the current block to completion, barrier by barrier. The first thread runs
// as a fiber; if it finishes without reaching a barrier, the block has none (a barrier that the
// first thread skips would be divergent), and the other threads run as plain calls, which is much
// faster. A later thread that does reach a barrier is then reported as a divergent barrier.
inline void run_block(unsigned threads) {
  Runtime& r = rt();
  const Options& o = options();
  const auto order = [&](unsigned n) { return o.order == Order::Forward ? n : threads - 1 - n; };
  r.fibers.assign(threads, Fiber{});
  for (unsigned i = 0; i < threads; ++i)
    r.fibers[i].tid = dim3(i % r.block.x, (i / r.block.x) % r.block.y, i / (r.block.x * r.block.y));
  const unsigned first = order(0);
  start_fiber(r, first);
  r.current = static_cast<int>(first);
  swapcontext(&r.scheduler, &r.fibers[first].ctx);
  if (r.fibers[first].done) {
    r.direct = true;
    for (unsigned n = 1; n < threads; ++n) {
      const unsigned i = order(n);
      r.current = static_cast<int>(i);
      (*r.body)();
      r.fibers[i].done = true;
    }
    r.direct = false;
    return;
  }
  for (unsigned i = 0; i < threads; ++i)
    if (i != first) start_fiber(r, i);
  for (;;) {
    for (unsigned n = 0; n < threads; ++n) {
      const unsigned i = order(n);
      Fiber& f = r.fibers[i];
      if (f.done || f.waiting) continue;
      r.current = static_cast<int>(i);
      swapcontext(&r.scheduler, &f.ctx);
    }
    unsigned done = 0, waiting = 0;
    for (const Fiber& f : r.fibers) {
      done += f.done ? 1u : 0u;
      waiting += f.waiting ? 1u : 0u;
    }
    if (done == threads) return;
    if (done != 0)
      throw std::logic_error("emu: __syncthreads() in block " + dims(r.block_idx) + ": " + std::to_string(waiting) +
                             " threads wait at a barrier that " + std::to_string(done) +
                             " exited threads never reach (divergent barrier)");
    for (const Fiber& f : r.fibers)
      if (f.at_shuffle != r.fibers[0].at_shuffle)
        throw std::logic_error("emu: in block " + dims(r.block_idx) +
                               " some threads wait at a shuffle, others at __syncthreads(): the emulated "
                               "shuffles need every thread of the block to run the same shuffles");
    for (Fiber& f : r.fibers) f.waiting = false;  // everyone arrived: open the barrier
  }
}

// Runs a kernel launch synchronously: every block in order, every thread as a fiber.
inline void launch(dim3 grid, dim3 block, std::size_t smem_bytes, const std::function<void()>& body) {
  Runtime& r = rt();
  if (r.in_kernel) throw std::logic_error("emu: launch from inside a kernel");
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  if (threads == 0 || threads > 1024)
    throw std::invalid_argument("emu: block " + dims(block) + " has " + std::to_string(threads) +
                                " threads (1..1024 allowed)");
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.y > 65535 || grid.z > 65535)
    throw std::invalid_argument("emu: bad grid " + dims(grid));
  if (smem_bytes > options().smem_optin)
    throw std::invalid_argument("emu: " + std::to_string(smem_bytes) + " bytes of dynamic shared memory, above the " +
                                std::to_string(options().smem_optin) + " this GPU allows per block");
  r.grid = grid;
  r.block = block;
  r.body = &body;
  r.in_kernel = true;
  ++r.launches;
  try {
    for (unsigned bz = 0; bz < grid.z; ++bz)
      for (unsigned by = 0; by < grid.y; ++by)
        for (unsigned bx = 0; bx < grid.x; ++bx) {
          r.block_idx = dim3(bx, by, bz);
          r.dyn_smem.assign(smem_bytes + 16, 0xCD);
          run_block(static_cast<unsigned>(threads));
        }
  } catch (...) {
    r.in_kernel = false;
    r.direct = false;
    throw;
  }
  r.in_kernel = false;
}

inline void check(cudaError_t err, const char* call) {
  if (err != cudaSuccess) throw std::runtime_error(std::string("emu: ") + call + " failed");
}

}  // namespace joseki::abc471g::emu

#define threadIdx (::joseki::abc471g::emu::thread_idx())
#define blockIdx (::joseki::abc471g::emu::rt().block_idx)
#define blockDim (::joseki::abc471g::emu::rt().block)
#define gridDim (::joseki::abc471g::emu::rt().grid)
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(...)
#define __syncthreads() ::joseki::abc471g::emu::syncthreads()

inline unsigned atomicAdd(unsigned* p, unsigned v) {
  const unsigned old = *p;
  *p = old + v;
  return old;
}
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  const unsigned long long old = *p;
  *p = old + v;
  return old;
}
template <class T>
inline T __ldg(const T* p) {
  return *p;
}

// Every thread posts its value and waits at a barrier; then each reads its partner's (lane ^
// lane_mask in its warp). Two buffers, alternating by the thread's shuffle count: a thread that
// runs on to its next shuffle writes the other buffer, which nobody reads any more.
template <class T>
inline T __shfl_xor_sync(unsigned mask, T value, int lane_mask) {
  static_assert(sizeof(T) <= sizeof(std::uint64_t));
  namespace e = ::joseki::abc471g::emu;
  e::Runtime& r = e::rt();
  const unsigned threads = static_cast<unsigned>(r.fibers.size());
  if (mask != 0xffffffffu || threads % 32 != 0 || lane_mask < 0 || lane_mask > 31)
    throw std::logic_error("emu: __shfl_xor_sync models full-warp shuffles only");
  const unsigned i = static_cast<unsigned>(r.current);
  std::vector<std::uint64_t>& buf = r.exchange[r.fibers[i].shuffles++ & 1u];
  if (buf.size() != threads) buf.assign(threads, 0);
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof value);
  buf[i] = bits;
  e::syncthreads(true);
  const unsigned partner = (i & ~31u) | ((i & 31u) ^ static_cast<unsigned>(lane_mask));
  T out;
  std::memcpy(&out, &buf[partner], sizeof out);
  return out;
}

inline cudaError_t cudaMemsetAsync(void* p, int value, std::size_t bytes, cudaStream_t = nullptr) {
  if (bytes) std::memset(p, value, bytes);
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int value) {
  return value >= 0 && static_cast<std::size_t>(value) <= ::joseki::abc471g::emu::options().smem_optin ? cudaSuccess : 1;
}
template <class F>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* a, F) {
  *a = cudaFuncAttributes{};
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, F, int, std::size_t) {
  *n = ::joseki::abc471g::emu::options().blocks_per_sm;
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int* d) {
  *d = 0;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr, int) {
  *v = ::joseki::abc471g::emu::options().sm_count;
  return cudaSuccess;
}
