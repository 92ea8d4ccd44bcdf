// Solvers `gpu-pairs` (count on the GPU, tensor-core combine on joseki's mma.sync kernel: the
// fastest one-shot solve), `gpu-pairs-gemm` (r04: cuBLASLt's GEMM, the fastest GPU_COMPUTE, but
// the library's load costs a one-shot solve more than it saves) and `gpu-pairs-ntt`
// (same count, NTT combine: the exact-for-any-N transform form, kept as a rung and a cross-check).
#include "experiments/abc471g/cost/estimator.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/gpu_pairs/startup.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g::pairs {
namespace {

SolveResult solve_tc(const Problem& p, const SolveOptions& o) {
  PairsConfig c;
  c.combiner = Combiner::TensorCore;
  return solve_gpu_pairs(p, o, c);
}

SolveResult solve_gemm(const Problem& p, const SolveOptions& o) {
  PairsConfig c;
  c.combiner = Combiner::Gemm;
  return solve_gpu_pairs(p, o, c);
}

SolveResult solve_ntt(const Problem& p, const SolveOptions& o) {
  PairsConfig c;
  c.combiner = Combiner::Ntt;
  return solve_gpu_pairs(p, o, c);
}

const SolverRegistrar reg_tc{Solver{
    "gpu-pairs",
    "GPU: adjacent pairs counted into a K x K table (jump-ahead generation, partitioned by table slice "
    "into shared-memory histograms; L2 atomics above K = 4096), combined on the tensor cores (int8 "
    "planes, exact); any N, K <= 16384",
    true, 40, solve_tc, [](int d) { startup::begin_context_async(d); }}};
const CostEstimatorRegistrar est_tc{"gpu-pairs", calibrated_gpu_estimator("gpu-pairs", GPU_PAIRS_MAX_K)};
const SolverRegistrar reg_gemm{Solver{
    "gpu-pairs-gemm",
    "GPU: the gpu-pairs count (one chunk: histograms write the product's planes), the product's low "
    "7 bits on cuBLASLt's int8 GEMM (loaded at run time, ~50-90 ms once: for many solves in one "
    "process; mma.sync when it is missing); K <= 16384",
    true, 42, solve_gemm, [](int d) { startup::begin_context_async(d, /*libraries=*/true); }}};
const SolverRegistrar reg_ntt{Solver{
    "gpu-pairs-ntt",
    "GPU: the gpu-pairs count, combined by Goldilocks-prime NTT correlations (exact); K <= 4096",
    true, 41, solve_ntt, [](int d) { startup::begin_context_async(d); }}};

}  // namespace
}  // namespace joseki::abc471g::pairs
