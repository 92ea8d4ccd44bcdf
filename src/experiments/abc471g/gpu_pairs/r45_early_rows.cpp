// Rung 45 of the gpu-pairs ladder (issue 19, the max-case goal): r44 with a segment's row indices loaded before they
// are needed (WgmmaShape::early_rows = 1 -> WgmmaCombineArgs::early_rows; sm90a/r09_wgmma_combine.cu, the TMA kernel's
// segment loop and skew_sums). This file holds no code: the rung is that knob.
//
// What changed from r44: session 17's PC sampling of r41's combine kernel (results/h200/2026-12-03-session17/call1)
// put ~10 % of its warps' samples in the segment's set-up and ~19 % in the epilogue. Both open with global loads from
// the rows list (d_rows): the segment's rows x_lo and x_hi before the first fragment, the tile's first and last x (the
// window's base and span) before the first shared atomic; each waits a load's latency from L2. r44 issued the next
// segment's TMA copies before the epilogue and gained nothing (52.64 us against r43's 52.61): the rows' loads then open
// the segment instead. Here the tile's first and last x are loaded at the segment's start (their latency hides behind
// the main loop) and the next segment's x_lo, x_hi before the epilogue (behind it), together with r44's copies.
// Prediction (max case): one L2 latency (~0.5-1 us) less at each segment's start and at each epilogue's; the critical
// blocks run two segments: -0.5 to -1.5 us on the combine and on the whole max case; nothing at 10^8 and 10^9.
// Measured (H200, results/h200/2026-12-03-session17/call2, code of 6accd65, medians of three processes [min, max]; every
// answer exact, GPU tests, memcheck and racecheck clean): WRONG, a loss. The max case 54.82 us [54.78, 54.85] against
// r44's 54.59 [54.59, 54.62] and r43's 54.08 [53.98, 54.11] in the same runs (this call's runs read ~1.3 us above call
// 1's for every rung: r41 54.56 against 53.31). ncu of the combine kernel alone: 25.50 against r43's 25.22 us, with
// 2.5 % more warp instructions (7.15 M against 6.97 M): every thread finds the next segment again (64-bit divisions)
// to load its rows, and the latency it hides was not on the critical path. Together with r44, the segment's start is
// not where the combine's time goes; its prologue, its feed waits and its epilogue are (call 1's PC sampling). 10^8
// 340.18 us, 10^9 3041.98 us (r43 339.42, 3036.29; one run each). Kept as a negative rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
