// Rung 52 of the gpu-pairs ladder (issue 19, the max-case goal): r51 with the idle warpgroups' stages weighed lighter
// in the split (WgmmaShape::idle_discount = 2). This file holds no code: the rung is that knob.
//
// What changed from r51: only the split (block_begin_light): a stage of the last row tile counts as 8 - 2 x (idle
// warpgroups) eighths of a full one, half a stage at the max case (two of four warpgroups idle), where r51 counts 6/8.
// It brackets r51's guess from the other side: if the tensor cores bound a stage, two warpgroups' stage costs half.
// Prediction (max case): the split's model puts the costliest block at 36 stage-equivalents (r49 38, r51 37) if a light
// stage costs half a full one, at 40 (a loss) if it costs 0.6, 46 if 0.75: a gain over r51 only if a light stage costs
// <= ~0.55 of a full one. Nothing at 10^8 and 10^9.
// Measured: see the ladder row in docs/ABC471G_SCALE.md (filled in when measured).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
