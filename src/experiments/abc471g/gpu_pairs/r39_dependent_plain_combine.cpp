// Rung 39 of the gpu-pairs ladder (issue 19): r31 with r38's knob (PairsConfig::combine_dependent) - the plain wgmma
// combine (combine kind "wgmma", TMA kernel, rows unrotated) launched as the fused histograms' programmatic
// dependent. This file holds no code: the rung is that knob.
//
// What changed from r31: r31's combine is a plain launch after the histograms, the answers' first terms on a side
// stream joined by an event; here the histograms write the first terms and execute griddepcontrol.launch_dependents
// as they start, and the TMA kernel runs its prologue (mbarriers, V's padded copies) before griddepcontrol.wait.
// Why: r38 changed two things at once against r33 (the rotated cells, r37, and this launch). r39 puts the launch
// alone on r31, the 10^9 rung, to see what it is worth without the rotation, and whether the best 10^9 rung gains
// it too (r37's rotation costs the partition at 10^9).
// Prediction: r38's -3.5 us against r37 at the max case came from the launch gap, the join and the prologue, which
// the plain kernel has too (without the skewed windows to zero): r31's ~62.3 -> ~59 us; 10^8 -3 us (~342.5); 10^9
// the same -3 us, within the run-to-run spread (~2.88 ms).
// Measured (H200, results/h200/2026-12-03-session16/call2, code of 68e3942, medians of three processes [min, max];
// every answer exact, GPU tests and sanitizers clean): HELD. Max case 59.39 us [59.33, 59.39] against r31's 62.40 in
// the same runs (-3.0 us: the launch alone is worth what it was worth on r37); 10^8 343.01 against 345.44; 10^9
// 2876.02 [2870.94, 2876.32] against 2880.42 (-0.15 %, inside the spread), and r32 (tiles of 24, plain launch) was
// faster there: 2868.11. So the dependent launch is a fixed ~3 us at any size, and r38 stays the max-case rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
