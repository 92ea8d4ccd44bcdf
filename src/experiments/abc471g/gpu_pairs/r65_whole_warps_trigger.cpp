// Rung 65 of the gpu-pairs ladder (issue 19, the max-case goal): r64 with r62's trigger (PairsConfig::tail_runs and
// count_trigger together). This file holds no code: the rung is those two knobs.
//
// What changed from r64: each partition block also lets the fused histograms launch as it starts (r62). The two held
// apart in session 22's call 4 (same runs, four processes each): r62 -1.67 us against r57 (the histograms' launch and
// clearing off the critical path), r64 -2.34 us against r60 (no warp on both of the partition kernel's paths). They act
// on different ends of the partition (r64 its last block, r62 what follows it).
// Prediction (max case): the two gains add, ~-4 us against r60: ~46.8 us.
// Measured: (below, once run).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
