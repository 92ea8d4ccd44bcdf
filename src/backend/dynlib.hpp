// Shared libraries loaded at run time (dlopen) where the toolkit ships no static archive the
// joseki binary could carry: NCCL (gpu-multi) and cuBLASLt (the gpu-pairs GEMM combiner). A
// missing library is a plain reason, never a failed start: the caller falls back or says so.
#pragma once

#include <dlfcn.h>

#include <functional>
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

// f = the symbol `name` of h, cast to f's type; false when h lacks it.
template <class F>
bool symbol(void* h, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(h, name));
  return f != nullptr;
}

}  // namespace joseki::dynlib
