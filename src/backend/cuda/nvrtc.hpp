// NVRTC, the CUDA toolkit's run-time compiler, loaded with dlopen like cuBLASLt and NCCL
// (dynlib.hpp): `joseki try` compiles a user's kernel file for the device in front of it. The
// compile needs no GPU (`joseki try --compile-only`); loading the result (Module) does. A
// missing library is a plain reason, never a failed start.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace joseki::cuda::nvrtc {

// Where libnvrtc came from and its version; nullopt (and *why) when it cannot be loaded.
// Search: $JOSEKI_NVRTC_LIB, the loader's path, /usr/local/cuda*/lib64, the pip wheels.
struct LibraryInfo {
  std::string path;
  int major = 0, minor = 0;
};
std::optional<LibraryInfo> library(std::string* why);

// What ptxas said about one kernel (-Xptxas -v): registers, shared memory, spills, stack.
struct PtxasInfo {
  int registers = -1;
  long smem_bytes = 0;          // static shared memory
  long cmem_bytes = 0;          // constant bank 0 (parameters)
  long stack_frame_bytes = 0;
  long spill_store_bytes = 0, spill_load_bytes = 0;
};
// The info lines for `kernel` (its mangled or extern "C" name) in an NVRTC/ptxas log; nullopt
// when the log has none for it (a PTX-only compile runs no ptxas). Pure; unit-tested.
std::optional<PtxasInfo> parse_ptxas_info(const std::string& log, const std::string& kernel);

// The byte sizes of `entry`'s parameters, in order, read off its `.entry NAME(.param ...)` list in
// PTX (".param .u64 x" -> 8, ".param .align 8 .b8 x[24]" -> 24); nullopt when the PTX has no such
// entry. An extern "C" name carries no types, so this is how a launcher checks a signature
// without a CUDA call that fails by design. Pure; unit-tested.
std::optional<std::vector<std::size_t>> ptx_param_sizes(const std::string& ptx, const std::string& entry);

// "sm_90" / "compute_90" / "90" -> "sm_90" etc.; throws InputError naming the text otherwise.
std::string normalize_arch(const std::string& arch);

struct CompileRequest {
  std::string source;
  std::string file_name;              // shown in NVRTC's messages: "FILE(line): error ..."
  std::string arch = "sm_90";         // sm_XX: a cubin (ptxas runs: registers, spills); compute_XX: PTX only
  std::vector<std::string> options;   // extra options (-D..., -lineinfo, ...)
};

struct CompileResult {
  bool ok = false;
  std::string log;             // NVRTC's log (errors, warnings, ptxas -v lines)
  std::string ptx;             // the PTX (compute_XX, and sm_XX where NVRTC keeps it) or empty
  std::vector<char> cubin;     // the cubin (sm_XX) or empty
  std::string command;         // "nvrtc <options>" as passed, for the record
  double seconds = 0;          // create + compile + fetch
  LibraryInfo lib;
};

// Throws RunError when NVRTC cannot be loaded (the message says where it looked and how to
// point JOSEKI_NVRTC_LIB at it) or an NVRTC call other than the compile itself fails. A
// compile error is a result with ok == false and the log.
CompileResult compile(const CompileRequest& req);

// A compiled image loaded into the current device's context (the CUDA runtime's library API:
// cudaLibraryLoadData / cudaLibraryGetKernel), and its kernel. Needs a GPU.
class Module {
 public:
  // Throws RunError (naming the entry) when the image does not load or lacks `entry`.
  Module(const CompileResult& compiled, const std::string& entry);
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  // The kernel handle, usable wherever the runtime takes a `const void* func`
  // (cudaLaunchKernel, cudaFuncGetAttributes, the occupancy calculator).
  const void* func() const { return m_kernel; }

  struct Attributes {
    int registers = 0;
    long static_smem = 0, local_bytes = 0, const_bytes = 0;
    int max_threads_per_block = 0, binary_version = 0, ptx_version = 0;
  };
  Attributes attributes() const;
  // The sizes of the kernel's parameters in order: from the compiled PTX's .param list when the
  // compile kept PTX (no CUDA call), else from cudaFuncGetParamInfo over indices 0..max_count (the
  // call one past the last parameter fails by design, an API error compute-sanitizer reports).
  // nullopt when neither says (no PTX and the runtime's call fails at index 0).
  std::optional<std::vector<std::size_t>> param_sizes(std::size_t max_count = 64) const;
  // Resident blocks per SM for this block size and dynamic shared memory.
  int blocks_per_sm(int block, std::size_t dynamic_smem) const;

 private:
  std::optional<std::vector<std::size_t>> m_ptx_params;  // from the PTX, when the compile kept it
  void* m_library = nullptr;  // cudaLibrary_t
  const void* m_kernel = nullptr;  // cudaKernel_t
};

}  // namespace joseki::cuda::nvrtc
