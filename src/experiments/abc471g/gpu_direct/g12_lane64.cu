// g12 — 64-bit lane words.
// What changed from g11: a word holds 64 shifts: W = 36 words for K = 2300, 8 threads x 5 words
//   (40: 4 idle words, 10%), 8-byte shared loads from 2 interleaved table copies (conflict-free
//   per half-warp), 64-bit counter planes.
// Prediction: no gain, likely a small loss. The SM's integer units are 32-bit: a 64-bit AND is
//   two LOP3s, so the counting work per shift is unchanged; shared memory moves the same bytes
//   per shift (the floor of g10/g11); only the per-element address work is halved, while 10% of
//   the lanes idle. A slower rung here is the answer to "do 64-bit words pay on a GPU?".
// Preconditions: K <= 2560; block a multiple of 32 up to 256; chunk <= 63 x 4 x block.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 251.04 us, 1.00x vs g11, 1147.16x over
//   g01: no gain, as predicted (32-bit integer datapath, the same shared-memory bytes per shift).
#include "experiments/abc471g/gpu_direct/blocked.cuh"

namespace joseki::abc471g::JK_GPU_NS {

RungOps g12_ops() { return blocked::chunked_ops<u64, blocked::GeneratedA>(false); }

}  // namespace joseki::abc471g::JK_GPU_NS
