// cuBLASLt int8 GEMM, loaded with dlopen (int8_gemm.hpp).
#include "backend/cuda/int8_gemm.hpp"

#include <cublasLt.h>

#include <chrono>
#include <mutex>

#include "backend/cuda/check.hpp"
#include "backend/dynlib.hpp"
#include "measure/errors.hpp"

namespace joseki::cuda {

namespace {

struct Lt {
  decltype(&cublasLtCreate) create = nullptr;
  decltype(&cublasLtGetVersion) get_version = nullptr;
  decltype(&cublasLtGetStatusString) status_string = nullptr;
  decltype(&cublasLtMatmulDescCreate) desc_create = nullptr;
  decltype(&cublasLtMatmulDescDestroy) desc_destroy = nullptr;
  decltype(&cublasLtMatmulDescSetAttribute) desc_set = nullptr;
  decltype(&cublasLtMatrixLayoutCreate) layout_create = nullptr;
  decltype(&cublasLtMatrixLayoutDestroy) layout_destroy = nullptr;
  decltype(&cublasLtMatmulPreferenceCreate) pref_create = nullptr;
  decltype(&cublasLtMatmulPreferenceDestroy) pref_destroy = nullptr;
  decltype(&cublasLtMatmulPreferenceSetAttribute) pref_set = nullptr;
  decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
  decltype(&cublasLtMatmul) matmul = nullptr;
  cublasLtHandle_t handle = nullptr;
  std::string path;
  std::size_t version = 0;
  double load_s = 0;

