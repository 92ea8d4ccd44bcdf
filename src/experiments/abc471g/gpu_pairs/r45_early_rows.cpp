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
// Measured: (pending: session 17's second device call).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
