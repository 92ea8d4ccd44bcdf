// Rung 33 of the gpu-pairs ladder (issue 19, the max-case goal): r31 with the combine skewed so that only the
// rows x with V[x] = 0 are multiplied: the combine kind "wgmma_skew" (this file; kernel
// wgmma_combine_tma_kernel<4, 64, 8, true> in sm90a/r09_wgmma_combine.cu, index math in r09_wgmma_math.hpp "r33").
//
// What changed from r31: r15's combine computes, for every k, D[k][a] = sum_b V[(k + b) mod K] C[a][b] and keeps
// the entries whose mask 1 - V[(a + k) mod K] is 1: at V's half ones, half the K^3 products are thrown away in the
// epilogue. The mask depends on a + k, so no row or column of D is all masked. Skewed, it is: with x = a + k and
// d = b - a (mod K),
//   answer[k] = sum_{a,b} C[a][b] U[a + k] V[b + k] = sum_a U[x] D'[x][a],  x = (a + k) mod K,
//   D'[x][a] = sum_d P[a][d] V[(x + d) mod K],  P[a][d] = C[a][(a + d) mod K]  (U = 1 - V),
// so the rows x with U[x] = 0 drop out whole: D' is |U| x K x K (the rows compacted, WgmmaCombineArgs::d_rows)
// instead of K^3, on the same kernel (the A fragments from V's copies, row by row; P by TMA). The price: the
// histograms write P skewed (one byte store a cell instead of one 32-bit store for four; FuseArgs::skew), and the
// epilogue no longer sums along a row: entry (x, a) goes to answer[(x - a) mod K], so each block adds its tile
// into shared-memory windows (one 32-bit shared atomic an entry, a copy per quad lane) and then one 64-bit atomic
// a window entry to the answer.
// Prediction (max case, V half ones: |U| = 1150 of 2300, 5 row tiles of 256 instead of 9): tensor work x0.56 ->
// the kernel ~27 -> ~15 us, plus ~1.5-3 us of window atomics (~2.9 M shared atomics, ~22 K a SM; stream-K repeats
// the epilogue of a tile cut between blocks) and ~1 us more in the histograms: the whole max case ~62 -> ~50-52 us;
// 10^9 ~-20 us (the combine is ~49 us there). A V with few ones gains nothing (|U| ~ K), one with many gains more.
// Not done: the mirror form (rows y with V[y] = 1, C transposed) for a V with more ones than zeros.
// The rows list is made from V on the host when the device is made (V is the problem's input, uploaded with it).
// Measured (H200, results/h200/2026-12-03-session13/final, code of 5c9f1c9, medians of three processes [min, max]; every
// answer exact against cpu-direct, the GPU tests of every shape and the sanitizers clean): a LOSS. The max case 63.52 us
// [63.49, 63.55] against r31's 62.02 [61.92, 62.08] in the same runs (+2.4 %); 10^8 350.59 against 345.60; 10^9
// 2907.62 against 2879.23 (+1.0 %). The combine did shrink: alone 27.78 us against r31's 31.39 at the max case, 39.87
// against 49.34 at 10^9; the kernel alone (ncu) 22.7 us against r15's 27.1, 6.60 M warp instructions against 8.87 M,
// tensor pipe 36.8 % busy against 53.3 %: half the tensor work bought 16 %, because the kernel is bound by its issue
// (fragments, mbarriers, the epilogue's 203 K shared atomics with 450 K bank conflicts), not by the tensor cores.
// The count lost more: 41.02 us alone against 35.39 (+5.6 us) at the max case, 2884.98 against 2832.64 at 10^9 -
// writing the planes skewed costs the histogram kernel a second pass over its slice after its last barrier.
// On the way (same folder, final-a and diag): the first epilogue spent ~18 instructions an element (8.39 M in all, the
// kernel 24.0 us) until its atomics took a constant offset from the row's slot (6.60 M); the first skewed write (each
// cell's byte at its column, a division per group) made the count +6.4 us, output words from the counters +7.4 us,
// the bytes staged in shared memory (this version) +5.6 us. Kept as a negative rung: the skew halves the product but
// moves its cost into the count; at V's half ones the net is a loss at every size.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_combine.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include <memory>
#include <string>
#include <vector>

