// CPU kernels on NEON (AArch64 Advanced SIMD: 128 lanes per vector), for arm64 hosts (Grace next
// to an H200, Graviton, Linux on Apple silicon). NEON is part of every AArch64 CPU, so this set
// needs no run-time check there; this file is compiled only for aarch64 (CMakeLists.txt), as the
// AVX files only for x86-64. Generation stays scalar (gen_scalar_body); the direct method's
// bit-sliced tree runs on 128-bit words. Not yet measured on an arm64 host: tests run it under
// qemu-user in CI (correctness only).
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "experiments/abc471g/cpu/kernels.hpp"

namespace {
using namespace joseki::abc471g::cpu;
#include "experiments/abc471g/cpu/kernel_body.inc"

struct OpsNeon {
  using V = uint64x2_t;
  static constexpr unsigned VBYTES = 16;
  static V load(const std::uint8_t* p) { return vreinterpretq_u64_u8(vld1q_u8(p)); }  // bit t = lane t
  static V fuse(V prev, V c1, V c2) { return vorrq_u64(vbicq_u64(c1, prev), vbicq_u64(c2, c1)); }
  static void csa(V& h, V& l, V a, V b) {
    const V u = veorq_u64(l, a);
    h = vorrq_u64(vandq_u64(l, a), vandq_u64(u, b));
    l = veorq_u64(u, b);
  }
  static V and_(V a, V b) { return vandq_u64(a, b); }
  static V xor_(V a, V b) { return veorq_u64(a, b); }
  static bool is_zero(V a) { return (vgetq_lane_u64(a, 0) | vgetq_lane_u64(a, 1)) == 0; }
};

std::uint64_t gen_neon(std::uint64_t state, std::size_t count, std::uint32_t k, std::uint32_t stride,
                       std::uint32_t* out) {
  return gen_scalar_body(state, count, k, stride, out);
}

// The x86 sets' depth and tile (levels 7, tiles of 2); not tuned on an arm64 host.
constexpr int LEVELS = 7;
const KernelSet kSet{"neon",
                     128,
                     2,
                     LEVELS,
                     gen_neon,
                     {nullptr, DirectTile<OpsNeon, 1, LEVELS>::run, DirectTile<OpsNeon, 2, LEVELS>::run,
                      DirectTile<OpsNeon, 3, LEVELS>::run, DirectTile<OpsNeon, 4, LEVELS>::run},
                     0, nullptr};
}  // namespace

namespace joseki::abc471g::cpu {
const KernelSet& kernels_neon() { return kSet; }
}  // namespace joseki::abc471g::cpu
