// Shared libraries loaded at run time (dlopen) where the toolkit ships no static archive the
// joseki binary could carry: NCCL (gpu-multi) and cuBLASLt (the gpu-pairs GEMM combiner). A
// missing library is a plain reason, never a failed start: the caller falls back or says so.
#pragma once

#include <dlfcn.h>

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace joseki::dynlib {

// Where to look for `soname` (e.g. "libnccl.so.2"), in order: $env_var (a path) when set, the
// loader's own search (LD_LIBRARY_PATH, its cache), /usr/local/cuda/lib64 and the versioned
// toolkit folders, then the Python wheels' nvidia/<sub>/lib under the usual site-packages folders,
// for each of `wheel_subdirs` (e.g. {"nccl", "cu13"}).
std::vector<std::string> candidates(const std::string& soname, const char* env_var,
                                    const std::vector<std::string>& wheel_subdirs);

struct Library {
  void* handle = nullptr;  // from dlopen; never closed (the process keeps it)
  std::string path;
};

// The first candidate that opens and that `accept` takes (it resolves the symbols it needs; a
// library it refuses is closed and the search goes on). On failure returns {} and sets *why to
// "<soname> not found (tried ...; set <env_var> to its path)" or to accept's last reason.
Library open_first(const std::string& soname, const char* env_var, const std::vector<std::string>& wheel_subdirs,
                   const std::function<bool(void* handle, std::string* reason)>& accept, std::string* why);

// A library's API table loaded once per process, thread-safe: the first call runs
// load(api, reason), which fills `api` and returns true, or sets `reason` and returns false; every
// call returns &api, or nullptr with *why (when given) = reason. Each call site (its own `load`
// lambda type) has its own table.
template <class Api, class Load>
const Api* load_once(Load load, std::string* why) {
  static std::once_flag once;
  static Api api;
  static std::string reason;
  static bool ok = false;
  std::call_once(once, [&] { ok = load(api, reason); });
  if (!ok && why) *why = reason;
  return ok ? &api : nullptr;
}

// f = the symbol `name` of h, cast to f's type; false when h lacks it.
template <class F>
bool symbol(void* h, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(h, name));
  return f != nullptr;
}

}  // namespace joseki::dynlib
