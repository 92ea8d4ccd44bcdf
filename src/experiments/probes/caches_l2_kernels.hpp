// Launchers of the caches_l2 probe (caches_l2_kernels.cu): L2 near/far sides per SM, and the
// page ring of the TLB sweep.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace joseki::probes {

// The dynamic shared memory that leaves room for one block per SM only (the blocks below are
// launched sm_count at a time so that every SM runs exactly one; smid_out says which SM each got).
// Sets the kernels' attribute; returns the bytes to launch with.
std::size_t l2_one_block_per_sm_smem(std::size_t smem_per_sm, std::size_t smem_per_block_optin);

// Every 8-byte slot line_slots[j] of d_buf holds its own global address (a self loop), j < lines.
void launch_l2_self_loops(unsigned long long* d_buf, const std::uint64_t* d_line_slots, int lines, cudaStream_t s);

// blocks blocks of one thread each: thread 0 reads %smid, then for each candidate line j: two
// untimed ld.global.cg (the line is in the L2 from then on), `steps` timed dependent ld.global.cg
// on its self loop; cycles[b * lines + j] = cycles per load. check[b] = XOR of the addresses the
// slot indices the chains ended on (each its own slot: the host checks it).
void launch_l2_line_latency(const unsigned long long* d_buf, const std::uint64_t* d_line_slots, int lines, int steps,
                            float* d_cycles, int* d_smid, unsigned long long* d_check, int blocks, std::size_t smem,
                            cudaStream_t s);

// blocks blocks of 32 threads (one per SM with smem from l2_one_block_per_sm_smem): block b walks
// its own per_block lines (d_line_slots[b * per_block + j], self loops), each loaded once per pass
// and timed alone (clock, ld.global.cg, a shared store of the value, clock): pass 0 is every line's
// first touch from that SM, pass 1 the second. d_first / d_second[b * per_block + j] = cycles,
// d_smid[b] = its SM, d_check[b] = the sum of the slot indices loaded (both passes). The caller
// keeps (64 + per_block) * 8 <= smem.
void launch_l2_first_touch(const unsigned long long* d_buf, const std::uint64_t* d_line_slots, int per_block,
                           float* d_first, float* d_second, int* d_smid, unsigned long long* d_check, int blocks,
                           std::size_t smem, cudaStream_t s);

// blocks blocks of `threads` threads: block b reads the lines of row smid of d_lists (rows rows of
// max_lines line indices of 128 bytes each, counts[smid] of them; row = the SM the block runs on,
// none beyond `rows`) `reps`
// times with 16-byte ld.global.cg loads (L2, bypassing the L1), starting at a rotation that
// depends on the SM. d_cycles[b] = clock64 cycles of the block's loop, d_sums[b] = the sum of the
// 32-bit words read (mod 2^32), d_smid[b] its SM. A row with count 0 reads nothing.
void launch_l2_side_read(const uint4* d_buf, const std::uint32_t* d_lists, const int* d_counts, int rows, int max_lines,
                         int reps, long long* d_cycles, std::uint32_t* d_sums, int* d_smid, int blocks, int threads,
                         std::size_t smem, cudaStream_t s);

// The TLB sweep's ring: one node per page of page_slots 8-byte slots, node k of the ring on page
// order[k] at slot page_slot_of(order[k], page_slots) of it, holding the global address of the
// next node (ring order). Walk it with launch_ptr_chase (caches_kernels.hpp).
void launch_page_ring_build(unsigned long long* d_slots, const std::uint32_t* d_order, std::uint32_t nodes,
                            std::uint64_t page_slots, cudaStream_t s);

}  // namespace joseki::probes
