// Rung 56 of the gpu-pairs ladder (issue 19, the max-case goal): r54 with the TMA kernel copying four stages ahead of
// the one it computes instead of six (WgmmaShape::ahead = 4 -> WgmmaCombineArgs::ahead; read by r54's LEAN kernel in
// sm90a/r09_wgmma_combine.cu). This file holds no code: the rung is that knob.
//
// What changed from r54: the kernel's ring has eight slots. Thread 0, in warpgroup 0, issues stage r + ahead's copy at
// stage r, and first waits at the slot's `empty` barrier until all four warpgroups have released its previous stage,
// r + ahead - 8. A warpgroup releases stage j in stage j + 1 (after wgmma.wait_group 1). With six ahead, thread 0 waits
// for stage r - 2, so warpgroup 0 (wgmma is warpgroup-wide: its 128 threads wait with thread 0) can run at most one
// stage ahead of the slowest warpgroup, and each stage costs the slowest warpgroup's time. With four ahead it waits for
// stage r - 4: three stages of slack. The copies then have four stages (~1.9 us) to land instead of six (~2.85 us).
// Why: session 17's PC sampling put ~18 % of the combine's warp time at a stage's `full` barrier, 18.5 % of those waits
// finding the copy not landed, and named the feed paced by the slowest warpgroup; session 21's cold traces show stages
// of 0.47-0.57 us against ~0.28 us of tensor work. A producer warp is the standard cure but needs setmaxnreg (the
// kernel holds the whole register file); this is the cheap half of it.
// Prediction (max case): if the coupling costs, the critical blocks' stages toward the mean: -0.3 to -1.0 us against r54
// in the same runs; if four stages are too few to hide a copy from L2 under load, a loss (r57, three ahead, says which).
// Measured (H200, results/h200/2026-12-04-session21/call2, code of 34830d6; every answer exact, GPU tests, memcheck and
// racecheck clean): WRONG in size, a tie. Max case 50.78 us [50.72, 50.91] against r54's 50.90 [50.85, 51.04] in the
// same four rounds (one rung a process): -0.12 us, the ranges overlapping. The cold traces' stages 0.463 -> 0.455 us in
// blocks of one segment, 0.530 -> 0.514 in blocks of two: the slack was binding, as r57 then showed. 10^8 337.22 (r54
// 338.37); 10^9 3050.24 us against 3036.00, one run each, +14 us, larger than the other rungs' differences at 10^9 and
// not repeated.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
