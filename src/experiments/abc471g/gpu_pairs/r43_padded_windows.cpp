// Rung 43 of the gpu-pairs ladder (issue 19, the max-case goal): r41 with the skewed combine's window copies padded
// apart (WgmmaShape::window_pad = 1 -> WgmmaCombineArgs::window_pad; sm90a/r09_wgmma_combine.cu skew_sums,
// r09_wgmma_math.hpp WINDOW_PAD). This file holds no code: the rung is that knob.
//
// What changed from r41: r33's epilogue adds each accumulator element D'[x][a] into a shared-memory window indexed by
// x - a, one window copy per quad lane q (so that the four lanes of one row never meet), then adds the windows to the
// answer. The copies lay skew_window(4) = 2048 entries apart, a multiple of the 32 banks, so lane (g, q)'s entry is
// in bank (x_g - 2 q + c) mod 32: the eight rows g of a warp are consecutive x with V[x] = 0 (~2 apart, irregular)
// and q moves the entry by -2, so the 32 lanes crowd ~11 banks. ncu of r33's kernel (session 13) counted 450 K bank
// conflicts for 203 K shared atomics: ~3.2 wavefronts an atomic. With the copies 2048 + 10 entries apart the bank is
// (x_g + 8 q + c) mod 32; an emulation of the max case's rows (random V, half ones) gives 2.08 wavefronts an atomic
// against 3.25 (padding 10 and 26 are the best of 0 .. 32; ~2 is the floor, since a quad's four rows x_0 .. x_7 span
// ~14 banks each and four spans do not fit in 32).
// Prediction (max case): the epilogue's shared atomics ~36 % fewer wavefronts. If the epilogue's ~200 K atomics (1.7
// segments a block) cost ~3-5 us of the combine's ~24.5 us, that is -1 to -1.5 us on the combine and on the whole max
// case (~51.5 us against r41's 52.7); nothing at 10^9 (the combine is 1-2 % of it).
// Measured (H200, results/h200/2026-12-03-session17/call1, code of cb01bad, medians of three processes [min, max]; every
// answer exact, GPU tests, memcheck and racecheck clean): HELD, at the low end. Max case 52.61 us [52.50, 52.62] against
// r41's 53.31 [53.22, 53.31] in the same runs (-0.70 us, -1.3 %; r41 read 52.74 the day before: the runs drift ~1 %
// from day to day, so the same-run difference is the figure); the combine alone 27.46-27.49 against 28.00-28.06 us.
// ncu of the combine kernel alone: 23.62 against 24.35 us; the shared atomics' wavefronts 468 K against 704 K (-33.5 %,
// the emulation said -36 %), their bank conflicts 221 K against 452 K; warp instructions unchanged (6.67 M). 10^8
// 337.47 us (r41 337.73), 10^9 3042.14 us (r41 3046.59): ties, as predicted.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
