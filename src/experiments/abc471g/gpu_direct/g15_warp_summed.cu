// g15 — the warp's four streams summed before one decode (g14 + a lean epilogue).
// What changed from g14: at the end every thread used to decode its 9 words x 32 lanes from 10
//   bit planes (~25 instructions a lane) and add each into the block's answers with a shared-memory
//   atomic: ~7000 instructions and 288 atomics per thread. The four streams of a warp (lanes t,
//   t + 8, t + 16, t + 24) own the same words, so their counters are first added bit-sliced across
//   the warp (two shuffle-and-add steps, 10 -> 12 planes, ~70 instructions a word), and each lane
//   then decodes a quarter of the lanes: ~2400 instructions and 72 atomics per thread (lean.cuh).
// Prediction: the epilogue was ~18 % of a thread's instructions at one wave (an estimate from the
//   code); if the kernel is issue-bound, 8-15 % faster than g14, and fewer atomics on the same
//   2300 shared addresses. Nothing if the main loop's shared-memory loads bound it.
// Preconditions: as g13 (K <= 2304; block a multiple of 32 up to 256); counts per lane of a warp
//   <= 4 x 1008 < 2^12 (12 planes).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 145.28 us, 1.15x over g14, 1982.27x
//   over g01, 58 % of the 0.25 ms goal: the top of the predicted 8-15 % (issue-bound). Block sweep:
//   64 150.77, 128 145.57 (chosen), 192 323.55, 256 148.58 us. The final rung (--solver gpu-direct)
//   since fda1875; re-run (results/h200/2026-11-30-abc471g-gpu-final): 145.82 us; as the solver
//   GPU_COMPUTE 182.74 us, GPU_PIPELINE 301.13 us, PROGRAM 142.3 ms, EXTERNAL 197.9 ms.
#include "experiments/abc471g/gpu_direct/blocked.cuh"

namespace joseki::abc471g::JK_GPU_NS {

RungOps g15_ops() {
  return blocked::one_wave_ops<u32, blocked::GeneratedA, blocked::LEAN_TRANSPOSE | blocked::LEAN_WARP_SUM>(
      "g15_block", {64, 128, 192, 256});
}

}  // namespace joseki::abc471g::JK_GPU_NS
