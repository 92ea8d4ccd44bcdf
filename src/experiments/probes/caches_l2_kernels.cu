// The caches_l2 probe's kernels: per-line L2 hit latency from every SM (near vs far L2 side), the
// per-SM read of one side's lines, and the TLB sweep's page ring.
#include "backend/cuda/check.hpp"
#include "backend/cuda/clocks.cuh"
#include "experiments/probes/caches_l2_kernels.hpp"
#include "experiments/probes/caches_l2_layout.hpp"
#include "experiments/probes/probe_device.cuh"

namespace joseki::probes {

namespace {

using cuda::sm_id;

__global__ void self_loops_kernel(unsigned long long* buf, const std::uint64_t* __restrict__ line_slots, int lines) {
  const unsigned long long base = __cvta_generic_to_global(buf);
  for (std::size_t j = dev::global_thread(); j < static_cast<std::size_t>(lines); j += dev::grid_threads())
    buf[line_slots[j]] = base + line_slots[j] * 8u;
}

__global__ void line_latency_kernel(const unsigned long long* buf, const std::uint64_t* __restrict__ line_slots,
                                    int lines, int steps, float* cycles, int* smid, unsigned long long* check) {
  extern __shared__ unsigned char one_block_per_sm[];  // occupancy only
  if (threadIdx.x != 0) return;
  if (steps < 0) one_block_per_sm[0] = 0;  // never: keeps the array referenced
  smid[blockIdx.x] = sm_id();
  const unsigned long long base = __cvta_generic_to_global(buf);
  unsigned long long x = 0;
  for (int j = 0; j < lines; ++j) {
    unsigned long long a = base + line_slots[j] * 8u;
    asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(a) : : "memory");
    asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(a) : : "memory");
    const long long t0 = clock64();
    for (int i = 0; i < steps; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(a) : : "memory");
    const long long t1 = clock64();
    cycles[static_cast<std::size_t>(blockIdx.x) * lines + j] = static_cast<float>(t1 - t0) / static_cast<float>(steps);
    x ^= (a - base) / 8u;  // back to a slot index
  }
  check[blockIdx.x] = x;
}

// First touch (truth3): block b walks its own lines (line_slots[b * per_block ..], self loops just
// rewritten by launch_l2_self_loops, so each line sits in its home L2 slice and no SM has read it),
// loading each line ONCE per pass and timing each load alone: clock, the load, a shared-memory store
// of its value (which waits for it), clock. Pass 0 is the first touch of every line from this SM
// (a far-homed line is fetched from the other partition); pass 1 touches them again (by then a copy
// may sit near). first/second[b * per_block + j] = cycles of line j's load in each pass; check[b] =
// the sum of the slot indices loaded in both passes.
__global__ void first_touch_kernel(const unsigned long long* buf, const std::uint64_t* __restrict__ line_slots,
                                   int per_block, float* first, float* second, int* smid, unsigned long long* check) {
  extern __shared__ unsigned long long ft_shared[];  // [0, 64): the sink; then this block's slots
  unsigned long long* sink = ft_shared;
  unsigned long long* mine = ft_shared + 64;
  const std::uint64_t* src = line_slots + static_cast<std::size_t>(blockIdx.x) * per_block;
  for (int j = threadIdx.x; j < per_block; j += blockDim.x) mine[j] = src[j];
  __syncthreads();
  if (threadIdx.x != 0) return;
  smid[blockIdx.x] = sm_id();
  const unsigned long long base = __cvta_generic_to_global(buf);
  unsigned long long sum = 0;
  for (int pass = 0; pass < 2; ++pass) {
    float* out = (pass == 0 ? first : second) + static_cast<std::size_t>(blockIdx.x) * per_block;
    unsigned long long a = base + mine[0] * 8u;
    for (int j = 0; j < per_block; ++j) {
      unsigned long long v;
      long long t0, t1;
      asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0) : "l"(a) : "memory");
      asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(a) : "memory");
      sink[j & 63] = v;  // the store waits for the load
      asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) : "l"(v) : "memory");
      out[j] = static_cast<float>(t1 - t0);
      sum += (v - base) / 8u;
      const unsigned long long next = base + mine[j + 1 < per_block ? j + 1 : 0] * 8u;
      a = v + (next - a);  // the next line's address, dependent on this load's value (its own address)
    }
  }
  check[blockIdx.x] = sum;
}

