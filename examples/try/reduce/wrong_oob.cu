// joseki try, reduce ladder: a WRONG kernel. Each thread adds four consecutive elements at a time
// and never checks that all four exist: when n is not a multiple of 4 the last group reads up to
// three words past the end of the input.
// What joseki says: validation fails at the first size that is not a multiple of 4 (n = 1), and
// names the excess as the words after in[n - 1]; `--sanitize` (memcheck) reports the
// out-of-bounds read with this file and line where the words lie past the allocation.
//   joseki try examples/try/reduce/wrong_oob.cu --ladder reduce
//   joseki try examples/try/reduce/wrong_oob.cu --ladder reduce --sanitize
// joseki: ladder=reduce grid=wave block=256 output=atomic
extern "C" __global__ void joseki_reduce(const unsigned int* in, unsigned long long n, unsigned int* out,
                                         unsigned int slot, void* work) {
  unsigned int sum = 0;
  const unsigned long long stride = 4ull * gridDim.x * blockDim.x;
  for (unsigned long long i = 4ull * (blockIdx.x * blockDim.x + threadIdx.x); i < n; i += stride)
    sum += in[i] + in[i + 1] + in[i + 2] + in[i + 3];  // BUG: i + 1 .. i + 3 may be >= n
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if ((threadIdx.x & 31u) == 0) atomicAdd(out, sum);
}
