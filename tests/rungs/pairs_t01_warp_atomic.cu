// t01 (id pt01) — a test-only rung of the gpu-pairs ladder that brings a NEW KIND of count kernel:
// the count kind "warp_atomic". It exists to prove the documented way of adding such a rung: this one
// file (the kernel, its CountStage and its registered CountKind, kinds.hpp) plus one line in
// tests/rungs/pairs_rungs.def naming the kind (in the real ladder: one entry of ladder.cpp).
// tests/gpu/test_abc471g_pairs_kinds.cpp runs it through measure::run_ladder on the GPU; the unit test
// Abc471gPairsLadder.ATestOnlyKindRungIsListedAfterItsPredecessor lists it on any machine.
// What changed (vs r02's atomic count, count.cu): the same runs of pairs per thread, but every warp
// steps its 32 runs together and the lanes whose pair falls in the same table cell are merged with
// __match_any_sync: the group's leader adds the group's size (one RED.ADD per distinct cell per step
// instead of one per pair).
// Prediction: slower than r02 on uniform random input (K = 2300: 5.3e6 cells, almost never two lanes
// on one cell, so the match costs ~10 instructions a pair for nothing); faster only on skewed input (few
// symbols: many lanes on one cell). Not a ladder rung: no H200 figure is kept for it (the GPU test only
// checks that it validates and times); not yet measured on the H200.
#include <cuda_runtime.h>

#include <memory>
#include <string>

#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#include "experiments/abc471g/gpu_pairs/kinds.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::pairs {
namespace {

__constant__ JumpTable c_jump_t01 = make_jump_table();

constexpr int T01_THREADS = 256;

// Thread t owns pair starts [p0, p1) = [begin + t * ppt, ...) like r02's count, reads elements p0..p1
// (elements < M from b, the others from the LCG jumped to max(p0, M)). Every lane of a warp runs ppt
// steps (no early exit: the match needs the whole warp); a step without a pair of its own takes part
// with an invalid cell.
__global__ void __launch_bounds__(T01_THREADS) warp_atomic_count_kernel(CountArgs a, int bits) {
  const std::uint64_t tid = blockIdx.x * static_cast<std::uint64_t>(T01_THREADS) + threadIdx.x;
  const std::uint64_t p0 = a.begin + tid * a.pairs_per_thread;
  const std::uint64_t p1 = p0 < a.end ? (a.end - p0 < a.pairs_per_thread ? a.end : p0 + a.pairs_per_thread) : p0;
  ElementCursor el{a.d_b, a.m, FastMod{a.fastmod_m, a.k}, p0, 0};
  std::uint32_t prev = 0;
  if (p0 < p1) {
    el.state = jump_with(c_jump_t01, a.seed, (p0 > a.m ? p0 : a.m) - a.m, bits);
    prev = el.next();
  }
  const std::uint32_t lane = threadIdx.x & 31u;
  for (std::uint32_t t = 0; t < a.pairs_per_thread; ++t) {
    const bool valid = p0 + t < p1;
    std::uint32_t cell = 0xFFFFFFFFu;  // never a cell: kp * kp <= 2^28
    if (valid) {
      const std::uint32_t cur = el.next();
      cell = prev * a.kp + cur;
      prev = cur;
    }
    const std::uint32_t peers = __match_any_sync(0xFFFFFFFFu, cell);
    if (valid && static_cast<std::uint32_t>(__ffs(peers) - 1) == lane) atomicAdd(a.d_table + cell, __popc(peers));
  }
}

class WarpAtomicStage final : public CountStage {
 public:
  explicit WarpAtomicStage(const StageContext& ctx) {
    // Checked here, not in enqueue_round (which may run inside r05's graph capture).
    if (ctx.kp == 0 || ctx.kp > 16384)
      throw InputError("t01 warp_atomic count: kp = " + std::to_string(ctx.kp) + " (need 1..16384)");
    chunk_pairs = ctx.round;  // one launch per round; pairs per thread: the device's (one wave)
    chunks_per_round = 1;
  }
  void enqueue_round(const CountArgs& a, cudaStream_t s) override {
    if (a.end <= a.begin) return;
    if (a.pairs_per_thread == 0)  // the device always sets it (its own choice or the config's)
      throw RunError("t01 warp_atomic count: pairs_per_thread = 0 from the device");
    const std::uint64_t threads = (a.end - a.begin + a.pairs_per_thread - 1) / a.pairs_per_thread;
    const unsigned blocks = static_cast<unsigned>((threads + T01_THREADS - 1) / T01_THREADS);
    const int bits = a.end > a.m ? bit_length(a.end - a.m) : 0;
    warp_atomic_count_kernel<<<blocks, T01_THREADS, 0, s>>>(a, bits);
    JOSEKI_CUDA_CHECK_LAUNCH();
  }
  std::string explanation() const override {
    return "one L2 atomic per group of equal cells of a warp (__match_any_sync; test-only rung t01)";
  }
  std::vector<std::pair<std::string, std::uint64_t>> extras() const override { return {{"warp_threads", T01_THREADS}}; }
};

std::unique_ptr<CountStage> make_warp_atomic(const StageContext& ctx) { return std::make_unique<WarpAtomicStage>(ctx); }

// __match_any_sync: sm_70, below every architecture joseki builds: no need beyond the device's.
const CountKindRegistrar reg_warp_atomic{CountKind{"warp_atomic", "the warp-aggregated atomic count (t01)", {}, make_warp_atomic}};

}  // namespace
}  // namespace joseki::abc471g::pairs