#include "backend/cuda/buffer.hpp"
#include "experiments/abc471g/gpu_pairs/kinds.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::pairs {

namespace {

// The x with V[x] = 0, ascending (the skewed product's rows).
std::vector<std::uint32_t> zero_rows(const Problem& p) {
  std::vector<std::uint32_t> rows;
  for (std::uint32_t x = 0; x < p.k; ++x)
    if (p.v[x] == 0) rows.push_back(x);
  return rows;
}

class SkewedCombineStage final : public CombineStage {
 public:
  explicit SkewedCombineStage(const StageContext& ctx) : m_shape(ctx.cfg->wgmma) {
    if (!m_shape.tma || m_shape.stages != 8 || m_shape.op != WgmmaOperand::Rs)
      throw InputError("gpu-pairs: the combine kind 'wgmma_skew' (r33) runs on r15's TMA kernel only (rs, tma 1, "
                       "8 stages; 2 or 4 warpgroups; PairsConfig::wgmma)");
    const std::vector<std::uint32_t> rows = zero_rows(*ctx.p);
    m_count = static_cast<std::uint32_t>(rows.size());
    m_rows = cuda::DeviceBuffer<std::uint32_t>(rows.empty() ? 1 : rows.size());
    if (!rows.empty()) m_rows.copy_from_host(rows.data(), rows.size());  // on the legacy stream: the device syncs it
    if (m_shape.v_image) {  // r49: V's copies as the prologue lays them out, made once with the device
      const std::vector<std::uint8_t> image = v_copies_image(ctx.p->v, ctx.kp);
      m_vimage = cuda::DeviceBuffer<std::uint8_t>(image.size());
      m_vimage.copy_from_host(image.data(), image.size());
    }
    prepare_wgmma_combine(ctx.kp);
  }
  void enqueue(const CombinePlanes& cp, CUstream_st* s) override {
    if (m_count == 0) {  // V all ones: no x with U[x] = 1, the sum is empty
      // r69: no combine block sets the histograms' count back to zero: do it here, after them in stream order
      if (cp.d_done) JOSEKI_CUDA_CHECK(cudaMemsetAsync(cp.d_done, 0, 2 * sizeof(std::uint32_t), s));
      return;
    }
    WgmmaCombineArgs wa;
    wa.d_planes = cp.d_planes;
    wa.planes = cp.planes;
    wa.low_bits = cp.low_bits;
    wa.d_max = cp.d_max;
    wa.d_v = cp.d_v;
    wa.k = cp.k;
    wa.kp = cp.kp;
    wa.d_answer = cp.d_answer;
    wa.dependent = cp.dependent ? 1 : 0;
    wa.d_done = cp.d_done;  // r69
    wa.done_target = cp.done_target;
    wa.d_trace = cp.d_trace;
    wa.trace_blocks = cp.trace_blocks;
    wa.d_rows = m_rows.data();
    wa.rows = m_count;
    if (m_shape.v_image) wa.d_vimage = m_vimage.data();
    set_wgmma_shape(wa, m_shape);
    launch_wgmma_combine(wa, m_shape.op, s);
  }
  std::string description() const override {
    return "joseki's wgmma kernel (sm_90a) on the skewed planes, only the " + std::to_string(m_count) +
           " rows x with V[x] = 0, summed along (x - a) mod K in shared-memory windows";
  }

 private:
  WgmmaShape m_shape;
  cuda::DeviceBuffer<std::uint32_t> m_rows;
  cuda::DeviceBuffer<std::uint8_t> m_vimage;  // r49 (WgmmaShape::v_image) only
  std::uint32_t m_count = 0;
};

std::unique_ptr<CombineStage> make_skewed_stage(const StageContext& ctx) {
  return std::make_unique<SkewedCombineStage>(ctx);
}

CombineKind skewed_kind() {
  CombineKind k{"wgmma_skew", "r33's skewed wgmma combine", measure::Needs{0, {measure::Feature::Wgmma}, 0},
                wgmma_combine_unavailable, make_skewed_stage};
  k.skewed_planes = true;
  return k;
}
const CombineKindRegistrar reg_skewed{skewed_kind()};

}  // namespace

}  // namespace joseki::abc471g::pairs
#endif
