// r07: r06 with Hopper load hints: ld.global.nc.L1::no_allocate.L2::256B.
// What changed from r06: every 16-byte load goes through the non-coherent path, does not
//   allocate in L1 (the data is read once), and asks the L2 to fetch the whole 256-byte
//   sector group around it (.L2::256B prefetch-size hint), so DRAM sees larger requests
//   earlier. Knobs (unroll, block, blocks per SM) as r06, swept separately.
// Prediction: a few percent at 2^28 if the DRAM page locality of 256-byte requests helps;
//   nothing at small n. Bottleneck: DRAM bandwidth.
// Preconditions: as r06; PTX ISA 7.4+ (sm_80+) for the prefetch-size hint.
// H200: not yet measured.
#include <stdexcept>

#include "experiments/reduce/common.cuh"
#include "experiments/reduce/launchers.hpp"

namespace joseki::reduce {

namespace {
struct StreamLoad {
  __device__ __forceinline__ uint4 operator()(const uint4* p) const {
    uint4 r;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
        : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
        : "l"(p));
    return r;
  }
};

template <int UNROLL>
__global__ void JOSEKI_FULL_WAVE r07_load_hints_kernel(const std::uint32_t* __restrict__ in, std::size_t n, std::uint32_t* out,
                                      SinglePassState* st) {
  const VecSplit sp = vec_split(reinterpret_cast<std::uintptr_t>(in), n);
  const uint4* body = reinterpret_cast<const uint4*>(in + sp.head);
  std::uint32_t sum = dev::sum_tiles<UNROLL>(body, sp.nvec, StreamLoad{});
  sum += dev::sum_head_tail(in, n, sp);
  sum = dev::block_sum_warps<true>(sum);
  dev::single_pass_finish(sum, st, out);
}

template <int UNROLL>
void launch(const GpuArgs& a, cudaStream_t s) {
  r07_load_hints_kernel<UNROLL><<<dev::grid_of(a), dev::block_of(a), 0, s>>>(
      a.d_in, a.n, a.d_out, static_cast<SinglePassState*>(a.d_work));
}
}  // namespace

void launch_r07_load_hints(const GpuArgs& a, CUstream_st* s) {
  switch (a.plan.unroll) {
    case 1: launch<1>(a, s); break;
    case 2: launch<2>(a, s); break;
    case 4: launch<4>(a, s); break;
    case 8: launch<8>(a, s); break;
    default: throw std::invalid_argument("r07_load_hints: unroll must be 1, 2, 4 or 8");
  }
  JOSEKI_CUDA_CHECK_LAUNCH();
}

}  // namespace joseki::reduce
