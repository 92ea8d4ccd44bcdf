// CPU kernels on plain 64-bit words (64 lanes per word): the fallback for CPUs without AVX2.
// Compiled for the baseline target; see kernel_body.inc.
#include <cstddef>
#include <cstdint>

#include "experiments/abc471g/cpu/kernels.hpp"

namespace {
using namespace joseki::abc471g::cpu;
#include "experiments/abc471g/cpu/kernel_body.inc"

struct OpsU64 {
  using V = std::uint64_t;
  static constexpr unsigned VBYTES = 8;
  static V load(const std::uint8_t* p) {
    V v;
    __builtin_memcpy(&v, p, sizeof v);  // unaligned, little-endian: bit t = lane t
    return v;
  }
  static V fuse(V prev, V c1, V c2) { return (c1 & ~prev) | (c2 & ~c1); }
  static void csa(V& h, V& l, V a, V b) {
    const V u = l ^ a;
    h = (l & a) | (u & b);
    l = u ^ b;
  }
  static V and_(V a, V b) { return a & b; }
  static V xor_(V a, V b) { return a ^ b; }
  static bool is_zero(V a) { return a == 0; }
};

std::uint64_t gen_scalar(std::uint64_t state, std::size_t count, std::uint32_t k, std::uint32_t stride,
                         std::uint32_t* out) {
  return gen_scalar_body(state, count, k, stride, out);
}

// Measured on the development machine (Zen 4, one thread, max case lanes): levels 5 -> 7 cut
// the kernel's time per element and vector by a quarter (fewer ripples); tiles of 2 beat 1 and 4.
constexpr int LEVELS = 7;
const KernelSet kSet{"scalar",
                     64,
                     2,
                     LEVELS,
                     gen_scalar,
                     {nullptr, DirectTile<OpsU64, 1, LEVELS>::run, DirectTile<OpsU64, 2, LEVELS>::run,
                      DirectTile<OpsU64, 3, LEVELS>::run, DirectTile<OpsU64, 4, LEVELS>::run},
                     0, nullptr};
}  // namespace

namespace joseki::abc471g::cpu {
const KernelSet& kernels_scalar() { return kSet; }
}  // namespace joseki::abc471g::cpu
