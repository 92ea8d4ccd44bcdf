// Rung 54 of the gpu-pairs ladder (issue 19, the max-case goal): r53 with the combine's split found once a block, in
// 32-bit arithmetic (WgmmaShape::lean_split = 1 -> WgmmaCombineArgs::lean_split; the kernel's LEAN instantiation in
// sm90a/r09_wgmma_combine.cu, r09_wgmma_math.hpp block_begin32, segment_at32). This file holds no code: the rung is that
// knob.
//
// What changed from r53: after griddepcontrol.wait every thread of a combine block found its block's range of units
// (block_begin_weighted: three dependent 64-bit divisions a bound) and then each segment (segment_at: two more), all 512
// threads the same 64-bit divisions, ~70 instructions each, on the critical path of every block. Here thread 0 alone
// finds the range in 32-bit arithmetic and hands it over in shared memory (one block barrier), and each segment is found
// in 32-bit arithmetic. The launch uses it only when every product of the split fits 32 bits (range_fits32: the max
// case's is ~3e7); otherwise it runs r53's kernel. The same ranges and segments (unit-tested against the 64-bit ones).
// Why: session 20's control at K = 2400 (results/h200/2026-12-04-session20/call3) measured r51 0.7 us slower than r49
// with the same work and the same split, where r51 only adds two or three dependent 64-bit divisions of its light
// split after the wait: ~0.25 us a division, issue-bound across 16 warps.
// Prediction (max case): -0.5 to -1.2 us against r53 in the same runs (r53's ~5-6 dependent 64-bit divisions after the
// wait); nothing at 10^8 and 10^9 beyond that.
// Measured (H200, results/h200/2026-12-04-session20/call7, code of 89f2a9d; every answer exact, GPU tests, memcheck and
// racecheck clean): HELD, at the low end. The max case 50.82 us [50.75, 50.98] against r53's 51.49 [51.33, 51.49] and
// r49's 57.44 in the same four rounds (one rung a process): -0.67 us. The combine alone 24.90 us (r53 25.28); the cold
// traces' last end 20.5-20.9 us from the first entry (r53 21.2-21.7). 10^8 337.25 (r53 338.64), 10^9 3037.89 us
// (3042.78). The lowest max case measured. (The traced LEAN instantiation spills 8 bytes, the timed one none.)
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
