// joseki try, reduce ladder: a file that does not compile (line 8 lacks its semicolon: NVRTC reports it at line 9), for the
// compile-error path: joseki exits 2 with NVRTC's log naming this file and the line.
//   joseki try examples/try/reduce/broken.cu --ladder reduce --compile-only
// joseki: ladder=reduce grid=per-element output=atomic
extern "C" __global__ void joseki_reduce(const unsigned int* in, unsigned long long n, unsigned int* out,
                                         unsigned int slot, void* work) {
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int v = i < n ? in[i] : 0u
  atomicAdd(out, v);
}
