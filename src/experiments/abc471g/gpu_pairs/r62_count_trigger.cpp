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
// Measured: (below, once run).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
