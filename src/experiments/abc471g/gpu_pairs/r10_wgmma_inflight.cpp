// Rung 10 of the gpu-pairs ladder (issue 19, the max-case goal): r09 with one wgmma group left in
// flight across the next stage's barrier (PairsConfig::wgmma.inflight = 1, WgmmaCombineArgs::inflight;
// the kernel is r09's, sm90a/r09_wgmma_combine.cu, instantiated with INFLIGHT). This file holds no code:
// the rung is that knob.
//
// What changed from r09: r09 ends every stage with wgmma.wait_group 0, so per stage the tensor cores
// run only between the issue and that wait, and sit idle while the warps wait for the copies, pass the
// block barrier and build the next A fragments. r09's own diagnostics said the time is not memory (no
// loads after the prologue: still 41-45 us) and not the tensor pipe (issue slots 18-23 % busy, no
// eligible warp most of the time): a latency chain per stage. Here the group of stage i runs while stage
// i + 1 waits, passes the barrier and builds its fragments (wait_group 1); the copies run STAGES - 2 = 2
// stages ahead instead of 3 so that the slot of the running group is never overwritten, and rs builds
// its fragments into two register sets in turn (a set is rewritten only after its group completed).
// Prediction: the chain overlaps the tensor work, ~1.5-2x on the kernel: rs.wg4.bk64 ~47 -> ~25-30 us
// alone at the max case, the whole max case ~91 -> ~70-75 us (below r05's 77.5 us only if the kernel
// reaches ~30 us: r04's combine is 40 us with its column sum). No change at 10^9 beyond ~0.02 ms (the
// combine is ~0.1 ms there).
// Measured (H200, results/h200/2026-12-02-session8; kernel alone final-a, whole solve final-b, median of
// three processes, every answer exact): the kernel alone 47.20 -> 42.18 us (-11 %), the whole max case
// 89.70 -> 84.96 us, 10^9 4.651 -> 4.644 ms. Wrong: 11 %, not 1.5-2x. ncu of this kernel (call 1) found why:
// its shared loads are 3.7-way bank-conflicted (r11) and the tensor pipe stays 30.7 % busy.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
