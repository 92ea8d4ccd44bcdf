// Rung 11 of the gpu-pairs ladder (issue 19, the max-case goal): r10 with rs's four copies of V2 (the A
// fragments' source in shared memory) 32 bytes further apart (PairsConfig::wgmma.pad_copies = 1,
// WgmmaCombineArgs::pad_copies; r09_wgmma_math.hpp copy_stride; the kernel is r09's). This file holds no
// code: the rung is that knob.
//
// What changed from r10: ncu of r10's kernel (device call 1 of 2026-12-02, rs.wg4.bk64.if1, 40.7 us under
// the profiler) reported the shared loads 3.7-way bank-conflicted on average (57 % of their wavefronts are
// conflicts), the tensor pipe 30.7 % busy, no eligible warp 70 % of the time. The cause is the layout: a
// lane reads its fragment words from the copy of its row & 3, the copies lie v_bytes(kp) apart (a multiple
// of 256 bytes), so the four lanes that differ only in row & 3 read the same word index of four copies, in
// the same bank: every fragment load is 4 wavefronts. Per stage (bk64, four warpgroups) that is 8 loads x
// 4 x 16 warps = 512 shared-memory cycles beside the 256 the tensor cores spend reading P's tile, against
// 512 tensor cycles: the stage is shared-memory bound. 32 bytes more between copies put copy c 8 c banks
// further: a warp's load touches banks 8 c + (0..4) of copy c, 32 distinct banks (unit test
// Abc471gWgmmaEmu.PaddedCopiesMakeFragmentLoadsConflictFree checks every kp, row and step).
// Prediction: shared memory per stage ~768 -> ~384 cycles, below the tensor cores' 512: the kernel alone
// ~42 -> ~25-30 us at the max case, the whole max case ~86 -> ~70-75 us (r05: 77 us).
// Measured (H200, results/h200/2026-12-02-session8): the kernel alone 42.18 -> 36.74 us (the padding alone,
// without r10's group in flight: 47.20 -> 43.26 us), the whole max case 84.96 -> 79.62 us, 10^9 4.628 ms.
// Wrong by half: shared memory was one bound of two; ncu now has the tensor pipe 35 % busy and ranks MIO
// throttle (2.22), wait (1.41) and long scoreboard (1.35) first among the stalls.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
