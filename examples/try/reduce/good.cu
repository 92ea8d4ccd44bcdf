// joseki try, reduce ladder: the good kernel -- the ladder's best rung at 2^24 (r10_two_slot)
// written as a try: 16-byte vector loads, UNROLL of them in flight per thread, warp sums with
// redux.sync, one shared-memory slot per warp, one atomic per block into out[slot], and block 0
// zeroes out[slot ^ 1] for the next launch (output=two-slot: no memset, no finishing pass).
// An input that does not start on a 16-byte boundary is a scalar head, a 16-byte body and a
// scalar tail. UNROLL is a macro: joseki passes -DUNROLL=<unroll> (4 here; swept below).
// Prediction: the same code as r10 compiled by NVRTC instead of nvcc: within 2 % of r10 in the
// same run (the goal of issue 18), ~100 % of the stream-read ceiling at 2^24.
// Checked here (no GPU): NVRTC's PTX of this file (-DUNROLL=4) against nvcc's PTX of r10's unroll-4
//   instance: 200 vs 204 instructions, the same four ld.global.v4.u32 in flight plus two for the rest,
//   32 registers each (ptxas -v), no spills. H200: not yet measured on the H200.
//   joseki try examples/try/reduce/good.cu --ladder reduce
// joseki: ladder=reduce grid=wave-vector output=two-slot block=256 unroll=4 like=r10

struct Split {
  unsigned long long head, nvec, tail;
};

__device__ __forceinline__ Split vec_split(unsigned long long addr, unsigned long long n) {
  unsigned long long head = ((16u - (addr & 15u)) & 15u) / 4u;
  if (head > n) head = n;
  const unsigned long long nvec = (n - head) / 4u;
  return Split{head, nvec, n - head - 4u * nvec};
}

__device__ __forceinline__ unsigned int sum4(const uint4& v) { return v.x + v.y + v.z + v.w; }

// The body in tiles of blockDim.x * UNROLL words; the rest spread over every thread.
__device__ __forceinline__ unsigned int sum_tiles(const uint4* v, unsigned long long nvec) {
  const unsigned long long tile = (unsigned long long)blockDim.x * UNROLL;
  const unsigned long long round = tile * gridDim.x;
  const unsigned long long rounds = nvec / round;
  unsigned int sum = 0;
#pragma unroll 1
  for (unsigned long long k = 0; k < rounds; ++k) {
    const uint4* p = v + k * round + (unsigned long long)blockIdx.x * tile + threadIdx.x;
    uint4 r[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) r[u] = p[(unsigned long long)u * blockDim.x];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) sum += sum4(r[u]);
  }
  const unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
  const unsigned long long base = rounds * round + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  uint4 r[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) {
    const unsigned long long i = base + (unsigned long long)u * threads;
    r[u] = i < nvec ? v[i] : make_uint4(0, 0, 0, 0);
  }
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) sum += sum4(r[u]);
  return sum;
}

extern "C" __global__ void __launch_bounds__(1024, 2)
    joseki_reduce(const unsigned int* __restrict__ in, unsigned long long n, unsigned int* out, unsigned int slot,
                  void* work) {
  const Split sp = vec_split(reinterpret_cast<unsigned long long>(in), n);
  const uint4* body = reinterpret_cast<const uint4*>(in + sp.head);
  unsigned int sum = sum_tiles(body, sp.nvec);
  const unsigned long long g = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g < sp.head) sum += in[g];
  if (g < sp.tail) sum += in[n - sp.tail + g];
  // Block sum: redux.sync per warp, one shared slot per warp, one barrier, the first warp adds the slots.
  __shared__ unsigned int s_warp[32];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  sum = __reduce_add_sync(0xffffffffu, sum);
  if (lane == 0) s_warp[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < (blockDim.x >> 5) ? s_warp[lane] : 0u;
    sum = __reduce_add_sync(0xffffffffu, sum);
    if (lane == 0) {
      atomicAdd(out + slot, sum);              // RED: out[slot] was zeroed by the previous launch
      if (blockIdx.x == 0) out[slot ^ 1u] = 0;  // ... and this launch zeroes the next launch's slot
    }
  }
}