__global__ void side_read_kernel(const uint4* buf, const std::uint32_t* __restrict__ lists, const int* __restrict__ counts,
                                 int rows, int max_lines, int reps, long long* cycles, std::uint32_t* sums, int* smid) {
  extern __shared__ std::uint32_t list[];  // this SM's lines (also what keeps one block per SM)
  const int sm = sm_id();
  const int n = sm < rows ? counts[sm] : 0;
  const int rot = (sm * 37) % (n > 0 ? n : 1);
  for (int i = threadIdx.x; i < n; i += blockDim.x) list[i] = lists[static_cast<std::size_t>(sm) * max_lines + (i + rot) % n];
  __syncthreads();
  const long long t0 = clock64();
  std::uint32_t acc = 0;
  const int sub = threadIdx.x & 7, per_pass = blockDim.x >> 3;
  for (int r = 0; r < reps; ++r)
    for (int i = threadIdx.x >> 3; i < n; i += per_pass) {
      const uint4* p = buf + static_cast<std::size_t>(list[i]) * 8u + sub;
      std::uint32_t a, b, c, d;
      asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p));
      acc += a + b + c + d;
    }
  __syncthreads();
  const long long t1 = clock64();
  const std::uint32_t s = dev::block_sum(acc);
  if (threadIdx.x == 0) {
    cycles[blockIdx.x] = t1 - t0;
    sums[blockIdx.x] = s;
    smid[blockIdx.x] = sm;
  }
}

__global__ void page_ring_build_kernel(unsigned long long* slots, const std::uint32_t* __restrict__ order,
                                       std::uint32_t nodes, std::uint64_t page_slots) {
  const unsigned long long base = __cvta_generic_to_global(slots);
  for (std::size_t k = dev::global_thread(); k < nodes; k += dev::grid_threads()) {
    const std::uint32_t from = order[k], to = order[k + 1 < nodes ? k + 1 : 0];
    slots[page_slot_of(from, page_slots)] = base + page_slot_of(to, page_slots) * 8u;
  }
}

}  // namespace

std::size_t l2_one_block_per_sm_smem(std::size_t smem_per_sm, std::size_t smem_per_block_optin) {
  // More than half of the SM's shared memory: a second block cannot fit beside the first.
  std::size_t bytes = smem_per_sm / 2 + 4096;
  if (bytes > smem_per_block_optin) bytes = smem_per_block_optin;
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(line_latency_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(bytes)));
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(side_read_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(bytes)));
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(first_touch_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(bytes)));
  return bytes;
}

void launch_l2_self_loops(unsigned long long* d_buf, const std::uint64_t* d_line_slots, int lines, cudaStream_t s) {
  self_loops_kernel<<<(lines + 255) / 256, 256, 0, s>>>(d_buf, d_line_slots, lines);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_l2_line_latency(const unsigned long long* d_buf, const std::uint64_t* d_line_slots, int lines, int steps,
                            float* d_cycles, int* d_smid, unsigned long long* d_check, int blocks, std::size_t smem,
                            cudaStream_t s) {
  line_latency_kernel<<<blocks, 32, smem, s>>>(d_buf, d_line_slots, lines, steps, d_cycles, d_smid, d_check);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_l2_first_touch(const unsigned long long* d_buf, const std::uint64_t* d_line_slots, int per_block,
                           float* d_first, float* d_second, int* d_smid, unsigned long long* d_check, int blocks,
                           std::size_t smem, cudaStream_t s) {
  first_touch_kernel<<<blocks, 32, smem, s>>>(d_buf, d_line_slots, per_block, d_first, d_second, d_smid, d_check);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_l2_side_read(const uint4* d_buf, const std::uint32_t* d_lists, const int* d_counts, int rows, int max_lines,
                         int reps, long long* d_cycles, std::uint32_t* d_sums, int* d_smid, int blocks, int threads,
                         std::size_t smem, cudaStream_t s) {
  side_read_kernel<<<blocks, threads, smem, s>>>(d_buf, d_lists, d_counts, rows, max_lines, reps, d_cycles, d_sums, d_smid);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

void launch_page_ring_build(unsigned long long* d_slots, const std::uint32_t* d_order, std::uint32_t nodes,
                            std::uint64_t page_slots, cudaStream_t s) {
  page_ring_build_kernel<<<(nodes + 255) / 256, 256, 0, s>>>(d_slots, d_order, nodes, page_slots);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
