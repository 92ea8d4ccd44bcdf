// g08 — geometry: g07's kernel with the tuned block size and chunk (the sweep is the rung).
// What changed from g07: nothing in the kernel; the block and chunk are its sweep's choice. --sweep
//   measures block {32, 64, 72, 96, 128, 144, 256} x chunk {1024..65536} and picks with the tie
//   rule (within 2% of the fastest: fewest idle guard threads, then the larger chunk), and the
//   row runs there; without --sweep it runs at the defaults, the choice of the last H200 run
//   (below; the seed chose block 72, chunk 16384). Block 72 instead of 64: K = 2300 needs 72
//   words, so block 64 runs 2 blocks per chunk with 56 idle guard threads; 72 has none.
// Prediction: on 132 SMs the best chunk moves down: the seed's laptop liked 30k-60k active
//   threads; the H200 holds 270k (132 x 2048), so a smaller chunk (more threads) should pay,
//   until partial counts and the reduction (chunks x K x 4 bytes) cost more. Block: guard
//   threads waste issue slots (64 -> 72 should gain ~10% as on the seed's laptop).
// Preconditions: as g05.
// H200, 2026-11-29 (commit ad4c710; max case, GPU_COMPUTE cold; docs/ABC471G_GPU.md): the sweep
//   (49 points) was fastest at block 32 / chunk 4096 (445.1 us); within 2 %: block 72 (+1.0 %)
//   and 96 (+1.2 %) at 4096; fewest idle guard threads chose block 72 / chunk 4096 (449.6 us),
//   now the defaults (rungs.def). That run's row still ran the seed's block 72 / chunk 16384:
//   631.6 us, 1.79x over g07 (the seed: 1.28x). The chunk matters most: at 16384 every block
//   size but 64 takes ~632 us (428 chunks x 72 words = 30.8k threads); at 4096 (123k threads)
//   445-503 us, except block 64 (559.6 us: two blocks per chunk, 56 idle guard threads); 2048
//   doubles the partial counts (31 MB) and is ~5 % slower again. The prediction (a smaller
//   chunk) held.
//   With --sweep the row runs at this run's choice (and g09 with it).
#include "experiments/abc471g/gpu_direct/rung_api.hpp"

namespace joseki::abc471g::JK_GPU_NS {

RungOps g08_ops() {
  RungOps o = g07_ops();
  o.sweep_name = "g08_block_x_chunk";
  o.sweep_blocks = {32, 64, 72, 96, 128, 144, 256};
  o.sweep_chunks = {1024, 2048, 4096, 8192, 16384, 32768, 65536};
  return o;
}

}  // namespace joseki::abc471g::JK_GPU_NS
