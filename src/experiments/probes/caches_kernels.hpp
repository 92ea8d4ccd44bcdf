// Launchers of the caches probe (caches_kernels.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

// d_next[order[k] * spacing] = order[(k + 1) % nodes] * spacing (word indices), k < nodes:
// a pointer ring that visits the nodes in the random order.
void launch_chase_build(std::uint32_t* d_next, const std::uint32_t* d_order, std::uint32_t nodes,
                        std::uint32_t spacing_words, cudaStream_t s);
// Reads every node once with the whole GPU (loads the ring into the L2 when it fits).
void launch_chase_touch(const std::uint32_t* d_next, std::uint32_t nodes, std::uint32_t spacing_words,
                        std::uint32_t* d_sink, cudaStream_t s);
// One thread: `warm` dependent loads, then `steps` timed with clock64. d_cycles[0] = cycles,
// d_end[0] = the node reached.
void launch_chase(const std::uint32_t* d_next, std::uint32_t start, int warm, int steps, long long* d_cycles,
                  std::uint32_t* d_end, cudaStream_t s);
// The pure pointer chase: d_slots[order[k] * spacing] = the global address of
// d_slots[order[(k + 1) % nodes] * spacing] (8-byte slots). One thread from slot start_slot: `warm`
// loads, then `steps` timed with clock64, each load's address the previous load's value.
// d_end_slot[0] = the slot index reached.
void launch_ptr_chase_build(unsigned long long* d_slots, const std::uint32_t* d_order, std::uint32_t nodes,
                            std::uint32_t spacing_slots, cudaStream_t s);
void launch_ptr_chase(const unsigned long long* d_slots, std::uint64_t start_slot, int warm, int steps,
                      long long* d_cycles, unsigned long long* d_end_slot, cudaStream_t s);
// Shared-memory latency: the ring d_next[0, words) (word indices, launch_chase_build's layout) is
// copied into one block's shared memory as shared addresses (words * 4 bytes, at most 48 KiB) and
// chased by one thread from word `start` with ld.shared (pure chase). d_end[0] = the word reached.
void launch_shared_chase(const std::uint32_t* d_next, std::uint32_t words, std::uint32_t start, int warm, int steps,
                         long long* d_cycles, std::uint32_t* d_end, cudaStream_t s);
// Block b reads per_block 16-byte words of d[0, n16) from (n16 / blocks) * b on, wrapping;
// d_partials[b] = the sum of their 32-bit words.
void launch_ws_read(const uint4* d, std::size_t n16, std::size_t per_block, std::uint32_t* d_partials, int blocks,
                    int threads, cudaStream_t s);

}  // namespace joseki::probes
