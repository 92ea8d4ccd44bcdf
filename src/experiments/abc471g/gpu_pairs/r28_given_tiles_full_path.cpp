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
// Measured (H200, results/h200/2026-12-02-session11, final call, code of e1224b3, medians of three processes;
// every answer exact, sanitizers clean): MIXED. 10^8 **338.00 us** against r27's 349.49 (-3.3 %; the count alone
// 310.72 us), but 10^9 3072.70 (+1.2 %) and the max case 63.58 (+1.1 %). In tiles of 28 this kernel spills 8
// bytes (ptxas; r27's does not), and in tiles of 24 (a sweep point in chunks of 2^28) it also loses at 10^9
// (3246.24 against variant 8's 3179.20 us), so the spill is not the whole cause; not measured further.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
