// An exact int8 matrix product on the tensor cores through cuBLASLt (the CUDA toolkit's GEMM
// library), loaded at run time: the toolkit ships no static cuBLASLt that the joseki binary
// could carry, and a GPU host without the library must still run every other path. On sm_90
// cuBLASLt picks Hopper's wgmma kernels, which the joseki build (sm_90, not sm_90a) cannot emit.
//   std::string why;
//   auto g = cuda::Int8Gemm::create(n, &why);     // nullptr (and why) when unavailable
//   g->run(d_a, d_b, d_d, stream);                // D = A^T B, all n x n column-major
// H200 (2026-11-30 probe): n = 2304 in ~26 us (~940 int8 TOPS), the heuristic's first choice.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace joseki::cuda {

class Int8Gemm {
 public:
  // Loads cuBLASLt once per process ($JOSEKI_CUBLASLT_LIB, the loader's path, the toolkit and the
  // Python wheels' folders), and asks its heuristic for D = A^T * B with int8 A, B and int32 D,
  // n x n, column-major, leading dimension n (n a multiple of 16; pointers 16-byte aligned), on
  // the current device. nullptr with *why set when the library or an algorithm is missing.
  // `algo` picks the heuristic's algo-th suggestion (0: its first; a sweep tries the others);
  // past the last it falls back to the first.
  // `cols` > 0: D = A^T B with B and D n x cols (leading dimension n): a panel of the n x n product's
  // columns (B + j0 * n -> D + j0 * n), for gpu-pairs r06; 0: n.
  static std::unique_ptr<Int8Gemm> create(int n, std::string* why, int algo = 0, int cols = 0);
  ~Int8Gemm();
  Int8Gemm(const Int8Gemm&) = delete;
  Int8Gemm& operator=(const Int8Gemm&) = delete;

  // Enqueues the product on s (checked: a cuBLASLt error throws RunError naming it).
  void run(const std::int8_t* d_a, const std::int8_t* d_b, std::int32_t* d_d, cudaStream_t s) const;

  const std::string& library() const;  // the path that was loaded
  std::size_t version() const;         // cublasLtGetVersion(), e.g. 130100
  double load_seconds() const;         // dlopen + symbols + handle, once per process (whoever loaded it)
  int algo() const;                    // the suggestion in use
  int algos() const;                   // how many the heuristic offered (at most 8)

  struct Impl;

 private:
  explicit Int8Gemm(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m;
};

}  // namespace joseki::cuda
