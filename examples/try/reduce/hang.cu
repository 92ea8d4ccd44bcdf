// joseki try, reduce ladder: a kernel that never finishes. Block 0 waits for a flag in the
// workspace that no block ever sets (a "last block" protocol gone wrong).
// What joseki says: the try is killed after --kill-after seconds with a message naming the step it
// was in; the kernel ran in a child process, so joseki's records are untouched.
//   joseki try examples/try/reduce/hang.cu --ladder reduce --kill-after 10
// joseki: ladder=reduce grid=wave block=256 output=atomic workspace=8
extern "C" __global__ void joseki_reduce(const unsigned int* in, unsigned long long n, unsigned int* out,
                                         unsigned int slot, void* work) {
  volatile unsigned int* flag = static_cast<volatile unsigned int*>(work);
  unsigned int sum = 0;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) sum += in[i];
  atomicAdd(out, sum);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    while (flag[0] == 0) {  // BUG: nobody sets the flag
    }
}
