// Rung 59 of the gpu-pairs ladder (issue 19, the max-case goal): r54 with the TMA kernel copying one stage ahead of the
// one it computes (WgmmaShape::ahead = 1), the end of the bracket r56 .. r58 open. This file holds no code: the rung is
// that knob.
//
// What changed from r58: the copy of stage r + 1 is issued at stage r, so it has one stage (~0.45 us) to land, less than
// a copy's latency from L2 under load; warpgroup 0 may run six stages ahead of the slowest.
// Prediction (max case): a loss against r57 and r58 (every stage waits for part of a copy's latency), which closes the
// bracket from below.
// Measured (H200, results/h200/2026-12-04-session21/call3, code of d8f728c; every answer exact, GPU tests, memcheck and
// racecheck clean): WRONG for the solve, a tie; held for the combine alone. Max case 50.56 us [50.43, 50.72] against
// r57's 50.59 and r54's 50.64 in the same four rounds; the stages in the solve's traces as r57's (0.439 / 0.484 us). The
// combine alone, with all its blocks starting at once and their copies competing, was the slowest of the four: 25.18 us
// against r54's 24.78 and r57's 24.60. Inside the solve the blocks start over ~3.5 us, so one stage of lead sufficed
// there. 10^8 338.11, 10^9 3035.74 us. The bracket closes: three ahead (r57).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
