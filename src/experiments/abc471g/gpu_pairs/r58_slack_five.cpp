// Rung 58 of the gpu-pairs ladder (issue 19, the max-case goal): r54 with the TMA kernel copying two stages ahead of the
// one it computes (WgmmaShape::ahead = 2; r57 copies three, r56 four, r54 six). This file holds no code: the rung is that
// knob.
//
// What changed from r57: one stage fewer ahead, one more of slack: warpgroup 0 may run five stages ahead of the slowest
// warpgroup before its thread 0 waits to issue a copy; the copies have ~0.9 us to land (two stages of ~0.45 us).
// Why: r56 and r57 (session 21, call 2) took the stages of the cold traces from 0.463 to 0.455 and 0.443 us in blocks of
// one segment, 0.530 to 0.514 and 0.494 us in blocks of two, each stage of slack worth more than the lead it cost.
// Prediction (max case): the trend holds one more step (-0.1 us against r57) unless a copy's latency from L2 under load
// (~1 us) exceeds the two stages' lead, when the stages get slower again: a loss.
// Measured (H200, results/h200/2026-12-04-session21, calls 3-4, code of d8f728c; every answer exact, GPU tests, memcheck
// and racecheck clean): WRONG, no further step: the trend stopped at three ahead. Max case 50.56 us [50.46, 50.62]
// against r57's 50.59 and r54's 50.64 (call 3, four rounds), 50.54 [50.46, 50.66] against r57's 50.46 and r54's 50.82
// (call 4, six). The stages as r57's (0.442 / 0.488 us in blocks of one / two segments): the slack no longer binds, and
// two stages (~0.9 us) still cover a copy. 10^8 337.87, 10^9 3034.30 us.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
