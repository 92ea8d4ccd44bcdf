// Rung 13 of the gpu-pairs ladder (issue 19, the max-case goal): r12's wgmma combine fed by the tensor
// memory accelerator through mbarriers (PairsConfig::wgmma.tma = 1, WgmmaCombineArgs::tma; kernel
// wgmma_combine_tma_kernel in sm90a/r09_wgmma_combine.cu, beside r09's). This file holds no code: the
// rung is that knob.
//
// What changed from r12: every stage of r09 .. r12 is a block-wide handshake: each of the 512 threads
// issues its cp.async chunk, waits for its own copies, fences, and the block meets at a barrier before
// anyone computes. ncu of r12's kernel (device call 4 of 2026-12-02) puts MIO throttle first among its
// stalls (1.83 per issued instruction: cp.async and shared loads queue on the same unit), then wait 1.30,
// long scoreboard 1.12, short scoreboard 1.10, barrier 0.76; the tensor pipe is 36 % busy, and the kernel
// without any load after the prologue still takes 31 us (r12: 35.8 us). Here one thread copies a stage
// with four cp.async.bulk.tensor boxes (16 bytes x 128 rows of a plane; columns past K arrive as zeros,
// so the masking pass goes too) and the bytes are counted in on the slot's `full` mbarrier; each
// warpgroup waits only for that, computes, keeps one group in flight and releases the previous slot on
// its `empty` mbarrier; the copier refills a slot when its four (two) releases are in. No block barrier
// and no cp.async in the main loop; the slot's layout is chunk-major (core matrices 8 rows x 16 bytes,
// LBO 2 KB, SBO 128 bytes) because that is what a 16-byte-wide box writes.
// Prediction: the handshake and the MIO queue go, the warps wait only for the tensor cores and their own
// fragment loads: the kernel alone ~35.8 -> ~22-26 us at the max case, the whole max case ~80 -> ~68-72 us,
// below r05's 77.5 us (the first rung to beat cuBLASLt's GEMM plus column sum inside the solve).
// Measured (H200, results/h200/2026-12-02-session8): the first version (four 16-byte boxes a stage, no
// swizzle; call 5) was exact but no faster than r12 (34.4 us under ncu: 512 narrow row requests a stage);
// with one 64-byte box and the 64-byte swizzle: the kernel alone 35.87 -> 31.74 us (767 int8 TOPS), the whole
// max case 78.91 -> **74.40 us**, below r05's 77.18 us (the first rung whose own combine beats cuBLASLt's GEMM
// plus the column sum inside the solve); 10^9 4.622 ms. Half right: 31.7 us, not 22-26; ncu: tensor pipe
// 41 % busy, long-scoreboard waits on `full` first (2.54): the copies still arrive late (r15).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
