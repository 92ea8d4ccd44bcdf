// joseki try, reduce ladder: a kernel with the wrong signature (r10's four parameters, without
// `work`). An extern "C" name carries no types, so joseki reads the compiled kernel's parameter
// sizes (cudaFuncGetParamInfo) before it launches anything, and says what the ladder expects (exit 2).
//   joseki try examples/try/reduce/wrong_signature.cu --ladder reduce
// joseki: ladder=reduce grid=per-element output=atomic
extern "C" __global__ void joseki_reduce(const unsigned int* in, unsigned long long n, unsigned int* out) {
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, in[i]);
}
