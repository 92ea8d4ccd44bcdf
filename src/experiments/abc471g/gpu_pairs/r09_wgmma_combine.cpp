// Rung 9's combine kind "wgmma" (kinds.hpp): every byte plane of C on joseki's wgmma kernel
// (sm90a/r09_wgmma_combine.cu; its design, prediction and measurements at its top), the masked column
// sum in its epilogue, in place of cuBLASLt and mma.sync. The ladder entry p09 names it
// (PairsConfig::combine_kind = "wgmma"); PairsDevice calls its stage where the combine takes the planes
// (pipeline.cpp has no branch of its own for it). Where this GPU or build cannot run it, the device
// counts only and its combine says why (GpuUnavailable), never a silent fallback.
#include "experiments/abc471g/gpu_pairs/r09_wgmma_combine.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/kinds.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_math.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::pairs {

std::size_t wgmma_combine_smem_bytes(std::uint32_t kp, const WgmmaShape& shape) {
  // The launcher's choice of kernel (sm90a/r09_wgmma_combine.cu: launch_tma, launch_wgs, launch_bk) and the
  // dynamic shared memory it passes to that kernel's launch.
  if (shape.tma && shape.op == WgmmaOperand::Ss)  // r35, r36: the Hankel view H instead of V's copies
    return r09::tma_hankel_smem_bytes(kp, static_cast<std::uint32_t>(shape.stages));
  if (shape.tma)
    return r09::tma_smem_bytes(
        kp, shape.stages == static_cast<int>(r09::TMA_DEEPER_STAGES) ? r09::TMA_DEEPER_STAGES : r09::DEEP_STAGES, 64);
  const bool ss = shape.op == WgmmaOperand::Ss;
  const std::uint32_t nst = !ss && shape.stages == static_cast<int>(r09::DEEP_STAGES) ? r09::DEEP_STAGES : r09::STAGES;
  return r09::smem_bytes(kp, ss, shape.warpgroups == 4 ? 4 : 2, shape.stage_bytes == 128 ? 128 : 64, nst);
}

namespace {

// Why the Hankel kernel (ss with tma 1: r35, r36) cannot run at kp with `stages` slots ("" when it can): its H
// beside the ring would not fit 227 KiB. The launcher's argument check and the combine stage both say it.
std::string hankel_kp_refusal(std::uint32_t kp, int stages) {
  const std::uint32_t most = r09::hankel_max_kp(static_cast<std::uint32_t>(stages));
  if (kp <= most) return "";
  return "kp <= " + std::to_string(most) + " with " + std::to_string(stages) + " stages (kp = " + std::to_string(kp) +
         ": its 16 (kp + 128) bytes of shared memory beside the ring do not fit 227 KiB)";
}

// The largest dynamic shared memory of the kernels prepare_wgmma_combine sets up (every one of them).
std::size_t wgmma_combine_max_smem_bytes(std::uint32_t kp) {
  std::size_t most = 0;
  for (const WgmmaOperand op : {WgmmaOperand::Rs, WgmmaOperand::Ss})
    for (const int wgs : {2, 4})
      for (const int bk : {64, 128})
        for (const int stages : {static_cast<int>(r09::STAGES), static_cast<int>(r09::DEEP_STAGES)})
          most = std::max(most, wgmma_combine_smem_bytes(kp, WgmmaShape{op, wgs, bk, 1, 1, stages, 0}));
  for (const int wgs : {2, 4})
    for (const int stages : {static_cast<int>(r09::DEEP_STAGES), static_cast<int>(r09::TMA_DEEPER_STAGES)})
      most = std::max(most, wgmma_combine_smem_bytes(kp, WgmmaShape{WgmmaOperand::Rs, wgs, 64, 1, 1, stages, 1}));
  // r33's kernel (r15's shape, the windows beside it; prepare_wgmma_combine sets it up too)
  for (const std::uint32_t wgs : {2u, 4u})
    most = std::max(most, r09::tma_smem_bytes(kp, r09::TMA_DEEPER_STAGES, 64) + r09::skew_window_bytes(kp, wgs));
  // r35's and r36's kernels, set up only where they fit (kp <= hankel_max_kp; beyond, the launcher refuses the shape)
  for (const std::uint32_t nst : r09::HANKEL_SLOTS)
    if (kp <= r09::hankel_max_kp(nst)) most = std::max(most, r09::tma_hankel_smem_bytes(kp, nst));
  return most;
}

}  // namespace

