// Rung 57 of the gpu-pairs ladder (issue 19, the max-case goal): r54 with the TMA kernel copying three stages ahead of
// the one it computes (WgmmaShape::ahead = 3; r56 copies four, r54 six). This file holds no code: the rung is that knob.
//
// What changed from r56: one stage fewer ahead, one more of slack: thread 0 of warpgroup 0 waits for the release of
// stage r - 5 before it copies stage r + 3, so warpgroup 0 may run four stages ahead of the slowest warpgroup; the
// copies have ~1.4 us to land (three stages of ~0.47 us).
// Why: with r56 it brackets the trade between slack for the warpgroups and time for the copies.
// Prediction (max case): within 0.3 us of r56 if the slack no longer binds at three stages; a loss against r56 if the
// copies' latency from L2 under load (~1-1.5 us) shows.
// Measured: see results/h200/2026-12-04-session21 (filled in once measured).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
