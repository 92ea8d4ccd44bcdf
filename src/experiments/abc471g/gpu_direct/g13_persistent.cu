// g13 — one-wave persistent grid (g11's kernel, the grid sized to the machine).
// What changed from g11: the grid is SMs x resident blocks per SM (the occupancy query), and the
//   N elements are split into that many equal contiguous ranges, so every block is resident from
//   the start, there is no tail wave, and each block builds its table and decodes its counters
//   once. (More blocks only if a range would exceed 63 tiles.)
// Prediction: g11 at chunk 16384 runs ~430 blocks of 16 k elements in 1.1-3 waves; the last
//   wave is partly empty and every block pays its table build (~1 tile of work) and decode. One
//   wave removes both: a few % to ~20%, more where the chunk left a large tail.
// Preconditions: K <= 2304; block a multiple of 32 up to 256. chunk is not used.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 175.97 us, 1.43x over g11 (predicted a
//   few % to ~20 %: more), 1636.57x over g01. Block sweep: 64 190.50, 128 177.06 (chosen, the
//   default), 192 394.02, 256 191.39 us; block 192's 2.2x loss is not explained (no ncu run). As the
//   solver in the tour (fresh process, one launch): GPU_COMPUTE 216.19 us, EXTERNAL 199.840 ms.
#include "experiments/abc471g/gpu_direct/blocked.cuh"

namespace joseki::abc471g::JK_GPU_NS {

// g11's kernel on a grid of SMs x resident blocks, N split in equal ranges.
RungOps g13_ops() { return blocked::one_wave_ops<u32, blocked::GeneratedA>("g13_block", {64, 128, 192, 256}); }

}  // namespace joseki::abc471g::JK_GPU_NS