measure::Needs wgmma_combine_needs(std::uint32_t kp) {
  return measure::Needs{0, {measure::Feature::Wgmma}, static_cast<std::int64_t>(wgmma_combine_max_smem_bytes(kp))};
}

std::vector<std::uint8_t> v_copies_image(const std::vector<std::uint8_t>& v, std::uint32_t kp) {
  const std::uint32_t k = static_cast<std::uint32_t>(v.size());
  if (k == 0 || kp < k || kp % 128 != 0)
    throw std::invalid_argument("v_copies_image: K = " + std::to_string(k) + ", kp = " + std::to_string(kp) +
                                " (kp must be a multiple of 128 >= K >= 1)");
  const std::uint32_t vb = r09::v_bytes(kp), stride = r09::copy_stride(kp, 1);
  std::vector<std::uint8_t> out(3 * static_cast<std::size_t>(stride) + vb, 0);
  for (std::uint32_t c = 0; c < 4; ++c)
    for (std::uint32_t i = 0; i < vb; ++i) out[static_cast<std::size_t>(c) * stride + i] = v[(i + c) % k];
  return out;
}

void check_wgmma_combine_args(const WgmmaCombineArgs& a, WgmmaOperand op) {
  const bool rs = op == WgmmaOperand::Rs;
  const auto refuse = [&](const std::string& what) {
    throw std::invalid_argument(
        "r09 wgmma combine: bad arguments: " + what + " (k = " + std::to_string(a.k) + ", kp = " + std::to_string(a.kp) +
        ", planes = " + std::to_string(a.planes) + ", op = " + std::to_string(static_cast<int>(op)) +
        ", warpgroups = " + std::to_string(a.warpgroups) + ", stage_bytes = " + std::to_string(a.stage_bytes) +
        ", inflight = " + std::to_string(a.inflight) + ", pad_copies = " + std::to_string(a.pad_copies) +
        ", stages = " + std::to_string(a.stages) + ", tma = " + std::to_string(a.tma) + ", debug = " +
        std::to_string(a.debug) + ", window_pad = " + std::to_string(a.window_pad) + ", early_copies = " +
        std::to_string(a.early_copies) + ", early_rows = " + std::to_string(a.early_rows) +
        ", segment_weight = " + std::to_string(a.segment_weight) + ", lean_prologue = " + std::to_string(a.lean_prologue) +
        ", skip_idle = " + std::to_string(a.skip_idle) + ", idle_discount = " + std::to_string(a.idle_discount) +
        ", edge_fast = " + std::to_string(a.edge_fast) + ", lean_split = " + std::to_string(a.lean_split) +
        ", ahead = " + std::to_string(a.ahead) + ")");
  };
  const auto is = [](int v, int x, int y) { return v == x || v == y; };
  if (a.k < 1) refuse("k = " + std::to_string(a.k) + " (must be >= 1)");
  if (a.kp % 128 != 0 || a.kp < a.k) refuse("kp = " + std::to_string(a.kp) + " (must be a multiple of 128 >= k)");
  if (a.planes < 1) refuse("planes = " + std::to_string(a.planes) + " (must be >= 1)");
  if (!a.d_planes || !a.d_v || !a.d_answer) refuse("a device pointer (d_planes, d_v, d_answer) is null");
  if (op != WgmmaOperand::Rs && op != WgmmaOperand::Ss)
    refuse("operand = " + std::to_string(static_cast<int>(op)) + " (must be Rs 0 or Ss 1)");
  if (!is(a.warpgroups, 2, 4)) refuse("warpgroups = " + std::to_string(a.warpgroups) + " (must be 2 or 4)");
  if (!is(a.stage_bytes, 64, 128)) refuse("stage_bytes = " + std::to_string(a.stage_bytes) + " (must be 64 or 128)");
  if (!is(a.inflight, 0, 1)) refuse("inflight = " + std::to_string(a.inflight) + " (must be 0 or 1)");
  if (!is(a.pad_copies, 0, 1)) refuse("pad_copies = " + std::to_string(a.pad_copies) + " (must be 0 or 1)");
  if (!is(a.tma, 0, 1)) refuse("tma = " + std::to_string(a.tma) + " (must be 0 or 1)");
  if (!is(a.dependent, 0, 1) || (a.dependent && a.tma != 1))
    refuse("dependent = " + std::to_string(a.dependent) + " (must be 0, or 1 with tma 1: r38's launch)");
  if (a.d_done && (!a.dependent || a.done_target == 0))
    refuse("d_done set with dependent = " + std::to_string(a.dependent) + ", done_target = " +
           std::to_string(a.done_target) + " (r69's wait: a dependent launch, at least one histogram block)");
  if (!is(a.window_pad, 0, 1) || (a.window_pad && !a.d_rows))
    refuse("window_pad = " + std::to_string(a.window_pad) + " (must be 0, or 1 with d_rows: r43's skewed epilogue)");
  if (!is(a.early_copies, 0, 1) || (a.early_copies && a.tma != 1))
    refuse("early_copies = " + std::to_string(a.early_copies) + " (must be 0, or 1 with tma 1: r44's copies)");
  if (!is(a.early_rows, 0, 1) || (a.early_rows && !a.d_rows))
    refuse("early_rows = " + std::to_string(a.early_rows) + " (must be 0, or 1 with d_rows: r45's skewed product)");
  if (a.d_trace && (a.tma != 1 || !a.d_rows || a.warpgroups != 4))
    refuse("d_trace set with tma = " + std::to_string(a.tma) + ", warpgroups = " + std::to_string(a.warpgroups) +
           (a.d_rows ? "" : ", no d_rows") + " (the trace is the skewed TMA kernel's, 4 warpgroups)");
  if (a.d_vimage && (a.tma != 1 || !rs || a.pad_copies != 1))
    refuse("d_vimage set with tma = " + std::to_string(a.tma) + ", pad_copies = " + std::to_string(a.pad_copies) +
           (rs ? "" : ", operand ss") + " (r49's image: tma 1, operand rs, pad_copies 1)");
  if (!is(a.lean_prologue, 0, 1) || (a.lean_prologue && (a.tma != 1 || !rs)))
    refuse("lean_prologue = " + std::to_string(a.lean_prologue) + " (must be 0, or 1 with tma 1 and operand rs: r48's prologue)");
  if (a.segment_weight < 0 || a.segment_weight > 64 || (a.segment_weight && a.tma != 1))
    refuse("segment_weight = " + std::to_string(a.segment_weight) + " (must be 0, or 1 .. 64 with tma 1: r46's split)");
  if (!is(a.skip_idle, 0, 1) || (a.skip_idle && (!a.d_rows || a.tma != 1)))
    refuse("skip_idle = " + std::to_string(a.skip_idle) + " (must be 0, or 1 with d_rows and tma 1: r51's skewed product)");
  if (a.idle_discount < 0 || a.idle_discount > 2 || (a.idle_discount && !a.skip_idle))
    refuse("idle_discount = " + std::to_string(a.idle_discount) + " (must be 0, or 1 .. 2 with skip_idle: r51's split)");
  if (!is(a.edge_fast, 0, 1) || (a.edge_fast && !a.d_rows))
    refuse("edge_fast = " + std::to_string(a.edge_fast) + " (must be 0, or 1 with d_rows: r53's skewed epilogue)");
  if (!is(a.lean_split, 0, 1) || (a.lean_split && (a.tma != 1 || !a.d_rows || a.warpgroups != 4)))
    refuse("lean_split = " + std::to_string(a.lean_split) +
           " (must be 0, or 1 with tma 1, d_rows and 4 warpgroups: r54's split of the skewed product)");
  if (a.ahead < 0 || a.ahead > a.stages - 2 || (a.ahead && (!a.lean_split || a.early_copies)))
    refuse("ahead = " + std::to_string(a.ahead) + " (must be 0, or 1 .. stages - 2 = " + std::to_string(a.stages - 2) +
           " with lean_split and without early_copies: r56's copies ahead)");
  const int st = a.stages;
  const bool hankel_slots = st == 10 || st == 14;  // the bench and r36: the Hankel kernel with 3 or 7 groups in flight
  if (!(st == static_cast<int>(r09::STAGES) || (st == static_cast<int>(r09::DEEP_STAGES) && rs && a.inflight == 1) ||
        (st == static_cast<int>(r09::TMA_DEEPER_STAGES) && a.tma == 1) || (hankel_slots && a.tma == 1 && !rs)))
    refuse("stages = " + std::to_string(st) +
           " (must be 4; 6: rs with inflight 1 only; 8: tma 1 only; 10, 14: ss with tma 1 only)");
  if (a.tma == 1 && !rs) {  // r35: the TMA pipeline with A from the Hankel view H (eight stages, kp within reach)
    const std::string hankel = "tma = 1 with operand ss (r35's Hankel view) needs ";
    if (st != 8 && st != 10 && st != 14) refuse(hankel + "stages 8, 10 or 14, not " + std::to_string(st));
    if (const std::string why = hankel_kp_refusal(a.kp, st); !why.empty()) refuse(hankel + why);
    if (a.d_rows || a.rows) refuse(hankel + "no d_rows (r33's rows are a list, not a run)");
  }
  if (a.tma == 1) {  // the TMA pipeline: a group in flight, padded copies, six or eight 64-byte stages
    const std::string tma = "tma = 1 needs ";
    if (a.inflight != 1) refuse(tma + "inflight 1, not " + std::to_string(a.inflight));
    if (a.pad_copies != 1) refuse(tma + "pad_copies 1, not " + std::to_string(a.pad_copies));
    if (!is(st, static_cast<int>(r09::DEEP_STAGES), static_cast<int>(r09::TMA_DEEPER_STAGES)) && !(hankel_slots && !rs))
      refuse(tma + "stages 6 or 8, not " + std::to_string(st));
    if (a.stage_bytes != 64) refuse(tma + "stage_bytes 64, not " + std::to_string(a.stage_bytes));
    if (a.debug != 0 && !(a.debug == 2 && !rs))  // ss: 2, the bench's no-loads diagnostic
      refuse(tma + "debug 0, not " + std::to_string(a.debug));
  }
  if (a.d_rows || a.rows) {  // r33: the skewed product on r15's shape
    const std::string skew = "d_rows (r33's skewed product) needs ";
    if (!a.d_rows) refuse("rows = " + std::to_string(a.rows) + " with d_rows null");
    if (a.rows > a.k) refuse("rows = " + std::to_string(a.rows) + " (must be <= k)");
    if (a.tma != 1) refuse(skew + "tma 1, not " + std::to_string(a.tma));
    if (st != static_cast<int>(r09::TMA_DEEPER_STAGES)) refuse(skew + "stages 8, not " + std::to_string(st));
  }
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
  explicit WgmmaCombineStage(const StageContext& ctx) : m_shape(ctx.cfg->wgmma) {
    if (m_shape.tma && m_shape.op == WgmmaOperand::Ss)
      if (const std::string why = hankel_kp_refusal(ctx.kp, m_shape.stages); !why.empty())
        throw InputError("gpu-pairs: the wgmma combine on the Hankel view (operand ss with tma 1, r35) needs " + why);
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
    wa.dependent = cp.dependent ? 1 : 0;
    set_wgmma_shape(wa, m_shape);
    launch_wgmma_combine(wa, m_shape.op, s);
  }
  std::string description() const override {
    return "joseki's wgmma kernel (sm_90a): every plane of C times circ(V) made in shared memory, the masked "
           "column sum in its epilogue";
  }

 private:
  WgmmaShape m_shape;
};

std::unique_ptr<CombineStage> make_wgmma_stage(const StageContext& ctx) { return std::make_unique<WgmmaCombineStage>(ctx); }

const CombineKindRegistrar reg_wgmma{CombineKind{"wgmma", "r09's wgmma combine", measure::Needs{0, {measure::Feature::Wgmma}, 0},
                                                      wgmma_combine_unavailable, make_wgmma_stage}};

}  // namespace
#endif

}  // namespace joseki::abc471g::pairs
