// Rung 28 of the gpu-pairs ladder (issue 19, both goals): r27 with a tile of given values on the full tile's
// path (PairsConfig::partition_lean = 10: lean_partition_kernel<28, 10, 256>). This file holds no code: the rung
// is that knob.
//
// What changed from r27: a tile whose pairs all lie in the M given values (q + PPT < M) took the partial tile's
// path: a bound test per pair in the ranking (`q < p1`), a key reset and a key test per pair in the scatter
// (`key != ~0u`), the branches that session 9 removed from the generated tiles. Now such a tile loads its values
// (all in flight, the next tile's prefetched), ranks them and scatters them like a generated tile. Only the tile
// that straddles M and a run's last partial tile keep the tested path. The threads concerned are few (the first
// ~14 of block 0 in one chunk of 2^30 at 10^9, ~135 at 10^8, ~1,900 at the max case) but their block sets the
// chunk's end.
// Prediction: the first block stops being the last one: a few us at 10^8 and the max case, ~1 % at 10^9.
// Measured: see docs/ABC471G_SCALE.md ("r20 .. r28") and results/h200/2026-12-02-session11.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
