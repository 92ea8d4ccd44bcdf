// Rung 38 of the gpu-pairs ladder (issue 19, the max-case goal): r37 with the combine launched as a programmatic
// dependent of the fused histograms (PairsConfig::combine_dependent: FuseArgs::trigger and the first terms in
// fused_hist_kernel, r04_partition_gemm.cu; WgmmaCombineArgs::dependent in sm90a/r09_wgmma_combine.cu's TMA kernel).
// This file holds no code: the rung is that knob.
//
// What changed from r37: r37's solve is three kernels in a row on the main stream - the partition, the histograms (a
// programmatic dependent of the partition since r04) and the skewed combine - with the answers' first terms on a
// low-priority side stream beside the count, joined by an event before the combine. The combine was a plain launch:
// its blocks start only after the last histogram block has ended and its writes are flushed, and each then spends its
// prologue (eight mbarriers, V's four padded copies, r33's shared-memory windows zeroed) before its first TMA copy.
// Here every histogram block executes griddepcontrol.launch_dependents as it starts and writes ~K/132 of the first
// terms (so no event joins the side stream: the combine follows the histograms directly), and the combine is launched
// with programmatic stream serialization: a combine block takes a SM as soon as that SM's histogram block has ended
// (their shared memory does not fit together), runs its prologue, and waits at griddepcontrol.wait for the whole
// histogram grid and its writes before it reads d_max, the planes or the answers.
// Prediction (max case): the launch gap in a graph (~1 us, session 5's launch probe: 0.81 us a graph node) and the
// combine's prologue (~1 us) hidden behind the histograms' tail: -1 to -2 us, r37's ~59-60 -> ~58 us; nothing
// measurable at 10^9 (the same ~2 us of ~2.9 ms). If the histograms end together (no tail), only the launch gap.
// Measured (H200, results/h200/2026-12-03-session16, medians of three processes [min, max]; every answer exact, GPU
// tests and sanitizers clean): the max case's best, by MORE than predicted. Max case 56.38 us [56.32, 56.42] against
// r37's 59.87 (call1, code of be299fa), 56.64 [56.61, 56.67] against 60.00 (call2, 68e3942): -3.4 us, not -1 to -2.
// 10^8 342.30 / 342.14 (r37 345.89 / 346.08); 10^9 3115.01 / 3104.19, r37's (the rotation's cost stays). Not measured:
// where the extra ~2 us come from. r37's graph had a fourth node, the first terms on a low-priority side stream joined
// by an event before the combine; whether that kernel waited for SMs behind the histograms needs a timeline.
// Its three kernels alone (ncu, max case): 27.01 + 11.14 + 24.48 = 62.6 us in series; the solve takes 56.6 us.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
