// Rung 62 of the gpu-pairs ladder (issue 19, the max-case goal): r57 with each partition block letting the fused
// histograms launch as it starts (PairsConfig::count_trigger -> PartitionArgs::trigger_dependents: one
// griddepcontrol.launch_dependents in r16_lean_count.cu's kernel). This file holds no code: the rung is that knob.
//
// What changed from r57: the histograms have been the partition's programmatic dependent since r04, meant to "start (and
// clear their counters) as the partition's blocks retire". But the partition never triggered, and a dependent grid
// launches only when every block of the primary has triggered or ended. The count's trace (session 22, call 3) shows it:
// the histogram blocks entered 1.16-1.48 us after the partition's last block had ended, while the partition's SMs had
// ended 20.2-26.9 us into the solve (a spread of ~6.7 us). Here every partition block triggers as it starts; once all
// have started (the partition is one wave) the histograms launch, and their blocks take SMs as the partition's blocks
// leave them (a histogram block needs half the register file: two of a SM's four partition blocks), clear their 158 KB
// of counters and wait at griddepcontrol.wait, which still waits for the partition's end and its writes.
// Prediction (max case): the ~1.2 us launch and the counters' clearing (~0.3 us) off the critical path: -1 to -1.5 us.
// Nothing at 10^9 (one launch gap in ~2.8 ms).
// Measured (H200, results/h200/2026-12-04-session22, calls 4-5, code of 4ebe459 and 3774ee8; one rung a process, every
// answer exact against cpu-direct, GPU tests, memcheck and racecheck clean): HELD, a little beyond the prediction. Max case
// 49.20 us [49.15, 49.28] against r57's 50.87 [50.85, 50.91] (four processes each, call 4): -1.67 us; 49.38 [49.22, 49.54]
// in call 5 (r60 51.07); the count alone 31.96 against 33.12 us. Its trace: the histogram blocks enter 17.8-24.2 us into
// the solve, as the partition's blocks leave their SMs (r57's entered 1.2-1.5 us after the partition's last end), and
// count from its end. 10^8 331.84 us (r60 330.80), 10^9 3009.70 us (r57's rotated count; one run each).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
