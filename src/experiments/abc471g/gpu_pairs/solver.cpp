// Solvers `gpu-pairs` (count on the GPU, tensor-core combine: the fast one; r04's cuBLASLt GEMM
// for the low plane when the library loads, else r03's mma.sync kernel) and `gpu-pairs-ntt`
// (same count, NTT combine: the exact-for-any-N transform form, kept as a rung and a cross-check).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g::pairs {
namespace {

SolveResult solve_tc(const Problem& p, const SolveOptions& o) {
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
    "planes, exact: cuBLASLt's GEMM when it loads, else joseki's mma.sync kernel); any N, K <= 16384",
    true, 40, solve_tc}};
const SolverRegistrar reg_ntt{Solver{
    "gpu-pairs-ntt",
    "GPU: the gpu-pairs count, combined by Goldilocks-prime NTT correlations (exact); K <= 4096",
    true, 41, solve_ntt}};

}  // namespace
}  // namespace joseki::abc471g::pairs
