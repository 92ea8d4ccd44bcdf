// Rung 36 of the gpu-pairs ladder (issue 19, the max-case goal): r35 with its wgmmas committed in groups of four
// stages (PairsConfig::wgmma.stages = 14 with op ss and tma 1: wgmma_combine_tma_kernel<4, 64, 14, false, true>,
// r09_wgmma_math.hpp hankel_group / hankel_ahead). This file holds no code: the rung is that knob.
//
// What changed from r35: r35 took the fragment assembly out of r15's kernel and gained nothing: the kernel alone
// 27.20 us against r15's 27.23 (ncu, H200 call 1 of 2026-12-03 session 14), the same 53 % of the tensor pipe, and
// *more* warp instructions (9.08 M against 8.87 M) - so the fragments were never what bounded it; what both kernels
// share is the per-stage rhythm: each warpgroup waits on the stage's `full` mbarrier, issues two k32 wgmmas, commits
// them as one group and waits until the previous group is done (wait_group 1) before the next stage. The mma probe
// reaches 92.8 % of the int8 peak with eight wgmmas a commit group (docs/PROBES.md, `mma`). Here a group is four
// stages (eight wgmmas), its slots released after the next group's wait; with 14 slots the copies still run six
// stages ahead (nst - 2 x group).
// Prediction: if the commit-and-wait rhythm bounds it, the tensor pipe from 53 % towards 75-90 %: the kernel ~27 ->
// ~17-20 us, the max case ~-7 to -10 us. If the copies (or the epilogue and the segments' refills) bound it, nothing.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
