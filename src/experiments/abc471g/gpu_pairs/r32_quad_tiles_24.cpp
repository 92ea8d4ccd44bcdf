// Rung 32 of the gpu-pairs ladder (issue 19, the 10^9 goal): r31 in tiles of 24 (PairsConfig::partition_tile = 24:
// lean_partition_kernel<24, 12, 256>). This file holds no code: the rung is that knob.
//
// What changed from r31: each partition thread generates, ranks and scatters 24 pairs a tile instead of 28. Tiles
// of 28 won from r26 on (a seventh fewer scans, reservations and barriers a pair), but r31's kernel spills 8 bytes
// in tiles of 28 (ptxas; none in 24), its runs are shorter in tiles of 24 (~46 pairs a slice a tile instead of
// ~54, so its ~1.5 holes a run are ~3.3 % of the bucket bytes instead of ~2.8 %), and in chunks of 2^28 session 12's
// call 3 measured the tiles of 24 faster with this kernel: 2977.57-2980.58 us at 10^9 against 2995.71-3006.08
// (pairs.sweep.slices_per_sm; with r30's kernel the tiles of 28 stayed ahead, 3020-3029 against 3034-3040).
// Prediction: ~0.6 % faster than r31 at 10^9 in one chunk (~2.85 ms); at 10^8 the sweep's tiles of 24 were also
// ahead (339.2-339.8 against 342.1-342.4 us).
// Measured (H200, results/h200/2026-12-02-session12/final, code of 27f8233, medians of three processes [min, max];
// every answer exact, sanitizers clean): MIXED, a tie at 10^9. N = 10^9 2866.62 us [2866.38, 2869.74] against r31's
// 2869.02 [2868.37, 2870.02] in the same runs (-0.08 %); 10^8 338.40 us against 341.57 (-0.9 %; r28 337.38, still the
// best there); the max case
// 62.72 against 62.24 (+0.8 %). The partition alone in one chunk at 10^9 (ncu, caches left alone, seven launches
// each): 2.247-2.254 ms in tiles of 24, 2.243-2.281 in tiles of 28 - the same; in chunks of 2^28 the tiles of 24
// are ~1 % faster a chunk (0.613-0.626 against 0.619-0.644 ms), which is what the sweep had seen. The spill costs
// nothing measurable; in one long chunk the tile size no longer matters with this kernel.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
