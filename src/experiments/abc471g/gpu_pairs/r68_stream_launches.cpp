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
// Measured: see results/h200/2026-12-04-session23 (NOTE.md).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
