// Rung 6 of the gpu-pairs ladder (issue 19, item (c) without a GEMM of our own): r05's graph, and
// the GEMM combine in panels of G's rows so that each panel's masked column sum runs beside the
// next panel's GEMM and reads its panel of G from the L2 instead of HBM.
//
// What changed from r05: r04/r05 run G = C_0 circ(V) as one cuBLASLt GEMM (2304^3 at the max case,
// ~25 us: 324 tiles of 128 x 128 on 132 SMs, 2.45 waves) and only then the masked column sum,
// answer[k] += sum_a (1 - V[a+k]) G[a][k], ~6-10 us because G (21 MB of int32) has gone to HBM by
// then (ncu: ~48 % of HBM bandwidth). Rows a of G depend only on rows a of C, so here the product
// is P GEMMs of kp/P rows each (rounded up to 128; cuBLASLt's column-major D = A^T B with B and D
// offset by the panel's first row) on the main stream, each followed by an event; a second stream
// waits for panel i's event and sums panel i (the column sum with a row range; plain launches)
// while panel i+1 multiplies. Only the last panel's sum is left on the critical path, and a
// panel of G (7 MB at P = 3) is still in the L2 when it is read.
// Prediction (max case, P = 3: 2304 x 768 x 2304 per panel, 108 tiles = 0.82 waves, so 3 waves in
// all as before, and 24 SMs idle in each for the sums): the combine ~40 -> ~32 us, the solve
// -5 to -8 us against r05. Risk: cuBLASLt's heuristic may choose other tiles (or split-K) for the
// narrower shape; the sweep `pairs.sweep.gemm_panels` (scale hopper) measures P = 1, 2, 3, 4, 6.
// Nothing changes at 10^9 (the combine is ~0.1 ms of 4.7 ms).
// Preconditions: r04's. The panels fall back to r04's single GEMM when cuBLASLt has no algorithm
// for a panel's shape (the records' `gemm_panel_rows` says 0 then).
// Measured (H200, call 1, median of three processes, max case): 92.22 us against r05's 77.70 us:
// +18.7 %, a loss. Sweep (r05's graph, P panels): P = 1 78.02 us, 2 96.61, 3 92.22, 4 101.86, 6 110.94;
// 10^9 4740.7 us (P = 1 4721.6). Exact everywhere. The column sums do overlap, but the narrower GEMMs
// cost far more than the ~6-10 us they could hide: cuBLASLt's heuristic picks other kernels for
// 2304 x 768 x 2304 (P = 2, two 1152-row panels, is the worst: ~+18 us), and every panel pays a whole
// GEMM's ramp-up and tail. What would work instead is the column sum inside the GEMM's own epilogue (a
// wgmma kernel of our own, sm_90a), not more cuBLASLt calls. Kept as the measured negative result; the
// knob stays off (gemm_panels = 1) everywhere else.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"

#ifdef JOSEKI_HAVE_CUDA

#include <algorithm>
#include <string>

#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"

namespace joseki::abc471g::pairs {

int PairsDevice::gemm_panel_count() const {
  return m_panel_rows ? static_cast<int>((m_kp + m_panel_rows - 1) / m_panel_rows) : 1;
}

void PairsDevice::setup_gemm_panels() {
  const std::uint32_t panels = static_cast<std::uint32_t>(std::max(m_cfg.gemm_panels, 1));
  const std::uint32_t rows = (m_kp / panels + 127) / 128 * 128;  // a multiple of 128, >= kp / panels
  if (panels <= 1 || rows >= m_kp) return;
  std::string why;
  m_gemm_panel = cuda::Int8Gemm::create(static_cast<int>(m_kp), &why, m_cfg.gemm_algo, static_cast<int>(rows));
  const std::uint32_t last = m_kp - (m_kp - 1) / rows * rows;  // 1 .. rows (a multiple of 128)
  if (m_gemm_panel && last != rows)
    m_gemm_last = cuda::Int8Gemm::create(static_cast<int>(m_kp), &why, m_cfg.gemm_algo, static_cast<int>(last));
  if (!m_gemm_panel || (last != rows && !m_gemm_last)) {  // r04's single GEMM then
    m_gemm_panel.reset();
    m_gemm_last.reset();
    return;
  }
  m_panel_rows = rows;
  m_red = std::make_unique<cuda::Stream>();
  for (int i = 0; i < gemm_panel_count(); ++i) m_panel_done.push_back(std::make_unique<cuda::Event>());
  m_red_join = std::make_unique<cuda::Event>();
}

void PairsDevice::enqueue_gemm_panels(cudaStream_t s) {
  const int n = gemm_panel_count();
  const auto* planes = reinterpret_cast<const std::int8_t*>(m_planes.data());
  for (int i = 0; i < n; ++i) {
    const std::uint32_t r0 = static_cast<std::uint32_t>(i) * m_panel_rows;
    const std::uint32_t r1 = std::min(m_kp, r0 + m_panel_rows);
    const cuda::Int8Gemm& g = (r1 - r0 == m_panel_rows || !m_gemm_last) ? *m_gemm_panel : *m_gemm_last;
    // Column-major D = circ^T * B: D's column a is G's row a, B's column a is C's row a.
    g.run(m_circ.data(), planes + static_cast<std::size_t>(r0) * m_kp, m_g.data() + static_cast<std::size_t>(r0) * m_kp, s);
    JOSEKI_CUDA_CHECK(cudaEventRecord(*m_panel_done[i], s));
    JOSEKI_CUDA_CHECK(cudaStreamWaitEvent(*m_red, *m_panel_done[i], 0));
    ProductReduceArgs ra;
    ra.d_g = m_g.data();
    ra.d_u2 = m_u2.data();
    ra.k = m_p.k;
    ra.kp = m_kp;
    ra.d_answer = m_answer.data();
    ra.row_begin = r0;
    ra.row_end = r1;
    ra.dependent = false;
    launch_product_reduce(ra, *m_red);
  }
  JOSEKI_CUDA_CHECK(cudaEventRecord(*m_red_join, *m_red));
  JOSEKI_CUDA_CHECK(cudaStreamWaitEvent(s, *m_red_join, 0));
}

}  // namespace joseki::abc471g::pairs

#endif  // JOSEKI_HAVE_CUDA
