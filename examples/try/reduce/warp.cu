// joseki try, reduce ladder: one thing changed from naive.cu -- each thread sums a grid-stride
// slice in a register, the warp adds its 32 sums with shuffles, and one atomicAdd per block adds
// the block's sum (the block's warps meet in shared memory behind one barrier). Like rung r04.
// Prediction: from ~one atomic per element (or per warp) to one per block, so the atomics leave
// the critical path; what remains is scalar 4-byte loads: well below the stream-read limit,
// because one 4-byte load per thread in flight is too few bytes to cover the memory's latency.
//   joseki try examples/try/reduce/warp.cu --ladder reduce
// joseki: ladder=reduce grid=wave block=256 output=atomic like=r04
// joseki: sweep block=128,256,512 blocks_per_sm=2,4,8
extern "C" __global__ void joseki_reduce(const unsigned int* in, unsigned long long n, unsigned int* out,
                                         unsigned int slot, void* work) {
  __shared__ unsigned int warp_sums[32];
  unsigned int sum = 0;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) sum += in[i];
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < (blockDim.x >> 5) ? warp_sums[lane] : 0u;
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (lane == 0) atomicAdd(out, sum);
  }
}
