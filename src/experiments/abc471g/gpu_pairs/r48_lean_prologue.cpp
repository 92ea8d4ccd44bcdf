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
// Measured: not yet.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
