// Rung 52 of the gpu-pairs ladder (issue 19, the max-case goal): r51 with the idle warpgroups' stages weighed lighter
// in the split (WgmmaShape::idle_discount = 2). This file holds no code: the rung is that knob.
//
// What changed from r51: only the split (block_begin_light): a stage of the last row tile counts as 8 - 2 x (idle
// warpgroups) eighths of a full one, half a stage at the max case (two of four warpgroups idle), where r51 counts 6/8.
// It brackets r51's guess from the other side: if the tensor cores bound a stage, two warpgroups' stage costs half.
// Prediction (max case): the split's model puts the costliest block at 36 stage-equivalents (r49 38, r51 37) if a light
// stage costs half a full one, at 40 (a loss) if it costs 0.6, 46 if 0.75: a gain over r51 only if a light stage costs
// <= ~0.55 of a full one. Nothing at 10^8 and 10^9.
// Measured (H200, results/h200/2026-12-04-session20/call1, code of e33418c): a LOSS, as predicted for the measured light
// stage (0.91 of a full one): 56.74 us [56.61, 56.83] against r49's 56.00 and r51's 53.98 in the same five processes;
// the combine alone 28.45 us (r49 27.01); 10^8 341.82, 10^9 3037.63 us.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
