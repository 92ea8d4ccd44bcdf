// joseki try, ABC471G direct ladder: a good count kernel, g02's time-direction chunks. Block
// (x, y) counts the shifts y*64 .. y*64+63 over the CHUNK elements of A starting at x*CHUNK and
// adds its counts into answer (output=atomic: joseki zeroes answer before each launch, timed).
// A chunk's first element is a rise or not by the element before it, so every chunk but the
// first starts from a[begin - 1]: each pair (a[i-1], a[i]) is counted once.
// What changed from naive.cu: ceil(N / CHUNK) x K threads (~2M at CHUNK 8192) instead of K.
// Prediction: within a few % of g02 (7.2 ms on the H200, 2026-11-30), its partial-count pass
//   replaced by ~2M atomics on 2300 addresses; the chunk sweep is flat from 2048 to 8192.
// Measured (H200, results/h200/2026-12-01-session5): exact, 6.887 ms, 41.9x g01, rank 14 of 18.
//   joseki try examples/try/abc471g-direct/good.cu --ladder abc471g-direct
// joseki: ladder=abc471g-direct block=64 chunk=8192 output=atomic like=g02
// joseki: sweep chunk=2048,4096,8192,16384
extern "C" __global__ void joseki_count(const unsigned int* __restrict__ a, unsigned long long n,
                                        const unsigned char* __restrict__ v, unsigned int k,
                                        unsigned int* __restrict__ answer) {
  const unsigned int s = blockIdx.y * blockDim.x + threadIdx.x;
  if (s >= k) return;
  const unsigned long long begin = (unsigned long long)blockIdx.x * CHUNK;
  const unsigned long long end = n < begin + CHUNK ? n : begin + CHUNK;
  unsigned int prev = 0, count = 0;
  if (begin > 0) {  // the element before the chunk decides whether its first element is a rise
    unsigned int j = a[begin - 1] + s;
    if (j >= k) j -= k;
    prev = v[j];
  }
  for (unsigned long long i = begin; i < end; ++i) {
    unsigned int j = a[i] + s;
    if (j >= k) j -= k;
    const unsigned int cur = v[j];
    count += cur & (prev ^ 1u);
    prev = cur;
  }
  atomicAdd(answer + s, count);
}
