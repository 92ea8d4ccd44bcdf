// g11 — A generated on the GPU by LCG jump-ahead.
// What changed from g10: instead of reading A (28 MB, generated on the host and copied over),
//   each thread jumps the LCG to its first element (square-and-multiply, once per block) and
//   then steps by the block size (one 64-bit multiply-add per element it generates): A_i is b_i
//   for i < M, the PCG output mod K after that. Only b (400 KB) and V cross the bus.
// Prediction: GPU_COMPUTE about the same (the 28 MB read was ~7 us of HBM time, now ~25 integer
//   ops per element, 1/8 of the counting work per element); GPU_PIPELINE loses the 28 MB host to
//   device copy (~0.5 ms pinned, ~3.5 ms pageable) and the host loses the generation.
// Preconditions: as g10.
// H200 (2026-11-30 tour, results/h200/2026-11-30-tour): 251.74 us, 0.87x vs g10 (predicted
//   about the same: wrong), 1143.95x over g01. Generating A adds ~32 us of integer work on the
//   issue slots the counting uses; it pays outside GPU_COMPUTE (no 28 MB copy in GPU_PIPELINE, no
//   generation on the host), which is why g13..g15 and the solver build on this rung.
#include "experiments/abc471g/gpu_direct/blocked.cuh"

namespace joseki::abc471g::JK_GPU_NS {

RungOps g11_ops() { return blocked::chunked_ops<u32, blocked::GeneratedA>(true); }

}  // namespace joseki::abc471g::JK_GPU_NS
