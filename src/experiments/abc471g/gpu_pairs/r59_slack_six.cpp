// Rung 59 of the gpu-pairs ladder (issue 19, the max-case goal): r54 with the TMA kernel copying one stage ahead of the
// one it computes (WgmmaShape::ahead = 1), the end of the bracket r56 .. r58 open. This file holds no code: the rung is
// that knob.
//
// What changed from r58: the copy of stage r + 1 is issued at stage r, so it has one stage (~0.45 us) to land, less than
// a copy's latency from L2 under load; warpgroup 0 may run six stages ahead of the slowest.
// Prediction (max case): a loss against r57 and r58 (every stage waits for part of a copy's latency), which closes the
// bracket from below.
// Measured: see results/h200/2026-12-04-session21 (filled in once measured).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