  void check(cublasStatus_t st, const char* call) const {
    if (st == CUBLAS_STATUS_SUCCESS) return;
    throw RunError(std::string("cuBLASLt ") + call + " failed: " + (status_string ? status_string(st) : "?") +
                   " (status " + std::to_string(static_cast<int>(st)) + ", " + path + ")");
  }
};

const Lt* load(std::string* why) {
  static std::once_flag once;
  static Lt lt;
  static std::string reason;
  static bool ok = false;
  std::call_once(once, [] {
    const auto t0 = std::chrono::steady_clock::now();
    const dynlib::Library l = dynlib::open_first(
        "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR), "JOSEKI_CUBLASLT_LIB", {"cu13", "cublas"},
        [](void* h, std::string* r) {
          using dynlib::symbol;
          if (!symbol(h, "cublasLtCreate", lt.create) || !symbol(h, "cublasLtGetVersion", lt.get_version) ||
              !symbol(h, "cublasLtGetStatusString", lt.status_string) ||
              !symbol(h, "cublasLtMatmulDescCreate", lt.desc_create) ||
              !symbol(h, "cublasLtMatmulDescDestroy", lt.desc_destroy) ||
              !symbol(h, "cublasLtMatmulDescSetAttribute", lt.desc_set) ||
              !symbol(h, "cublasLtMatrixLayoutCreate", lt.layout_create) ||
              !symbol(h, "cublasLtMatrixLayoutDestroy", lt.layout_destroy) ||
              !symbol(h, "cublasLtMatmulPreferenceCreate", lt.pref_create) ||
              !symbol(h, "cublasLtMatmulPreferenceDestroy", lt.pref_destroy) ||
              !symbol(h, "cublasLtMatmulPreferenceSetAttribute", lt.pref_set) ||
              !symbol(h, "cublasLtMatmulAlgoGetHeuristic", lt.heuristic) || !symbol(h, "cublasLtMatmul", lt.matmul)) {
            *r = "lacks a cuBLASLt entry point";
            return false;
          }
          // The major version is the ABI (the types come from this build's cublasLt.h).
          if (lt.get_version() / 10000 != CUBLAS_VER_MAJOR) {
            *r = "version " + std::to_string(lt.get_version()) + ", this build needs " +
                 std::to_string(CUBLAS_VER_MAJOR) + ".x";
            return false;
          }
          return true;
        },
        &reason);
    if (!l.handle) return;
    lt.path = l.path;
    lt.version = lt.get_version();
    const cublasStatus_t st = lt.create(&lt.handle);
    if (st != CUBLAS_STATUS_SUCCESS) {
      reason = "cublasLtCreate failed: " + std::string(lt.status_string(st)) + " (" + lt.path + ")";
      return;
    }
    lt.load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ok = true;
  });
  if (!ok && why) *why = reason;
  return ok ? &lt : nullptr;
}

}  // namespace

struct Int8Gemm::Impl {
  const Lt* lt = nullptr;
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, ld = nullptr;
  cublasLtMatmulAlgo_t algo{};
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  int algos = 0, algo_index = 0;
  ~Impl() {
    if (workspace) cudaFree(workspace);
    if (!lt) return;
    if (la) lt->layout_destroy(la);
    if (lb) lt->layout_destroy(lb);
    if (ld) lt->layout_destroy(ld);
    if (op) lt->desc_destroy(op);
  }
};

std::unique_ptr<Int8Gemm> Int8Gemm::create(int n, std::string* why, int algo, int cols) {
  if (cols <= 0) cols = n;
  const Lt* lt = load(why);
  if (!lt) return nullptr;
  auto m = std::make_unique<Impl>();
  m->lt = lt;
  lt->check(lt->desc_create(&m->op, CUBLAS_COMPUTE_32I, CUDA_R_32I), "MatmulDescCreate");
  const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;  // "TN": the int8 kernels' native form
  lt->check(lt->desc_set(m->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "MatmulDescSetAttribute");
  lt->check(lt->desc_set(m->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "MatmulDescSetAttribute");
  lt->check(lt->layout_create(&m->la, CUDA_R_8I, n, n, n), "MatrixLayoutCreate");
  lt->check(lt->layout_create(&m->lb, CUDA_R_8I, n, cols, n), "MatrixLayoutCreate");
  lt->check(lt->layout_create(&m->ld, CUDA_R_32I, n, cols, n), "MatrixLayoutCreate");
  cublasLtMatmulPreference_t pref = nullptr;
  lt->check(lt->pref_create(&pref), "MatmulPreferenceCreate");
  const std::size_t max_ws = 32u << 20;
  lt->check(lt->pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &max_ws, sizeof max_ws),
            "MatmulPreferenceSetAttribute");
  cublasLtMatmulHeuristicResult_t results[8]{};
  int found = 0;
  const cublasStatus_t st = lt->heuristic(lt->handle, m->op, m->la, m->lb, m->ld, m->ld, pref, 8, results, &found);
  lt->pref_destroy(pref);
  if (st != CUBLAS_STATUS_SUCCESS || found == 0) {
    if (why)
      *why = "cuBLASLt (" + lt->path + ") has no int8 GEMM algorithm for n = " + std::to_string(n) +
             (cols != n ? " x " + std::to_string(cols) + " columns" : std::string()) + " on this GPU";
    return nullptr;
  }
  m->algos = found;
  m->algo_index = algo >= 0 && algo < found ? algo : 0;
  const cublasLtMatmulHeuristicResult_t& res = results[m->algo_index];
  m->algo = res.algo;
  m->workspace_bytes = res.workspaceSize;
  if (m->workspace_bytes) JOSEKI_CUDA_CHECK(cudaMalloc(&m->workspace, m->workspace_bytes));
  return std::unique_ptr<Int8Gemm>(new Int8Gemm(std::move(m)));
}

Int8Gemm::Int8Gemm(std::unique_ptr<Impl> impl) : m(std::move(impl)) {}
Int8Gemm::~Int8Gemm() = default;

void Int8Gemm::run(const std::int8_t* d_a, const std::int8_t* d_b, std::int32_t* d_d, cudaStream_t s) const {
  const std::int32_t alpha = 1, beta = 0;
  m->lt->check(m->lt->matmul(m->lt->handle, m->op, &alpha, d_a, m->la, d_b, m->lb, &beta, d_d, m->ld, d_d, m->ld,
                             &m->algo, m->workspace, m->workspace_bytes, s),
               "Matmul");
}

const std::string& Int8Gemm::library() const { return m->lt->path; }
std::size_t Int8Gemm::version() const { return m->lt->version; }
double Int8Gemm::load_seconds() const { return m->lt->load_s; }
int Int8Gemm::algo() const { return m->algo_index; }
int Int8Gemm::algos() const { return m->algos; }

}  // namespace joseki::cuda

namespace joseki::gpu {
void preload_libraries() {
  std::string ignored;
  (void)cuda::load(&ignored);
}
}  // namespace joseki::gpu
