// Rung 69 of the gpu-pairs ladder (issue 19, the max-case goal): r65 with the combine released by a count of the
// histograms' ended blocks instead of griddepcontrol.wait (PairsConfig::combine_flags). The code is in the two kernels:
// fused_hist_kernel (r04_partition_gemm.cu, FuseArgs::d_done) and wgmma_combine_tma_kernel (sm90a/r09_wgmma_combine.cu,
// WgmmaCombineArgs::d_done); the counters live in PairsDevice (m_sync).
//
// What changed from r65: the skewed combine is the fused histograms' programmatic dependent (r38): its blocks take SMs as
// the histograms' leave them, run their prologue, and wait in griddepcontrol.wait until the histogram grid has ended and
// its writes are visible. In r65's traces that wait returned 1.1-1.3 us after the last histogram block's end (session
// 22 call 5: last end 32.13 us, last release 33.25; session 23 call 1: 33.02 and 34.32). Now each histogram block, after
// its last write, fences (each thread's proxy fence for the copies that will read its planes, a barrier, thread 0's GPU
// fence) and adds 1 to a counter; thread 0 of each combine block polls it with acquire loads until every histogram block
// has counted, fences the async proxy and releases its block. The combine's last block to end sets the counters back to
// zero for the next solve (a solve with no combine block, V all ones, clears them with a memset; poison() clears them).
// Prediction: the release ~0.2 us after the last histogram block's count instead of ~1.2 us after its end: -0.8 to
// -1.2 us at the max case; at 10^8 the same ~1 us (-0.3 %).
// Measured (H200, results/h200/2026-12-04-session23/call2, five processes each, one rung a process; every answer exact
// against cpu-direct; GPU tests FlagReleaseSolvesAreExact, DependentCombineRungsAreExact, SanitizerShapes with r69;
// memcheck 0 errors, racecheck 0 hazards): WRONG, a LOSS. Max case 48.58 us [48.54, 48.64] against r65's 47.49 [47.46,
// 47.71] in the same runs (+1.09 us); 10^8 311.68 against 310.88 (+0.8 us). The count alone grew 0.48 us (30.43 against
// 29.95): the release at the end of each histogram block (proxy fences, a barrier, thread 0's fence waiting for the
// block's stores) lengthens every block. And the combine was not released sooner: the traces put its last release 1.75 us
// after the last histogram block's end (r65's: 1.34 us). What griddepcontrol.wait waits for after the last block is
// the same thing a release must wait for, the stores made visible, and the polling (sleeps of 32 ns, one load's
// round trip) adds to it. Kept as a negative rung: PDL's wait is not where the 1.1-1.3 us can be taken back.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
