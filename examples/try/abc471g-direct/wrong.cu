// joseki try, ABC471G direct ladder: a wrong count kernel (an off-by-one at the chunk boundary).
// good.cu without the look back at a[begin - 1]: every chunk starts as if nothing came before it,
// so a vowel at a chunk's first element is counted as a syllable start even when the element
// before it (the last of the previous chunk) is a vowel too. Exact on inputs shorter than one
// chunk; wrong as soon as a chunk boundary falls inside a run of vowels.
// Prediction: caught on the first case cut into several chunks (the validation configuration
//   chunk 7 cuts even the small vectors), joseki naming the first shifts that differ and their
//   values (too many syllables).
// Measured (H200, results/h200/2026-12-01-session5): caught, "2300 of 2300 shifts differ (k=0: ...)".
//   joseki try examples/try/abc471g-direct/wrong.cu --ladder abc471g-direct
// joseki: ladder=abc471g-direct block=64 chunk=8192 output=atomic like=g02
extern "C" __global__ void joseki_count(const unsigned int* __restrict__ a, unsigned long long n,
                                        const unsigned char* __restrict__ v, unsigned int k,
                                        unsigned int* __restrict__ answer) {
  const unsigned int s = blockIdx.y * blockDim.x + threadIdx.x;
  if (s >= k) return;
  const unsigned long long begin = (unsigned long long)blockIdx.x * CHUNK;
  const unsigned long long end = n < begin + CHUNK ? n : begin + CHUNK;
  unsigned int prev = 0, count = 0;  // BUG: should start from v[(a[begin - 1] + s) % k] when begin > 0
  for (unsigned long long i = begin; i < end; ++i) {
    unsigned int j = a[i] + s;
    if (j >= k) j -= k;
    const unsigned int cur = v[j];
    count += cur & (prev ^ 1u);
    prev = cur;
  }
  atomicAdd(answer + s, count);
}
