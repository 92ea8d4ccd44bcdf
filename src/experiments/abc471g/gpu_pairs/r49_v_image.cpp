// Rung 49 of the gpu-pairs ladder (issue 19, the max-case goal): r46 with V's four copies made on the host and copied in
// by the combine's prologue (WgmmaShape::v_image = 1 -> WgmmaCombineArgs::d_vimage; r09_wgmma_combine.cpp
// v_copies_image, r33_skewed_combine.cpp, sm90a/r09_wgmma_combine.cu load_v_image). This file holds no code: the rung
// is that knob.
//
// What changed from r46: V is the problem's input and never changes during a solve, yet every combine block built its
// four copies (the A fragments' source) from V's bytes in its prologue: V's K bytes loaded one byte a thread, V2's tail
// byte by byte with a `%`, the shifted copies word by word, three block barriers. Here the host makes the same 19.5 KB
// (at K = 2300) once, when the device is made, in the layout of the kernel's shared memory, and the prologue copies it
// in with 16-byte loads (~2.4 a thread), one barrier.
// Why: session 18's trace (results/h200/2026-12-03-session18/call2) showed the prologue (~2.1 us) on the critical path
// of nearly every combine block of the solve (they start when the histograms' blocks leave their SMs, 3.0-3.5 us after
// the first, and the histograms end at ~3.8 us), and r48 showed that prologue bound by its instructions: this one has
// almost none left, only the load's latency.
// Prediction (max case): the prologue ~2.1 -> ~1.0-1.2 us in the trace, the last release ~1 us earlier, the max case
// -0.7 to -1.0 us against r46 in the same runs; nothing at 10^8 and 10^9.
// Measured (H200, results/h200/2026-12-03-session18/call4, code of 0040cd2, medians of three processes [min, max]; every
// answer exact, GPU tests, memcheck and racecheck clean): HELD, beyond the prediction. The max case 52.54 us [52.51,
// 52.77] against r46's 53.79 [53.79, 54.02] and r43's 54.59 in the same runs (-1.25 us against r46; the lowest max
// case measured so far, below session 17's 52.61 for r43 on a day its runs read ~1.4 us lower). The trace: the
// prologue 0.71 us (median of the blocks; 0.69 .. 0.76) against r46's 2.08, the last release from griddepcontrol.wait
// at 4.0-4.2 us against 5.5-5.9, the last block's end 22.6 us against 23.9-24.4; the combine alone 26.53-27.65 against
// 27.84-28.03 us. So most of the old prologue was its instructions, and with them gone the blocks wait for the
// histograms' end, not for their own set-up. 10^8 338.53 us (r46 339.25), 10^9 3054.91 us (r46 3047.07; one run
// each): ties.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
