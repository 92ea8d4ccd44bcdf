// CPU kernels on AVX2 (256 lanes per vector). This file alone is compiled with -mavx2 (see
// CMakeLists.txt); it is only called when the CPU has AVX2 (cpu_features()).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "experiments/abc471g/cpu/kernels.hpp"

namespace {
using namespace joseki::abc471g::cpu;
#include "experiments/abc471g/cpu/kernel_body.inc"

bool is_zero_avx2(__v4di a) { return _mm256_testz_si256(a, a); }
using OpsAvx2 = WordOps<__v4di, is_zero_avx2>;  // __m256i without its may_alias attribute

inline __m256i mul64(__m256i a, __m256i b) {  // low 64 bits of a*b per lane
  const __m256i lo = _mm256_mul_epu32(a, b);
  const __m256i h1 = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), b);
  const __m256i h2 = _mm256_mul_epu32(a, _mm256_srli_epi64(b, 32));
  return _mm256_add_epi64(lo, _mm256_slli_epi64(_mm256_add_epi64(h1, h2), 32));
}

// 4 streams (states j, j+1, j+2, j+3), each advanced 4 steps per round. y mod k through a
// double: q = trunc(y * (1/k)) is floor(y/k) or one off, then one correction each way.
std::uint64_t gen_avx2(std::uint64_t state, std::size_t count, std::uint32_t k, std::uint32_t stride,
                       std::uint32_t* out) {
  std::size_t i = 0;
  if (k >= 2 && count >= 16) {
    const Affine a4 = affine_steps(4);
    const std::uint64_t s1 = state * LCG_MUL + LCG_INC, s2 = s1 * LCG_MUL + LCG_INC, s3 = s2 * LCG_MUL + LCG_INC;
    __m256i s = _mm256_setr_epi64x(static_cast<long long>(state), static_cast<long long>(s1),
                                   static_cast<long long>(s2), static_cast<long long>(s3));
    const __m256i mul = _mm256_set1_epi64x(static_cast<long long>(a4.mul));
    const __m256i inc = _mm256_set1_epi64x(static_cast<long long>(a4.inc));
    const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFFLL);
    const __m256i c32 = _mm256_set1_epi64x(32);
    const __m256i magic_i = _mm256_set1_epi64x(0x4330000000000000LL);  // 2^52 as a double
    const __m256d magic_d = _mm256_set1_pd(4503599627370496.0);
    const __m256d invk = _mm256_set1_pd(1.0 / k);
    const __m256i kv = _mm256_set1_epi64x(k);
    const __m256i km1 = _mm256_set1_epi64x(static_cast<long long>(k) - 1);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i pack = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m128i seven = _mm_set1_epi32(7), str = _mm_set1_epi32(static_cast<int>(stride));
    for (; i + 4 <= count; i += 4) {
      const __m256i x = _mm256_and_si256(_mm256_srli_epi64(_mm256_xor_si256(_mm256_srli_epi64(s, 18), s), 27), low32);
      const __m256i r = _mm256_srli_epi64(s, 59);
      const __m256i y = _mm256_and_si256(
          _mm256_or_si256(_mm256_srlv_epi64(x, r), _mm256_sllv_epi64(x, _mm256_sub_epi64(c32, r))), low32);
      const __m256d yd = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(y, magic_i)), magic_d);
      const __m256d qd = _mm256_round_pd(_mm256_mul_pd(yd, invk), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
      const __m256i q = _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(qd, magic_d)), magic_i);
      __m256i rem = _mm256_sub_epi64(y, _mm256_mul_epu32(q, kv));           // in [-k, 2k)
      rem = _mm256_add_epi64(rem, _mm256_and_si256(_mm256_cmpgt_epi64(zero, rem), kv));
      rem = _mm256_sub_epi64(rem, _mm256_and_si256(_mm256_cmpgt_epi64(rem, km1), kv));
      __m128i a = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(rem, pack));
      if (stride) a = _mm_add_epi32(_mm_mullo_epi32(_mm_and_si128(a, seven), str), _mm_srli_epi32(a, 3));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), a);
      s = _mm256_add_epi64(mul64(s, mul), inc);
    }
    state = static_cast<std::uint64_t>(_mm256_extract_epi64(s, 0));
  }
  return gen_scalar_body(state, count - i, k, stride, out + i);
}

const KernelSet kSet = kernel_set_of<OpsAvx2>("avx2", 2, gen_avx2);
}  // namespace

namespace joseki::abc471g::cpu {
const KernelSet& kernels_avx2() { return kSet; }
}  // namespace joseki::abc471g::cpu
