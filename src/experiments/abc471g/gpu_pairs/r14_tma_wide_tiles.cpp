// Rung 14 of the gpu-pairs ladder (issue 19, the 10^9 goal): r13's combine (joseki's wgmma kernel fed by
// TMA, the masked column sum in its epilogue) with r07's count (the partition kernel in tiles of 24 pairs
// per thread, PairsConfig::partition_tile = 24). This file holds no code: the rung is r13's knobs plus r07's.
//
// What changed from r13: the count. r07 measured tiles of 24 at -2.5 % at 10^9 (4.595 vs 4.711 ms) and
// +2.3 % at the max case (a 36-byte spill); r13's combine is the fastest measured and does not depend on
// the count. The two changes touch different kernels, so they should add.
// Prediction: 10^9 ~ r07 minus r13's saving on the combine (~0.05-0.1 ms: no G written and read back):
// ~4.50-4.55 ms, the best at 10^9 but still ~1.5 ms above the 3.0 ms goal (the count is ~4.4x the
// generation floor there); the max case ~r13 + 1-2 us.
// Measured (H200, results/h200/2026-12-02-session8/final-b, median of three processes, exact): 10^9
// **4.493 ms** (r07 4.586, r13 4.622: the best at 10^9, 4.32x the generation floor), 10^8 472.35 us (the best),
// the max case 76.10 us (r13 74.40: the tiles' spill, as r07). Held; the 3.0 ms goal stays ~1.5 ms away.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
