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
// Measured: not yet.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
