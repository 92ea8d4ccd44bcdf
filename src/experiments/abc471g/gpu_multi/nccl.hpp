// NCCL, loaded at run time: the CUDA toolkit has no static NCCL and the joseki binary stays
// static apart from libc/libm, so libnccl.so.2 is dlopen()ed (LD_LIBRARY_PATH and the loader's
// cache, $JOSEKI_NCCL_LIB, /usr/local/cuda/lib64, then the Python wheels' nvidia/nccl/lib and
// nvidia/cu13/lib under the usual site-packages folders). Only the few entry points the
// multi-GPU solve needs, with NCCL's C ABI declared here (checked against nccl.h when present).
// NVLink multicast stays off: NCCL_NVLS_ENABLE=0 is set before any communicator is created
// (a program using multicast can take a shared host's GPUs out of service); cuMulticastCreate
// is never called.
// H200 (2026-11-29 dev run 5, results/h200/2026-11-29-dev/run5-pairs-multi): NCCL 2.28.3 loaded as
// libnccl.so.2. compute-sanitizer memcheck reports CUDA API errors raised inside libnccl (printed:
// 8 no-kernel-image from cudaFuncGetAttributes, 92 peer-access-already-enabled; 313 in all).
#pragma once

#include <cstddef>
#include <string>

namespace joseki::abc471g::multi {

struct Nccl {
  using Comm = void*;  // ncclComm_t: a pointer to an opaque struct
  enum Result : int { SUCCESS = 0 };
  enum DataType : int { UINT32 = 3, UINT64 = 5 };
  enum RedOp : int { SUM = 0 };
  int (*get_version)(int*) = nullptr;
  const char* (*get_error_string)(int) = nullptr;
  int (*comm_init_all)(Comm*, int, const int*) = nullptr;
  int (*comm_destroy)(Comm) = nullptr;
  int (*all_reduce)(const void*, void*, std::size_t, int, int, Comm, void* /*cudaStream_t*/) = nullptr;
  int (*group_start)() = nullptr;
  int (*group_end)() = nullptr;
  std::string path;  // the library that was loaded
  int version = 0;   // e.g. 22809 for 2.28.9
  // Throws RunError naming the call and NCCL's message when r != SUCCESS.
  void check(int r, const char* call) const;
};

// The loaded library (loaded once), or nullptr with *why set to a plain reason.
const Nccl* load_nccl(std::string* why);

// Sets NCCL_NVLS_ENABLE=0 (always: multicast must stay off on shared hosts).
void disable_nvls();

}  // namespace joseki::abc471g::multi
