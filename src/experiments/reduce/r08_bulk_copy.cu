// r08: bulk asynchronous copies (Hopper's TMA engine, cp.async.bulk) into a shared-memory
//   ring, single pass.
// What changed from r06: threads no longer issue global loads. One thread per block asks
//   the copy engine for whole chunks (chunk_bytes, e.g. 16 KiB) of the 16-byte body into a
//   ring of `stages` shared-memory buffers; an mbarrier per stage counts the bytes in; the
//   block sums a stage from shared memory, barriers, and the stage is refilled. Bytes in
//   flight per SM = blocks per SM x (stages - 1..stages) x chunk_bytes, independent of the
//   thread count. Same head/tail split and last-block-done finish as r06.
// Prediction: the same DRAM limit as r06 with far fewer load instructions; it pays if large
//   contiguous requests keep DRAM pages open better than 512-byte warp loads. Costs: a
//   barrier per chunk and the latency of filling the ring at small n. Bottleneck: DRAM.
// Preconditions: sm_90 (cp.async.bulk, mbarrier tx counts); chunk_bytes a multiple of 16;
//   stages in 2..16; stages x chunk_bytes + 128 <= the opt-in shared memory per block;
//   block a multiple of 32. Workspace: SinglePassState.
// H200: not yet measured.
#include <stdexcept>

#include "experiments/reduce/common.cuh"
#include "experiments/reduce/launchers.hpp"

namespace joseki::reduce {

namespace {

constexpr int MAX_STAGES = 16;
constexpr unsigned RING_OFFSET = 128;  // the mbarriers (8 bytes each) sit before the ring

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}

// Makes the initialised barriers visible to the async proxy (the copy engine).
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// Orders this block's earlier shared-memory reads (generic proxy) before the next bulk write.
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

// One arrival that also announces `bytes` to come; then the copy that delivers them.
__device__ __forceinline__ void issue_chunk(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   smem_addr(dst)),
               "l"(src), "r"(bytes), "r"(smem_addr(bar))
               : "memory");
}

__device__ __forceinline__ void mbar_wait(unsigned long long* bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n"
        " .reg .pred p;\n"
        " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        " selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
  } while (!done);
}

__global__ void JOSEKI_FULL_WAVE r08_bulk_copy_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out,
                                     SinglePassState* st, unsigned chunk_bytes, unsigned stages) {
  extern __shared__ __align__(128) unsigned char smem[];
  auto* bars = reinterpret_cast<unsigned long long*>(smem);
  unsigned char* ring = smem + RING_OFFSET;

  const VecSplit sp = vec_split(reinterpret_cast<std::uintptr_t>(in), n);
  const auto* body = reinterpret_cast<const unsigned char*>(in + sp.head);
  const std::size_t body_bytes = sp.nvec * 16;
  const std::size_t chunks = (body_bytes + chunk_bytes - 1) / chunk_bytes;
  // This block's chunks: blockIdx.x, blockIdx.x + gridDim.x, ... (rung.hpp; unit-tested on the host).
  const std::size_t mine = chunks_of_block(chunks, blockIdx.x, gridDim.x);
  auto chunk_of = [&](std::size_t k) { return chunk_index(blockIdx.x, k, gridDim.x); };
  auto bytes_of = [&](std::size_t c) { return chunk_size(body_bytes, chunk_bytes, c); };

  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < stages; ++s) mbar_init(&bars[s], 1);
    fence_barrier_init();
    for (unsigned s = 0; s < stages && s < mine; ++s) {  // fill the ring
      const std::size_t c = chunk_of(s);
      issue_chunk(ring + s * chunk_bytes, body + c * chunk_bytes, bytes_of(c), &bars[s]);
    }
  }
  __syncthreads();  // the barriers are initialised before anyone waits on them

  std::uint32_t sum = 0;
  for (std::size_t k = 0; k < mine; ++k) {
    const unsigned s = static_cast<unsigned>(k % stages);
    mbar_wait(&bars[s], static_cast<unsigned>((k / stages) & 1));  // the k-th use of stage s completes phase k/stages
    const auto* buf = reinterpret_cast<const uint4*>(ring + s * chunk_bytes);
    const unsigned words = bytes_of(chunk_of(k)) / 16;
    for (unsigned j = threadIdx.x; j < words; j += blockDim.x) sum += dev::sum4(buf[j]);
    __syncthreads();  // every thread is done reading stage s before it is refilled
    if (threadIdx.x == 0 && k + stages < mine) {
      fence_proxy_async();
      const std::size_t c = chunk_of(k + stages);
      issue_chunk(ring + s * chunk_bytes, body + c * chunk_bytes, bytes_of(c), &bars[s]);
    }
  }
  sum += dev::sum_head_tail(in, n, sp);
  sum = dev::block_sum_warps<true>(sum);
  dev::single_pass_finish(sum, st, out);
}

}  // namespace

void launch_r08_bulk_copy(const GpuArgs& a, CUstream_st* s) {
  const LaunchPlan& p = a.plan;
  if (p.stages < 2 || p.stages > MAX_STAGES || p.chunk_bytes < 16 || p.chunk_bytes % 16 != 0)
    throw std::invalid_argument("r08_bulk_copy: needs 2..16 stages and a chunk that is a multiple of 16 bytes");
  const std::size_t smem = RING_OFFSET + static_cast<std::size_t>(p.stages) * p.chunk_bytes;
  // Raise the kernel's dynamic shared-memory limit once, to what the device allows per block
  // minus the kernel's static shared memory (the block sum's slots).
  static int allowed = 0;
  if (allowed == 0) {
    int dev_id = 0, optin = 0;
    JOSEKI_CUDA_CHECK(cudaGetDevice(&dev_id));
    JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev_id));
    cudaFuncAttributes attr{};
    JOSEKI_CUDA_CHECK(cudaFuncGetAttributes(&attr, r08_bulk_copy_kernel));
    const int limit = optin - static_cast<int>(attr.sharedSizeBytes);
    JOSEKI_CUDA_CHECK(
        cudaFuncSetAttribute(r08_bulk_copy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, limit));
    allowed = limit;
  }
  if (smem > static_cast<std::size_t>(allowed))
    throw std::invalid_argument("r08_bulk_copy: stages x chunk_bytes exceeds the shared memory per block");
  r08_bulk_copy_kernel<<<dev::grid_of(a), dev::block_of(a), smem, s>>>(
      a.d_in, a.n, a.d_out, static_cast<SinglePassState*>(a.d_work), static_cast<unsigned>(p.chunk_bytes),
      static_cast<unsigned>(p.stages));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::reduce
