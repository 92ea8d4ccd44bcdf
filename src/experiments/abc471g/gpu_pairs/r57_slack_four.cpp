// Rung 57 of the gpu-pairs ladder (issue 19, the max-case goal): r54 with the TMA kernel copying three stages ahead of
// the one it computes (WgmmaShape::ahead = 3; r56 copies four, r54 six). This file holds no code: the rung is that knob.
//
// What changed from r56: one stage fewer ahead, one more of slack: thread 0 of warpgroup 0 waits for the release of
// stage r - 5 before it copies stage r + 3, so warpgroup 0 may run four stages ahead of the slowest warpgroup; the
// copies have ~1.4 us to land (three stages of ~0.47 us).
// Why: with r56 it brackets the trade between slack for the warpgroups and time for the copies.
// Prediction (max case): within 0.3 us of r56 if the slack no longer binds at three stages; a loss against r56 if the
// copies' latency from L2 under load (~1-1.5 us) shows.
// Measured (H200, results/h200/2026-12-04-session21, calls 2-4, code of 34830d6 and d8f728c; every answer exact, GPU
// tests, memcheck and racecheck clean): HELD against r56's prediction (within 0.3 us of it: -0.06), a small gain on r54.
// Max case 50.72 us [50.62, 50.82] against r54's 50.90 (call 2, four rounds), 50.59 against 50.64 (call 3, four), 50.46
// [50.37, 50.56] against 50.82 [50.66, 50.91] (call 4, six): -0.18, -0.05 and -0.35 us, the ranges apart in calls 2 and
// 4. The lowest max case measured. The cold traces' stages 0.441-0.443 us in blocks of one segment (r54 0.461-0.463),
// 0.491-0.494 in blocks of two (0.529-0.530): 4-7 % faster, but the solve gained less than ~25 stages x 0.02 us. 10^8
// 337.60 / 337.82 (r54 338.37 / 338.30), 10^9 3034.46 / 3030.50 us (3036.00 / 3034.53).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
