// `joseki try`, the child's side that every ladder's try shares (reduce_run.cpp, direct_run.cpp):
// the device opened, the user's file compiled with NVRTC once per set of defines (each compile's
// report kept, the PTX's parameter list checked against the ladder's signature), the result
// document's head and the loaded kernel's resources. A ladder's try adds its launcher, its
// validation and its timing.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/try/ladders.hpp"
#include "measure/record.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/nvrtc.hpp"
#endif

namespace joseki::trykernel {

// A CPU-only build's run: GpuUnavailable saying that running needs a CUDA build.
[[noreturn]] void run_needs_cuda();

#ifdef JOSEKI_HAVE_CUDA

// The device of a run, made current: GpuUnavailable (naming --compile-only) when there is none.
measure::DeviceFacts open_device(const RunOptions& o);

// o.progress, or nothing when it is empty.
std::function<void(const std::string&)> progress_of(const RunOptions& o);

// The result document's head: ladder, variant, file and device.
nlohmann::json result_head(const TryLadder& l, const std::string& variant, const TryFile& f,
                           const measure::DeviceFacts& d);

// The user's file compiled for the device, one module per set of defines.
class UserModules {
 public:
  UserModules() = default;
  UserModules(const TryFile& f, const TryLadder& l, const measure::DeviceFacts& d, bool lineinfo);

  // The module of these defines, compiled and loaded on first use. CompileError when NVRTC rejects
  // the file; InputError when the kernel's parameters differ from the ladder's signature.
  const cuda::nvrtc::Module& get(const std::vector<std::string>& defines);

  const std::string& arch() const { return m_arch; }
  // The report of the first compile (the document's "compile": the default configuration), with
  // the count of configurations compiled and the seconds spent compiling them all.
  nlohmann::json compile_json() const;
  double compile_seconds() const { return m_compile_s; }
  // Unloads the modules (while the runtime is certainly alive).
  void clear() { m_modules.clear(); }

 private:
  const TryFile* m_file = nullptr;
  const TryLadder* m_ladder = nullptr;
  std::string m_arch;
  std::vector<std::string> m_extra;  // -lineinfo under the sanitizer
  std::map<std::string, std::unique_ptr<cuda::nvrtc::Module>> m_modules;  // by defines
  std::map<std::string, CompileReport> m_reports;
  std::string m_first;  // the key of the first compile
  double m_compile_s = 0;
};

// The end of a document: its records, the compile's total seconds; the modules unloaded (while
// the runtime is certainly alive).
void finish(nlohmann::json& out, const std::vector<measure::Record>& records, UserModules& modules);

// The document's status: "wrong" at the first of `failures` that `mine` says is the user's (a
// ladder rung's failure is reported apart), first_failure = `where` + that message; else "exact".
void set_status(nlohmann::json& out, const std::vector<std::string>& failures,
                const std::function<bool(const std::string&)>& mine, nlohmann::json where);

// The loaded kernel's resources at `block` threads: registers, static shared memory, local bytes,
// binary version, block, resident blocks per SM and the occupancy by threads.
nlohmann::json kernel_json(const cuda::nvrtc::Module& m, int block, std::size_t dynamic_smem,
                           const measure::DeviceFacts& d);

#endif

}  // namespace joseki::trykernel
