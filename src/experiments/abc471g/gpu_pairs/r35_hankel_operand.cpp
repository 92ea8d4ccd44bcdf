// Rung 35 of the gpu-pairs ladder (issue 19, the max-case goal): r31 with the combine's circulant read by the
// tensor cores from shared memory through descriptors alone (PairsConfig::wgmma.op = ss with tma 1: r15's TMA kernel
// instantiated with HANKEL, wgmma_combine_tma_kernel<4, 64, 8, false, true> in sm90a/r09_wgmma_combine.cu; index
// math in r09_wgmma_math.hpp "r35"). This file holds no code: the rung is that knob.
//
// What changed from r31: r15's kernel (r31's combine) takes wgmma's A operand, W[k][b] = V[(k + b) mod K], from
// registers: every thread assembles its four fragment words per k32 step from V's shifted copies (four shared
// loads), then fences, issues and waits. ncu of that kernel at the max case: 27.07 us, 8.87 M warp instructions
// (~47 a warp and k32 step), tensor pipe 53.3 % busy - bound by issue, not by the tensor cores (r33 halved its
// tensor work and gained 16 %). W is a Hankel matrix: its core matrix (8 rows x 16 bytes, no swizzle) at rows
// k .., bytes b .. is 8 consecutive 16-byte entries H[t ..] with t = (k + b) mod K and H[p] = V[p .. p + 15]. So
// one array H of (K + 128) x 16 bytes (38.9 KB at K = 2300), written once per block, is the A operand of every
// tile and stage: the descriptor's start is 16 t, its LBO 256 (b + 16: t + 16) and SBO 128 (k + 8: t + 8).
// The main loop keeps the mbarrier wait, two descriptors and two wgmma.ss a stage; no fragment loads.
// The cost: the tensor cores read A from shared memory too (2 KB a warpgroup and k32 step beside B's 4 KB: ~96
// bytes a cycle at the tensor pipe's pace against 128), and kp <= 8960 (H beside the ring); beyond, the launcher
// refuses the shape with an InputError that says so.
// Prediction: ~2-3x fewer warp instructions in the kernel; it becomes tensor- or shared-memory-bound: ~27 -> ~17-20
// us alone at the max case, the whole max case ~62 -> ~53-56 us, 10^9 ~-10 us (the combine ~49 us there). If the
// shared-memory reads of A throttle the tensor pipe, less.
// Measured (H200, results/h200/2026-12-03-session14, medians of three processes; every answer exact against
// cpu-direct, the GPU tests of every shape - the layout was right the first time, no LBO/SBO exchange - memcheck 0
// errors, racecheck 0 hazards in every call): WRONG, no gain. First form (call1, code of 0e0d70a: the stages unrolled in
// pairs as r15's): the kernel alone (ncu, max case) 27.20 us against r15's 27.23, tensor pipe 53.3 % busy against
// 53.1 %, 9.08 M warp instructions against 8.87 M - the fragments' loads went and the count *rose*: it counts the
// warps' polling of the `full` mbarriers, so the warps were waiting, not issuing; the whole max case 62.18 us against
// r31's 62.14, 10^9 2872.38 against 2870.51 us (a tie). This form (final, code of cad450d: r36's single loop with
// wait_group 1): the kernel 28.45 us (10.70 M instructions, tensor pipe 50.5 %) against r15's 27.01, the max case
// 63.74 us against 62.24, 10^8 347.71 against 346.18, 10^9 2879.57 against 2875.07 us. The bench's diagnostic without
// any copy after the prologue (debug 2, answers wrong by design) still takes 25.38 us hot against 27.59 with them: the
// feed costs ~2 us; the rest is the wgmma loop and its epilogue themselves. Kept as a negative rung: the operand's
// assembly never bounded the kernel.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
