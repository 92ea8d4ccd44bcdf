// joseki try, ABC471G direct ladder: the naive count kernel. One thread per shift s walks all of
// A: K = 2300 threads (36 blocks of 64) on a 132-SM GPU, each a chain of N = 7e6 dependent
// steps (load a[i], index v, compare). Like rung g01.
// Prediction: exact everywhere; slow -- a few hundred ms on the max case, ~40x behind g02,
//   because 2300 threads cannot hide the latency of 7e6 sequential loads each.
// Measured (H200, results/h200/2026-12-01-session5): exact, 288.5 ms (g01's time), rank 18 of 18.
//   joseki try examples/try/abc471g-direct/naive.cu --ladder abc471g-direct
// joseki: ladder=abc471g-direct block=64 like=g01
extern "C" __global__ void joseki_count(const unsigned int* __restrict__ a, unsigned long long n,
                                        const unsigned char* __restrict__ v, unsigned int k,
                                        unsigned int* __restrict__ answer) {
  const unsigned int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= k) return;
  unsigned int prev = 0, count = 0;  // nothing before a[0]: a vowel there starts a syllable
  for (unsigned long long i = 0; i < n; ++i) {
    unsigned int j = a[i] + s;  // a[i] < k and s < k: one subtraction is the mod
    if (j >= k) j -= k;
    const unsigned int cur = v[j];
    count += cur & (prev ^ 1u);
    prev = cur;
  }
  answer[s] = count;
}
