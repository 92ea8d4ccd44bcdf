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
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 450.32 us at block 72 / chunk 4096,
//   2.52x over g07, 639.51x over g01. Sweep (49 points): fastest block 32 / chunk 4096 (445.22 us);
//   72 and 96 at 4096 within 2 % (+1.2 %); fewest guard threads chose 72 / 4096, as on 2026-11-29
//   (the defaults). Both predictions held: the chunk moved down (16384: ~632 us for every block but
//   64, +41.9 %; 2048 +5.7 %: the partial counts cost more), and block 72 beat 64 by 24 % at 4096
//   (predicted ~10 %; 64 runs two blocks per chunk, 56 idle guard threads). At the seed's 72 / 16384
//   (the 2026-11-29 row) g08 gave 1.79x.
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
