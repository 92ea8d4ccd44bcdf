// Rung 36 of the gpu-pairs ladder (issue 19, the max-case goal): r35 with seven commit groups left in flight
// instead of one (PairsConfig::wgmma.stages = 14 with op ss and tma 1: wgmma_combine_tma_kernel<4, 64, 14, false, true>,
// r09_wgmma_math.hpp hankel_in_flight / hankel_ahead). This file holds no code: the rung is that knob.
//
// What changed from r35: r35 took the fragment assembly out of r15's kernel and gained nothing: the kernel alone
// 27.20 us against r15's 27.23 (ncu, H200 call 1 of 2026-12-03 session 14), the same 53 % of the tensor pipe, and
// *more* warp instructions (9.08 M against 8.87 M) - so the fragments were never what bounded it; what both kernels
// share is the per-stage rhythm: each warpgroup waits on the stage's `full` mbarrier, issues two k32 wgmmas, commits
// them and waits until the previous stage's group is done (wait_group 1), so at most two stages (four wgmmas) of a
// warpgroup are queued at the tensor cores. The mma probe reaches 92.8 % of the int8 peak with eight wgmmas a commit
// group (docs/PROBES.md, `mma`). Here each stage is still its own group, but wait_group 7 leaves seven in flight (up
// to sixteen wgmmas a warpgroup), a stage's slot released once its group is done; with 14 slots the copies still run
// six stages ahead (nst - W - 1).
// On the way (call 2 of session 14): a first form committed groups of four stages with the fence and the commit on a
// data-dependent path; ptxas then serialized every wgmma of the kernel (C7520, "compiler-inserted WG.AR in divergent
// path") and r35's kernel took 36.9 us instead of 27.2 - every stage now runs the same fence / wgmmas / commit / wait.
// Prediction: if the commit-and-wait rhythm bounds it, the tensor pipe from 53 % towards 75-90 %: the kernel ~27 ->
// ~17-20 us, the max case ~-7 to -10 us. If the copies (or the epilogue and the segments' refills) bound it, nothing.
// Measured (H200, results/h200/2026-12-03-session14/final, code of cad450d, medians of three processes; exact,
// memcheck and racecheck clean): WRONG, a loss. The kernel alone (ncu, max case) 32.03 us, tensor pipe 44.1 % busy
// (r35 in the same call 28.45 us, 50.5 %); the bench's 10 slots (three in flight) 33.31 us cold like 14 (33.34); without
// the copies (debug 2) 29.25 us hot against r35's 25.38. The whole max case 67.30 us (r31 62.24), 10^8 351.04 us, 10^9
// 2890.19 us. More wgmmas queued a warpgroup made the tensor pipe *less* busy: what the mma probe's loop reaches with
// eight a group (operands resident, one warpgroup a block, no epilogue) is not what holds this kernel back.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
