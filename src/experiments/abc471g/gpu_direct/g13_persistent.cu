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

int g11_blocks_per_sm(const Shape& sh, int block);  // g11_device_generated.cu

namespace g13 {

u64 per_block(const Shape& sh, int block) {
  int device = 0, sms = 1;
  JK_CHECK(cudaGetDevice(&device));
  JK_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int resident = g11_blocks_per_sm(sh, block);
  const u64 wave = static_cast<u64>(sms) * static_cast<u64>(resident < 1 ? 1 : resident);
  const u64 even = (sh.n + wave - 1) / wave;
  const u64 cap = blocked::max_per_block(block);
  return even < cap ? even : cap;  // past the cap: more than one wave, still correct
}

std::string check(const Shape& sh, const Config& c) { return blocked::check_one_wave<u32>(sh, c); }
std::size_t scratch(const Shape&, const Config&) { return 0; }
void launch(const DeviceProblem& p, const Config& c, CUstream_st* s) {
  Config g11c = c;
  g11c.chunk = static_cast<std::int64_t>(per_block(p.shape, c.block));
  g11_ops().launch(p, g11c, s);
}
void prepare(const Shape& sh, const Config& c) { g11_ops().prepare(sh, c); }

}  // namespace g13

RungOps g13_ops() {
  RungOps o{.check = g13::check, .scratch_bytes = g13::scratch, .launch = g13::launch, .prepare = g13::prepare};
  o.sweep_name = "g13_block";
  o.sweep_blocks = {64, 128, 192, 256};
  return o;
}

}  // namespace joseki::abc471g::JK_GPU_NS
