// r07: r06 with Hopper load hints on every 16-byte load; which hint is a swept knob.
// What changed from r06: the loads carry cache hints (`hint`):
//   0  ld.global.nc.L1::no_allocate.L2::256B -- non-coherent path, no L1 allocation (the data
//      is read once), and the L2 fetches the whole 256-byte block around each access
//      (prefetch-size hint) [the first run measured this one alone];
//   1  ld.global.nc.L1::no_allocate -- the same without the prefetch-size hint;
//   2  ld.global.nc.L1::no_allocate.L2::cache_hint with an evict_first policy (createpolicy;
//      sm_90 takes .L2::evict_first directly only on 256-bit loads) -- no prefetch-size hint, and
//      the lines are the first the L2 evicts (a 1 GiB stream through a 60 MiB L2).
//   (r06's plain loads compile to LDG.E.128, the coherent path through L1; all three hints are
//   LDG.E.NA.128.CONSTANT-class loads. So 1 measures .nc + L1::no_allocate, 0 adds the prefetch
//   size on top of 1, and 2 adds the L2 eviction policy on top of 1.)
// Prediction: a few percent at 2^28 if larger L2 fetches help DRAM page locality; nothing
//   at small n. Bottleneck: DRAM bandwidth.
// Preconditions: as r06; PTX ISA 7.4+ (sm_80+) for the L2 qualifiers.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour), cold, swept (hint 1 chosen at every size):
//   2^20 / 2^24 / 2^28 = 6.91 / 20.67 / 239.23 us; x r06 0.99 / 1.00 / 1.01; x CUB 1.08 / 1.06 /
//   1.016; 100.3 % of the ceiling = 4.488 TB/s, the fastest rung at 2^28. The prediction was wrong:
//   hint 0's prefetch size costs 7 % at 2^28 (255.86 vs 239.20 us, both 512 x 4), hints 1 and 2
//   equal r06's plain loads at that launch (239.20 / 239.23 vs 239.17 us). The 1.01x over r06 is
//   the launch shape, not the hint.
#include <stdexcept>

#include "experiments/reduce/common.cuh"

namespace joseki::reduce {

namespace {
#if JOSEKI_ARCH_AT_LEAST(800)
template <int HINT>
struct HintedLoad {
  unsigned long long policy = 0;  // HINT 2: an L2 eviction policy (createpolicy), made once per thread

  __device__ __forceinline__ HintedLoad() {
    if constexpr (HINT == 2) asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  }
  __device__ __forceinline__ uint4 operator()(const uint4* p) const {
    uint4 r;
    if constexpr (HINT == 0) {
      asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
          : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
          : "l"(p));
    } else if constexpr (HINT == 1) {
      asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
          : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
          : "l"(p));
    } else {
      asm("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
          : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
          : "l"(p), "l"(policy));
    }
    return r;
  }
};
#endif

template <int UNROLL, int HINT>
__global__ void JOSEKI_FULL_WAVE r07_load_hints_kernel(const std::uint32_t* __restrict__ in, std::size_t n,
                                                       std::uint32_t* out, SinglePassState* st) {
#if JOSEKI_ARCH_AT_LEAST(800)  // createpolicy, .L2::cache_hint (Needs: Feature::L2CacheHint)
  const std::uint32_t sum = dev::vector_block_sum<UNROLL>(in, n, HintedLoad<HINT>());
  dev::single_pass_finish(sum, st, out);
#else
  JOSEKI_ARCH_UNSUPPORTED();
#endif
}

template <int HINT>
void launch_hint(const GpuArgs& a, cudaStream_t s) {
  dev::launch_single_pass(a, s, "r07_load_hints",
                          [](auto u) { return &r07_load_hints_kernel<decltype(u)::value, HINT>; });
}

void launch_r07_load_hints(const GpuArgs& a, CUstream_st* s) {
  switch (a.plan.hint) {
    case 0: launch_hint<0>(a, s); break;
    case 1: launch_hint<1>(a, s); break;
    case 2: launch_hint<2>(a, s); break;
    default: throw std::invalid_argument("r07_load_hints: hint must be 0, 1 or 2");
  }
}

}  // namespace

GpuOps r07_ops() { return {&launch_r07_load_hints, &dev::single_pass_workspace}; }

}  // namespace joseki::reduce
