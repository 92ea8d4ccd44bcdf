// dlopen of libnccl.so.2 (nccl.hpp).
#include "experiments/abc471g/gpu_multi/nccl.hpp"

#include <dlfcn.h>
#include <glob.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "measure/errors.hpp"

#if defined(JOSEKI_HAVE_CUDA) && __has_include(<nccl.h>)
#include <nccl.h>
// Our declarations must match NCCL's ABI.
static_assert(ncclSuccess == 0 && ncclUint32 == 3 && ncclUint64 == 5 && ncclSum == 0, "NCCL enum values changed");
static_assert(sizeof(ncclComm_t) == sizeof(void*), "ncclComm_t is not a pointer");
#endif

namespace joseki::abc471g::multi {

namespace {

std::vector<std::string> candidates() {
  std::vector<std::string> c{"libnccl.so.2"};
  if (const char* e = std::getenv("JOSEKI_NCCL_LIB"); e && *e) c.insert(c.begin(), e);
  c.push_back("/usr/local/cuda/lib64/libnccl.so.2");
  c.push_back("/usr/lib/x86_64-linux-gnu/libnccl.so.2");
  const char* patterns[] = {
      "/opt/*/.venv/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2",
      "/opt/*/.venv/lib/python3*/site-packages/nvidia/cu13/lib/libnccl.so.2",
      "/usr/local/lib/python3*/dist-packages/nvidia/nccl/lib/libnccl.so.2",
      "/usr/local/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2",
      "/usr/lib/python3/dist-packages/nvidia/nccl/lib/libnccl.so.2",
      "/root/.local/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2",
  };
  for (const char* p : patterns) {
    glob_t g{};
    if (glob(p, 0, nullptr, &g) == 0)
      for (std::size_t i = 0; i < g.gl_pathc; ++i) c.emplace_back(g.gl_pathv[i]);
    globfree(&g);
  }
  return c;
}

template <class F>
bool sym(void* h, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(h, name));
  return f != nullptr;
}

}  // namespace

void Nccl::check(int r, const char* call) const {
  if (r == SUCCESS) return;
  const char* msg = get_error_string ? get_error_string(r) : "unknown";
  throw RunError(std::string("NCCL ") + call + " failed: " + msg + " (error " + std::to_string(r) + ", " + path + ")");
}

void disable_nvls() { setenv("NCCL_NVLS_ENABLE", "0", 1); }

const Nccl* load_nccl(std::string* why) {
  static std::once_flag once;
  static Nccl lib;
  static std::string reason;
  static bool ok = false;
  std::call_once(once, [] {
    std::string tried;
    for (const std::string& path : candidates()) {
      void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        tried += (tried.empty() ? "" : ", ") + path;
        continue;
      }
      Nccl n;
      n.path = path;
      if (!sym(h, "ncclGetVersion", n.get_version) || !sym(h, "ncclGetErrorString", n.get_error_string) ||
          !sym(h, "ncclCommInitAll", n.comm_init_all) || !sym(h, "ncclCommDestroy", n.comm_destroy) ||
          !sym(h, "ncclAllReduce", n.all_reduce) || !sym(h, "ncclGroupStart", n.group_start) ||
          !sym(h, "ncclGroupEnd", n.group_end)) {
        reason = path + " lacks an NCCL entry point";
        dlclose(h);
        continue;
      }
      n.get_version(&n.version);
      lib = n;
      ok = true;
      return;
    }
    if (reason.empty()) reason = "libnccl.so.2 not found (tried " + tried + "; set JOSEKI_NCCL_LIB to its path)";
  });
  if (!ok && why) *why = reason;
  return ok ? &lib : nullptr;
}

}  // namespace joseki::abc471g::multi
