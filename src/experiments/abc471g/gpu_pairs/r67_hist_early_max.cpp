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
// Measured: (below, once run).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
