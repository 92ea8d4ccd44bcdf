// g08 — geometry: g07's kernel with the tuned block size and chunk (the sweep is the rung).
// What changed from g07: nothing in the kernel. Block 72 instead of 64: K = 2300 needs 72 words,
//   so block 64 runs 2 blocks per chunk with 56 idle guard threads; 72 has none. Chunk 16384:
//   the seed's re-sweep after bit packing cut the threads 32x. --sweep measures block
//   {32, 64, 72, 96, 128, 144, 256} x chunk {1024..65536} and picks with the tie rule (within
//   2% of the fastest: fewest idle guard threads, then the larger chunk).
// Prediction: on 132 SMs the best chunk moves down: the seed's laptop liked 30k-60k active
//   threads; the H200 holds 270k (132 x 2048), so a smaller chunk (more threads) should pay,
//   until partial counts and the reduction (chunks x K x 4 bytes) cost more. Block: guard
//   threads waste issue slots (64 -> 72 should gain ~10% as on the seed's laptop).
// Preconditions: as g05.
// H200: not yet measured.
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
