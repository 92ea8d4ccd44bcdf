// Rung 9's combine kind "wgmma" (kinds.hpp): every byte plane of C on joseki's wgmma kernel
// (sm90a/r09_wgmma_combine.cu; its design, prediction and measurements at its top), the masked column
// sum in its epilogue, in place of cuBLASLt and mma.sync. The ladder entry p09 names it
// (PairsConfig::combine_kind = "wgmma"); PairsDevice calls its stage where the combine takes the planes
// (pipeline.cpp has no branch of its own for it). Where this GPU or build cannot run it, the device
// counts only and its combine says why (GpuUnavailable), never a silent fallback.
#include "experiments/abc471g/gpu_pairs/r09_wgmma_combine.hpp"

#include <memory>
#include <string>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/kinds.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"

namespace joseki::abc471g::pairs {

measure::Needs wgmma_combine_needs(std::uint32_t kp) {
  measure::Needs n{0, {measure::Feature::Wgmma}, 0};
#ifdef JOSEKI_HAVE_CUDA
  n.smem_per_block = static_cast<std::int64_t>(wgmma_combine_smem_bytes(kp, WgmmaOperand::Ss));
#else
  (void)kp;
#endif
  return n;
}

std::string wgmma_combine_unavailable(std::uint32_t kp, int device) {
#ifdef JOSEKI_HAVE_CUDA
  const gpu::Availability av = gpu::availability();
  if (!av.ok) return "no GPU: " + av.reason;
  if (!wgmma_combine_built()) return "this build has no sm_90a code (90 is not among its CUDA architectures)";
  if (auto why = measure::unmet(wgmma_combine_needs(kp), gpu::needs_facts(device))) return *why;
  return "";
#else
  (void)kp;
  (void)device;
  return "this joseki was built without CUDA";
#endif
}

#ifdef JOSEKI_HAVE_CUDA
namespace {

// One device's part of r09: the kernels' shared-memory limits set for its kp, the shape from the config.
class WgmmaCombineStage final : public CombineStage {
 public:
  explicit WgmmaCombineStage(const StageContext& ctx)
      : m_op(ctx.cfg->wgmma_ss ? WgmmaOperand::Ss : WgmmaOperand::Rs),
        m_warpgroups(ctx.cfg->wgmma_warpgroups),
        m_stage_bytes(ctx.cfg->wgmma_stage_bytes),
        m_inflight(ctx.cfg->wgmma_inflight),
        m_pad_copies(ctx.cfg->wgmma_pad_copies),
        m_stages(ctx.cfg->wgmma_stages),
        m_tma(ctx.cfg->wgmma_tma) {
    prepare_wgmma_combine(ctx.kp);
  }
  void enqueue(const CombinePlanes& cp, CUstream_st* s) override {
    WgmmaCombineArgs wa;
    wa.d_planes = cp.d_planes;
    wa.planes = cp.planes;
    wa.low_bits = cp.low_bits;
    wa.d_max = cp.d_max;
    wa.d_v = cp.d_v;
    wa.k = cp.k;
    wa.kp = cp.kp;
    wa.d_answer = cp.d_answer;
    wa.warpgroups = m_warpgroups;
    wa.stage_bytes = m_stage_bytes;
    wa.inflight = m_inflight;
    wa.pad_copies = m_pad_copies;
    wa.stages = m_stages;
    wa.tma = m_tma;
    launch_wgmma_combine(wa, m_op, s);
  }
  std::string description() const override {
    return "joseki's wgmma kernel (sm_90a): every plane of C times circ(V) made in shared memory, the masked "
           "column sum in its epilogue";
  }

 private:
  WgmmaOperand m_op;
  int m_warpgroups, m_stage_bytes, m_inflight, m_pad_copies, m_stages, m_tma;
};

std::unique_ptr<CombineStage> make_wgmma_stage(const StageContext& ctx) { return std::make_unique<WgmmaCombineStage>(ctx); }

const CombineKindRegistrar reg_wgmma{CombineKind{"wgmma", "r09's wgmma combine", measure::Needs{0, {measure::Feature::Wgmma}, 0},
                                                      wgmma_combine_unavailable, make_wgmma_stage}};

}  // namespace
#endif

}  // namespace joseki::abc471g::pairs
