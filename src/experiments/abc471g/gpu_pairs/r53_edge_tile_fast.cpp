// Rung 53 of the gpu-pairs ladder (issue 19, the max-case goal): r49 with the skewed combine's last column tile summed
// on the epilogue's fast path (WgmmaShape::edge_fast = 1 -> WgmmaCombineArgs::edge_fast; sm90a/r09_wgmma_combine.cu
// skew_sums). This file holds no code: the rung is that knob.
//
// What changed from r49: a tile's 128 columns are a0 .. a0 + 127; at K = 2300 the last column tile (a0 = 2176) holds
// 124 columns < K. Its epilogue took skew_sums' general path: for each of a thread's 64 accumulator elements a window
// slot computed from x, the tile's first x, a0 and the column, and three tests (row in the list, column < K, value
// non-zero), where every other tile adds into slots at constant offsets from one pointer per row. Here that tile takes
// the fast path too, with no test at all: the planes' tensor map ends at row K (not kp), so the copies fill P's rows
// >= K with zeros, the accumulators of columns >= K are zero, and a zero added into its window slot (inside the span)
// changes nothing. (A first version dropped those columns with one compare an element: ptxas then spilled 12 bytes in
// the kernel every skewed rung shares.)
// Why: session 20's combine traces (results/h200/2026-12-04-session20, calls 1-4) put the four or more blocks that end
// last, in every trace, on that tile: an epilogue of a last-column-tile segment took 3.3-3.9 us against 1.45 us for the
// others (blocks of one segment, cold and hot traces alike), ~4 stages more, which the split (a segment = 8 stages)
// does not know. Those blocks set the combine's end.
// Prediction (max case): those epilogues ~1.5 us, the last block's end ~1-2 us earlier (the next blocks to end last
// then end within ~0.5 us of the median's tail), the max case -1 to -2 us against r49 in the same runs; 10^8 and 10^9
// unchanged (the same epilogues, ~1 % of the solve).
// Measured (H200, results/h200/2026-12-04-session20, calls 5 and 6, code of 563f280; every answer exact, GPU tests,
// memcheck and racecheck clean): HELD, beyond the prediction. The max case 51.60 us [51.55, 51.81] against r49's 57.92
// [57.79, 57.95] in the same four rounds (one rung a process), 51.49 against 57.76 in call 6: -6.3 us. In the binaries
// without this change r49 read 55.74-56.00 the same day (its general path compiled slower beside r53's condition), so
// -4.2 to -4.4 us against that figure. The cold traces' last block end 21.0-21.7 us against r49's 27.6-29.4, the
// last-column-tile epilogues 1.43 us like the others; the combine alone 25.47 us (r49 27.26). K = 2400 53.86 (r49
// 59.52), K = 2250 51.74 (57.89); 10^8 338.53 (344.27), 10^9 3033.73 (3034.98: a tie). The lowest max case measured.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
