// CPU kernels on AVX-512 (512 lanes per vector; vpternlog does a fuse or half a carry-save
// adder in one instruction). This file alone is compiled with -mavx512f -mavx512bw -mavx512vl
// (see CMakeLists.txt); it is only called when the CPU has them (cpu_features()).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "experiments/abc471g/cpu/kernels.hpp"

namespace {
using namespace joseki::abc471g::cpu;
#include "experiments/abc471g/cpu/kernel_body.inc"

// vpternlog's truth tables over (a, b, c) = bits (4, 2, 1) of the index:
//   fuse (b & ~a) | (c & ~b) = 0x2E, xor3 = 0x96, majority = 0xE8.
template <int Imm>
__v8di tern(__v8di a, __v8di b, __v8di c) { return _mm512_ternarylogic_epi64(a, b, c, Imm); }
template <int Imm>
__v4di tern(__v4di a, __v4di b, __v4di c) { return _mm256_ternarylogic_epi64(a, b, c, Imm); }

// WordOps with the fuse and half a carry-save adder in one vpternlog each.
template <class Vec, bool (*IsZero)(Vec)>
struct TernOps : WordOps<Vec, IsZero> {
  using V = Vec;
  static V fuse(V prev, V c1, V c2) { return tern<0x2E>(prev, c1, c2); }
  static void csa(V& h, V& l, V a, V b) {
    h = tern<0xE8>(l, a, b);
    l = tern<0x96>(l, a, b);
  }
};

bool is_zero_512(__v8di a) { return _mm512_test_epi64_mask(a, a) == 0; }
bool is_zero_256(__v4di a) { return _mm256_testz_si256(a, a); }
using OpsAvx512 = TernOps<__v8di, is_zero_512>;  // __m512i, __m256i without may_alias
// The last lanes when they fit in half a vector (K = 2300: 4 x 512 + 1 x 256 lanes instead of
// 5 x 512): the same kernel on __m256i, with AVX-512VL's vpternlog.
using OpsAvx256 = TernOps<__v4di, is_zero_256>;

inline __m512i mul64(__m512i a, __m512i b) {  // low 64 bits of a*b per lane (no AVX512DQ needed)
  const __m512i lo = _mm512_mul_epu32(a, b);
  const __m512i h1 = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), b);
  const __m512i h2 = _mm512_mul_epu32(a, _mm512_srli_epi64(b, 32));
  return _mm512_add_epi64(lo, _mm512_slli_epi64(_mm512_add_epi64(h1, h2), 32));
}

// 8 streams, each advanced 8 steps per round. y mod k through a double: q = trunc(y * (1/k)) is
// floor(y/k) or one off; r = y - q*k (mod 2^32) is then the smallest of r, r + k, r - k.
std::uint64_t gen_avx512(std::uint64_t state, std::size_t count, std::uint32_t k, std::uint32_t stride,
                         std::uint32_t* out) {
  std::size_t i = 0;
  if (count >= 16) {
    const Affine a8 = affine_steps(8);
    alignas(64) std::uint64_t init[8];
    init[0] = state;
    for (int j = 1; j < 8; ++j) init[j] = init[j - 1] * LCG_MUL + LCG_INC;
    __m512i s = _mm512_load_si512(init);
    const __m512i mul = _mm512_set1_epi64(static_cast<long long>(a8.mul));
    const __m512i inc = _mm512_set1_epi64(static_cast<long long>(a8.inc));
    const __m512d invk = _mm512_set1_pd(1.0 / k);
    const __m256i kv = _mm256_set1_epi32(static_cast<int>(k));
    const __m256i seven = _mm256_set1_epi32(7), str = _mm256_set1_epi32(static_cast<int>(stride));
    for (; i + 8 <= count; i += 8) {
      const __m512i x64 = _mm512_srli_epi64(_mm512_xor_si512(_mm512_srli_epi64(s, 18), s), 27);
      const __m256i x = _mm512_cvtepi64_epi32(x64);  // low 32 bits
      const __m256i r = _mm512_cvtepi64_epi32(_mm512_srli_epi64(s, 59));
      const __m256i y = _mm256_rorv_epi32(x, r);
      const __m256i q = _mm512_cvttpd_epu32(_mm512_mul_pd(_mm512_cvtepu32_pd(y), invk));
      __m256i rem = _mm256_sub_epi32(y, _mm256_mullo_epi32(q, kv));
      rem = _mm256_min_epu32(rem, _mm256_min_epu32(_mm256_add_epi32(rem, kv), _mm256_sub_epi32(rem, kv)));
      if (stride) rem = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_and_si256(rem, seven), str), _mm256_srli_epi32(rem, 3));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), rem);
      s = _mm512_add_epi64(mul64(s, mul), inc);
    }
    alignas(64) std::uint64_t last[8];
    _mm512_store_si512(last, s);
    state = last[0];
  }
  return gen_scalar_body(state, count - i, k, stride, out + i);
}

const KernelSet kSet = kernel_set_of<OpsAvx512>("avx512", 2, gen_avx512, 256,
                                                 DirectTile<OpsAvx256, 1, KERNEL_LEVELS>::run);
}  // namespace

namespace joseki::abc471g::cpu {
const KernelSet& kernels_avx512() { return kSet; }
}  // namespace joseki::abc471g::cpu
