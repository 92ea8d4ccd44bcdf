// joseki try, reduce ladder: the naive kernel. One thread per element, one atomicAdd per element
// into out[0] (joseki zeroes it before each launch: output=atomic). Like rung r01.
// Prediction: correct at every size and offset; slow, because 2^24 atomics on one address
// serialize in the L2 -- unless the compiler aggregates them per warp (it does for r01: see
// docs/REDUCE.md), then it is ~32x fewer atomics but still far from the memory's limit.
//   joseki try examples/try/reduce/naive.cu --ladder reduce
// joseki: ladder=reduce grid=per-element block=256 output=atomic like=r01
extern "C" __global__ void joseki_reduce(const unsigned int* in, unsigned long long n, unsigned int* out,
                                         unsigned int slot, void* work) {
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, in[i]);
}
