// Launchers of the dsmem probe (dsmem_kernels.cu): distributed shared memory of a thread-block
// cluster (sm_90), against a block's own shared memory and the L2.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

// Shared-memory pointer chase in a cluster of `cluster` blocks (1 block = no cluster attribute):
// every block copies the ring next[0, words) into its shared memory; then thread 0 of rank 0 follows
// `warm` then `steps` (timed, clock64) dependent loads from word `start` through the ring of rank
// `target` (0 = its own, through a plain shared pointer; > 0 = a peer's, through
// cluster.map_shared_rank). d_cycles[0] = cycles of the timed loads, d_end[0] = the word reached.
void launch_dsmem_chase(const std::uint32_t* d_next, std::uint32_t words, int cluster, int target, std::uint32_t start,
                        int warm, int steps, long long* d_cycles, std::uint32_t* d_end, cudaStream_t s);
// One thread chasing through d_next with ld.global.cg (L2, not L1): the L2 latency of the same run.
void launch_l2_chase(const std::uint32_t* d_next, std::uint32_t start, int warm, int steps, long long* d_cycles,
                     std::uint32_t* d_end, cudaStream_t s);

// Bandwidth: `blocks` blocks of `threads` in clusters of `cluster`; each fills its `words` words of
// shared memory (a power of two, multiple of 4) with mix32(rank * words + i, seed), the cluster
// syncs, and each block reads the buffer of rank (rank + 1) % cluster (remote) or its own (local)
// `reps` times with 16-byte loads. d_partials[b] = block b's sum, d_ranks[b] = its rank.
void launch_dsmem_read(bool remote, int cluster, int blocks, int threads, std::uint32_t words, int reps,
                       std::uint32_t seed, std::uint32_t* d_partials, std::uint32_t* d_ranks, cudaStream_t s);
// How many clusters of `cluster` blocks of the read kernel (threads, words) can be resident at
// once (cudaOccupancyMaxActiveClusters); 0 when none (the size is not launchable here).
int dsmem_max_clusters(bool remote, int cluster, int threads, std::uint32_t words);

}  // namespace joseki::probes
