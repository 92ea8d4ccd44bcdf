// The tma probe's tensor-map copies (issue 19, item 1: TMA *tensor* copies vs plain loads): the same
// ring as the bulk copies (reduce/bulk.cuh: mbarriers with transaction counts, one thread issues,
// every thread waits, a block barrier before a stage is refilled), but each stage is filled by
// cp.async.bulk.tensor.2d from a CUtensorMap that views the buffer as rows of 256 32-bit words
// (1 KiB) and a box of 256 x (tile / 1 KiB) rows: the copy engine walks the box itself (address
// generation in hardware) instead of one linear range. PTX: cp.async.bulk.tensor.2d.shared::cluster
// .global.mbarrier::complete_tx::bytes (PTX ISA 8.0, sm_90). The map is encoded on the host with the
// driver's cuTensorMapEncodeTiled, reached through cudaGetDriverEntryPointByVersion (no libcuda link).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstring>
#include <string>

#include "backend/cuda/check.hpp"
#include "backend/cuda/tensor_map.hpp"
#include "experiments/probes/hopper_device.cuh"
#include "experiments/probes/probe_device.cuh"
#include "experiments/probes/tma_kernels.hpp"
#include "experiments/reduce/bulk.cuh"
#include "measure/errors.hpp"

namespace joseki::probes {

namespace {

using u32 = std::uint32_t;
constexpr unsigned ROW_WORDS = 256;  // the tensor's inner dimension: 256 x 4 bytes = 1 KiB

__global__ void tma_tensor_stream_kernel(const __grid_constant__ CUtensorMap map, std::size_t tiles,
                                         unsigned tile_bytes, unsigned stages, u32* partials) {
#if JOSEKI_SM90_CODE
  namespace bk = reduce::bulk;
  extern __shared__ __align__(1024) unsigned char smem[];
  auto* bars = reinterpret_cast<unsigned long long*>(smem);
  unsigned char* ring = smem + bk::RING_OFFSET;  // 128-byte aligned stages (tile_bytes is a multiple of 1 KiB)
  const unsigned rows = tile_bytes / (ROW_WORDS * 4);
  const std::size_t mine = tiles > blockIdx.x ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  auto issue = [&](unsigned st, std::size_t k) {
    const int y = static_cast<int>((blockIdx.x + k * gridDim.x) * rows);  // the box's first row
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bk::smem_addr(&bars[st])),
                 "r"(tile_bytes)
                 : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            bk::smem_addr(ring + st * tile_bytes)),
        "l"(reinterpret_cast<std::uint64_t>(&map)), "r"(0), "r"(y), "r"(bk::smem_addr(&bars[st]))
        : "memory");
  };
  if (threadIdx.x == 0) {
    for (unsigned st = 0; st < stages; ++st) bk::mbar_init(&bars[st], 1);
    bk::fence_barrier_init();
    for (unsigned st = 0; st < stages && st < mine; ++st) issue(st, st);
  }
  __syncthreads();
  u32 acc = 0;
  const unsigned words = tile_bytes / 16;
  for (std::size_t k = 0; k < mine; ++k) {
    const unsigned st = static_cast<unsigned>(k % stages);
    bk::mbar_wait(&bars[st], static_cast<unsigned>((k / stages) & 1));
    const uint4* buf = reinterpret_cast<const uint4*>(ring + st * tile_bytes);
    for (unsigned j = threadIdx.x; j < words; j += blockDim.x) {
      const uint4 v = buf[j];
      acc += v.x + v.y + v.z + v.w;
    }
    __syncthreads();
    if (threadIdx.x == 0 && k + stages < mine) {
      bk::fence_proxy_async();
      issue(st, k + stages);
    }
  }
  const u32 sum = dev::block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
#else
  JOSEKI_NOT_HERE();
#endif
}

}  // namespace

std::string tma_tensor_unavailable() {
  std::string why;
  return cuda::tensor_map_encoder(&why) ? std::string() : why;
}

int tma_tensor_blocks_per_sm(unsigned tile_bytes, int stages, int threads) {
  const std::size_t smem = TMA_RING_OFFSET + static_cast<std::size_t>(stages) * tile_bytes;
  int dev = 0, optin = 0;
  JOSEKI_CUDA_CHECK(cudaGetDevice(&dev));
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (smem > static_cast<std::size_t>(optin)) return 0;
  JOSEKI_CUDA_CHECK(cudaFuncSetAttribute(tma_tensor_stream_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(smem)));
  int per_sm = 0;
  JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tma_tensor_stream_kernel, threads, smem));
  return per_sm;
}

void launch_tma_tensor_stream(const void* d, std::size_t bytes, unsigned tile_bytes, int stages, int blocks,
                              int threads, std::uint32_t* d_partials, cudaStream_t s) {
  std::string why;
  const cuda::TensorMapEncodeTiled encode = cuda::tensor_map_encoder(&why);
  if (!encode) throw RunError("tma tensor copies: " + why);
  const unsigned row_bytes = ROW_WORDS * 4;
  if (tile_bytes % row_bytes || tile_bytes / row_bytes > 256 || bytes % tile_bytes)
    throw RunError("tma tensor copies: tile of " + std::to_string(tile_bytes) + " bytes is not 1..256 rows of 1 KiB dividing " +
                   std::to_string(bytes));
  CUtensorMap map;
  std::memset(&map, 0, sizeof map);
  const cuuint64_t dims[2] = {ROW_WORDS, bytes / row_bytes};
  const cuuint64_t strides[1] = {row_bytes};  // bytes between rows (dimension 1)
  const cuuint32_t box[2] = {ROW_WORDS, tile_bytes / row_bytes};
  const cuuint32_t elem_strides[2] = {1, 1};
  const CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, const_cast<void*>(d), dims, strides, box,
                            elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) throw RunError("tma tensor copies: cuTensorMapEncodeTiled failed (CUresult " + std::to_string(r) + ")");
  const std::size_t smem = TMA_RING_OFFSET + static_cast<std::size_t>(stages) * tile_bytes;
  tma_tensor_stream_kernel<<<blocks, threads, smem, s>>>(map, bytes / tile_bytes, tile_bytes,
                                                         static_cast<unsigned>(stages), d_partials);
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::probes
