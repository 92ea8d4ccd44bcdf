// Rung 67 of the gpu-pairs ladder (issue 19, the max-case goal): r65 with each fused histogram block reading its slice's
// previous maximum as it starts (PairsConfig::hist_early_max -> FuseArgs::early_before, r04_partition_gemm.cu). This file
// holds no code: the rung is that knob.
//
// What changed from r65: after its counting, a histogram block packs plane 0, takes its slice's maximum, and then read
// d_slice_max[b] (its own maximum of the previous solve, which says whether the slice's upper planes were written and must
// be zeroed) between two barriers: one global load's round trip on every block's path to its end, and the combine waits
// for the last block's end. Nothing in a solve writes that word before this block does, so it is read as the block
// starts, while it clears its counters and waits for the partition.
// Prediction (max case): r65's trace puts 1.8 us between a block's counting and its end; the load's ~0.5-1 us under load
// out of it: -0.3 to -0.8 us (~46.5 us). Nothing at 10^8 or 10^9 beyond the noise.
// Measured (H200, results/h200/2026-12-04-session22/call6, code of be4388d, five processes each, one rung a process; every
// answer exact, GPU tests, memcheck and racecheck clean): WRONG, a tie. Max case 47.46 us [47.36, 47.49] against r65's
// 47.49 [47.42, 47.62] in the same runs (-0.03 us); its trace: the histograms count until 27.3-29.8 us and end at
// 28.9-31.8, the same ~1.8-2.0 us between counting and end as r65's. The load was not what lies there; the plane's packing
// loop and the block's two barriers were not measured apart. Kept as a negative rung.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
