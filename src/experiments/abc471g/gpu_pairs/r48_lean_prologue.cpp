// Rung 48 of the gpu-pairs ladder (issue 19, the max-case goal): r46 with the skewed combine's prologue in one pass less
// (WgmmaShape::lean_prologue = 1 -> WgmmaCombineArgs::lean_prologue; sm90a/r09_wgmma_combine.cu load_v_lean). This file
// holds no code: the rung is that knob.
//
// What changed from r46: the combine kernel's prologue writes V's four copies in shared memory (the A fragments' source:
// V2 = V twice over, and V2 shifted by 1, 2, 3 bytes). load_v did it in three passes with a block barrier after each:
// V's bytes from global memory, V2's tail byte by byte with a `%` per byte, the shifted copies from V2's words.
// load_v_lean keeps the first pass, then writes every word of the four copies straight from V's bytes at positions
// mod K (a subtraction below 2 K, no `%`): one barrier and one pass less.
// Why it should matter: session 18's trace of the combine inside the max case's solve (`scale hopper --trace-csv`,
// results/h200/2026-12-03-session18/call2) showed that nearly every combine block enters 3.0-3.5 us after the first
// (a block of 512 threads x 128 registers takes a whole SM, so it starts when the histograms' block there leaves),
// that its prologue then takes ~2.1 us, and that the blocks pass griddepcontrol.wait at 5.4-5.7 us although the
// histograms ended at ~3.8 us (the earliest release): the prologue sits on the critical path of nearly every block.
// Session 17's PC sampling of the prologue: ~1/3 waiting for V's loads, ~1/3 in the V2 and copy passes, the rest the
// kernel's start.
// Prediction (max case): the prologue ~2.1 -> ~1.5 us in the trace, the max case -0.3 to -0.7 us against r46 in the same
// runs; nothing at 10^8 and 10^9.
// Measured (H200, results/h200/2026-12-03-session18/call3, code of 997f5f4, medians of three processes [min, max]; every
// answer exact, GPU tests, memcheck and racecheck clean): WRONG, a loss. The max case 55.17 us [55.17, 55.39] against
// r46's 54.08 [53.89, 54.14] in the same runs; the trace puts the prologue at 3.55 us (median of the blocks; 3.44 ..
// 3.66) against r46's 2.06 (2.01 .. 2.18), and the last release at 6.8-7.6 us against 5.5-5.6. The pass it saved was
// cheap; what it added was not: each word now takes a 32-bit division (its copy and word from the flat index), a
// position mod K and four dependent byte loads, ~60 instructions against window4's two word loads and a funnel shift,
// and 16 warps issue them on one SM. So the prologue is bound by its instructions (and V's load), not by its barriers:
// a faster one needs fewer instructions a byte than load_v, not fewer passes. 10^8 342.18 us (r46 340.58), 10^9
// 3036.19 us (r46 3035.14; one run each). Kept as a negative rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
