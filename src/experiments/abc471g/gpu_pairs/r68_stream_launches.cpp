// Rung 68 of the gpu-pairs ladder (issue 19, the max-case goal): r65 launched kernel by kernel, not as one CUDA graph
// (PairsConfig::graph off). This file holds no code: the rung is that knob.
//
// What changed from r65: every solve enqueues its kernels one by one on the stream (the partition kernel, the fused
// histograms and the skewed combine as programmatic dependents, the prep on the low-priority side stream through the
// fork and join events) instead of one cudaGraphLaunch of the same work captured once (r05). Nothing in the kernels.
// Why: the max case's time does not add up. r65's trace (session 22, call 5) puts the partition's first entry and the
// combine's last end 43.7 us apart, while the solve reads 47.07 us between its events: ~3.4 us pass between the start
// event and the partition's first block. The timed solve is enqueued while the L2 flush runs (no host gap is timed), so
// that is the GPU's own start of the graph. The launch probe now measures that head, cold, for one tiny kernel launched
// on the stream and for the same kernel as a one-node graph (records `launch.head_stream`, `launch.head_graph`).
// Prediction: if a graph's head costs ~2 us more than a stream launch's, r68 gains up to that at the max case, less
// what the graph saved at its boundaries (r05: ~1 us at r04's six kernels; here the boundaries are programmatic
// dependents that overlap their neighbours either way). If the heads are equal, a tie or a loss.
// Measured (H200, results/h200/2026-12-04-session23/call1, five processes each, one rung a process; every answer exact
// against cpu-direct, GPU test DependentCombineRungsAreExact with r68): a LOSS, as predicted for equal heads. The probe's
// heads are equal: one tiny kernel timed cold reads 3.07 us launched on the stream and 3.17 us as a one-node graph, so
// the ~3.4 us before the partition is what any cold figure pays for its first kernel, not the graph's. Max case 47.62 us
// [47.49, 47.65] against r65's 47.36 [47.26, 47.39] in the same runs (+0.26 us: the graph's boundaries, as r05 found);
// 10^8 310.69 us against 310.75 (a tie). Kept as a negative rung: the graph costs the solve nothing at its head.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
