// dlopen of libnccl.so.2 (nccl.hpp).
#include "experiments/abc471g/gpu_multi/nccl.hpp"

#include <cstdlib>
#include <mutex>

#include "backend/dynlib.hpp"
#include "measure/errors.hpp"

#if defined(JOSEKI_HAVE_CUDA) && __has_include(<nccl.h>)
#include <nccl.h>
// Our declarations must match NCCL's ABI.
static_assert(ncclSuccess == 0 && ncclUint32 == 3 && ncclUint64 == 5 && ncclSum == 0, "NCCL enum values changed");
static_assert(sizeof(ncclComm_t) == sizeof(void*), "ncclComm_t is not a pointer");
#endif

namespace joseki::abc471g::multi {

using dynlib::symbol;

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
    const dynlib::Library l = dynlib::open_first(
        "libnccl.so.2", "JOSEKI_NCCL_LIB", {"nccl", "cu13"},
        [](void* h, std::string* r) {
          Nccl n;
          if (!symbol(h, "ncclGetVersion", n.get_version) || !symbol(h, "ncclGetErrorString", n.get_error_string) ||
              !symbol(h, "ncclCommInitAll", n.comm_init_all) || !symbol(h, "ncclCommDestroy", n.comm_destroy) ||
              !symbol(h, "ncclAllReduce", n.all_reduce) || !symbol(h, "ncclGroupStart", n.group_start) ||
              !symbol(h, "ncclGroupEnd", n.group_end)) {
            *r = "lacks an NCCL entry point";
            return false;
          }
          n.get_version(&n.version);
          lib = n;
          return true;
        },
        &reason);
    if (l.handle) {
      lib.path = l.path;
      ok = true;
    }
  });
  if (!ok && why) *why = reason;
  return ok ? &lib : nullptr;
}

}  // namespace joseki::abc471g::multi
