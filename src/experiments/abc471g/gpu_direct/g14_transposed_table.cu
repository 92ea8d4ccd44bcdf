// g14 — the table built by warp bit-transposes (g13's one-wave grid).
// What changed from g13: each block used to build its 39 KB strided table one bit at a time: row u,
//   bit b = V[(u + W b) mod K], 2444 rows x 32 byte loads with the index arithmetic, ~19 rows x 32
//   = 600 dependent steps per thread at block 128. Now V is first packed into a bit string (K + 64
//   bits), and a warp makes 32 rows at once: lane b reads the 32 bits V[(u0 + W b + j) mod K] as
//   one window (two shared loads and a funnel shift), and a 32 x 32 bit transpose across the warp
//   (five shuffle steps, lean.cuh) hands lane j the word of row u0 + j. About 30 instructions per
//   32 rows and thread.
// Prediction: at one wave a block walks ~26-35 tiles of ~1000 instructions per thread; the old
//   build was ~3000 of them (~8 %, an estimate from the code). If the kernel is issue-bound, 3-8 %
//   faster than g13; if the main loop's shared-memory loads bound it, little. The extra barrier
//   (bit string before table) costs a block ~1 us once.
// Preconditions: as g13 (K <= 2304; block a multiple of 32 up to 256).
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 167.68 us, 1.05x over g13, 1717.46x
//   over g01: inside the predicted 3-8 % of the issue-bound case (the re-run at fda1875,
//   results/h200/2026-11-30-abc471g-gpu-final: 169.06 us, 1.04x).
#include "experiments/abc471g/gpu_direct/blocked.cuh"

namespace joseki::abc471g::JK_GPU_NS {

RungOps g14_ops() { return blocked::one_wave_ops<u32, blocked::GeneratedA, blocked::LEAN_TRANSPOSE>(); }

}  // namespace joseki::abc471g::JK_GPU_NS
