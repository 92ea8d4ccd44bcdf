// joseki try, reduce ladder: a WRONG kernel with a data race. The shared-memory tree (rung r02's
// block sum) without the barrier between its levels: a thread may read s[t + stride] before the
// thread that owns it has written that level's value.
// What joseki says: the sum may even come out right on a given GPU (warps often run in step), so
// validation alone can pass; `--sanitize` (racecheck) reports the shared-memory hazard with this
// file and line.
//   joseki try examples/try/reduce/wrong_race.cu --ladder reduce --sanitize
// joseki: ladder=reduce grid=per-element block=256 output=atomic
extern "C" __global__ void joseki_reduce(const unsigned int* in, unsigned long long n, unsigned int* out,
                                         unsigned int slot, void* work) {
  __shared__ unsigned int s[BLOCK];  // BLOCK: joseki passes -DBLOCK=<block>
  const unsigned t = threadIdx.x;
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0u;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    // BUG: no __syncthreads() here: the next level reads values this level may not have written yet
  }
  if (t == 0) atomicAdd(out, s[0]);
}
