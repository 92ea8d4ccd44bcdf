// Launchers of the gpu-pairs kernels (count.cu, r01_atomic_ntt.cu, r02_atomic_tc_int8.cu,
// r03_partition_tc.cu, r04_partition_gemm.cu).
// Only <cuda_runtime.h> and std types here: the host code that calls them is g++-compiled.
// Every launcher checks its launch (JOSEKI_CUDA_CHECK_LAUNCH in the .cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "experiments/abc471g/gpu_pairs/combine_trace.hpp"  // COUNT_TRACE_*_WORDS

namespace joseki::abc471g::pairs {

// ---- count (count.cu) -----------------------------------------------------------------
struct CountArgs {
  const std::uint32_t* d_b = nullptr;  // the M given values
  std::uint64_t m = 0;
  std::uint64_t seed = 0;
  std::uint32_t k = 1;
  std::uint32_t kp = 128;         // row stride of the table
  std::uint64_t fastmod_m = 0;    // make_fastmod(k).m
  std::uint64_t begin = 0, end = 0;  // pair starts [begin, end): pair i is (A_i, A_{i+1})
  std::uint32_t pairs_per_thread = 16;
  std::uint32_t* d_table = nullptr;  // kp*kp 32-bit counters; (end - begin) < 2^32 keeps them exact
};
// Each thread jumps the LCG to its first element and counts its pairs with fire-and-forget
// atomics (RED.ADD) into the L2-resident table. `generate_only` skips the atomics (a probe:
// the generator's share of the time) and XORs the values into d_table[0] instead.
void launch_count_pairs(const CountArgs& a, bool generate_only, cudaStream_t s);

// t64[i] += t32[i]; t32[i] = 0 (after a round of the 64-bit path).
void launch_flush_table(std::uint32_t* d_t32, std::uint64_t* d_t64, std::size_t n, cudaStream_t s);
// dst[i] += src[i] (the multi-GPU reduction when NCCL is not used).
void launch_add_table(const std::uint64_t* d_src, std::uint64_t* d_dst, std::size_t n, cudaStream_t s);
void launch_add_table32(const std::uint32_t* d_src, std::uint32_t* d_dst, std::size_t n, cudaStream_t s);

// *d_out = %globaltimer (ns), one thread: a mark on the stream's timeline (the combine trace's solve start).
void launch_timer_stamp(std::uint64_t* d_out, cudaStream_t s);

// The L2 atomic ceiling: n random RED.ADD.U32 into `cells` counters (same footprint as the table).
void launch_atomic_probe(std::uint32_t* d_table, std::uint32_t cells, std::uint64_t n, std::uint64_t salt,
                         cudaStream_t s);

// ---- partition count (r03_partition_tc.cu) ------------------------------------------------
// The table (kp*kp cells, kp a multiple of 128) is cut into slices of `slice` cells (plan_slices
// in pairs_math.hpp: <= 2^14 cells, <= PART_MAX_BUCKETS slices, so kp <= 4096; plan_slices_spread:
// up to 2^16 cells, PairsConfig::slices_per_sm).
inline constexpr std::uint32_t PART_MAX_BUCKETS = 1024;
inline constexpr int PART_PAIRS_PER_TILE = 16;  // pairs a thread generates per tile
struct PartitionArgs {
  CountArgs c;                    // the chunk [c.begin, c.end); c.d_table receives the counts
  std::uint64_t run = 16;         // pair starts per thread (>= 1; full tiles of PART_PAIRS_PER_TILE are faster)
  std::uint32_t buckets = 1;      // slices: ceil(kp^2 / slice)
  std::uint32_t slice = 1u << 14; // cells per slice (a multiple of 4, <= 2^16: offsets are 16 bits)
  std::uint32_t magic = 1u << 18; // slice of a cell = umulhi(cell, magic) (exact: plan_slices)
  std::uint32_t cap = 8;          // 16-bit entries per bucket (a multiple of 8)
  std::uint16_t* d_buf = nullptr; // buckets * cap
  std::uint32_t* d_cursor = nullptr;  // buckets; zero before the first chunk, left zero after each
  std::uint64_t* d_zero = nullptr;    // set to 0 by the kernel (the fused count's maximum) unless nullptr
  // Pairs per thread and tile of the 512-thread partition kernel: 0 = 16 (18 when that saves a tile of
  // a short run); 20 or 24 = fewer, larger tiles (r07, PairsConfig::partition_tile); 28 and 32 with r16's
  // variant 4 in blocks of 256 (session 10's sweep points: four blocks a SM, and three with 80 registers).
  // Other values mean 0.
  int tile_pairs = 0;
  // r16 (PairsConfig::partition_lean): the lean partition kernel (r16_lean_count.cu) in place of r03's,
  // for blocks of 512 (tiles of 16, 18 on a short run, or 24). Same buckets, same output. 0: r03's kernel;
  // 1: lean; 2: lean, a full tile's scatter positions gathered first; 3: 2 with the write-out of a tile
  // overlapped with the next tile's generation; 4: 1 with one slice per thread in the scan when the slices
  // number <= 512 (else 1); 5: 4 with a full tile's write-out unrolled (blocks of 256, <= 256 slices: r20);
  // 6: 5 with the slice counters double-buffered and no barrier at a tile's end (blocks of 256: r21); 7: 6
  // with 4's write-out loop (r22); 8: 7 with the next tile's given values prefetched into L1 (r23); 9: 4 with
  // 8's prefetch (r24); 10: 8 with a tile of given values on the full tile's path (r28); 11: 8 with the write-out
  // in pairs of entries (r30; runs padded to even lengths with holes of offset `slice`, counted by the histograms
  // into a spare counter); 12: 11 in groups of four entries (r31: runs padded to multiples of 4); 13: 12 with each
  // pair counted at its rotated cell a kp + (b - a) mod K (r37: the table holds P, the skewed combine's operand).
  // Any other value means 3. tile_pairs 32: lean 1 only (a sweep point).
  int lean = 0;
  // Threads per histogram block: 512 (HIST_THREADS), or 1024 (PairsConfig::hist_threads, session 10's sweep
  // point: one large slice a SM leaves one block, 16 warps, to hide the shared-memory atomics' latency).
  int hist_threads = 512;
  // 16-byte loads each histogram thread has in flight before it counts them: 1, 2 or 4 (PairsConfig::hist_loads,
  // r29; 1 until r28).
  int hist_loads = 1;
  // r60 (PairsConfig::spread_given; the lean kernel only): the chunk's first given_threads threads take runs of
  // given_run pairs (the given values, spread over the wave's free threads: spread_given_runs), the others runs of
  // `run` after them. 0: every thread a run of `run`.
  std::uint64_t given_threads = 0;
  std::uint64_t given_run = 0;
  // r64 (PairsConfig::tail_runs, pairs_math.hpp plan_runs): with full_threads > 0, after the given threads come
  // full_threads runs of `run`, then threads of tail_run pairs (the rest). 0: every thread after the given ones a run of
  // `run` (r60, and the plain layout).
  std::uint64_t full_threads = 0;
  std::uint64_t tail_run = 0;
  // A diagnostic (PairsConfig::trace_count, `scale hopper --trace-csv`): nullptr, or COUNT_TRACE_PARTITION_WORDS words
  // for each of the first trace_blocks partition blocks (the lean kernel: entry and end on %globaltimer, %smid) and then
  // COUNT_TRACE_HIST_WORDS for each fused histogram block (entry, counted, end, %smid); thread 0 of a block writes them.
  std::uint64_t* d_trace = nullptr;
  std::uint32_t trace_blocks = 0;
  // r62 (PairsConfig::count_trigger; the lean kernel only): each partition block lets the next kernel of its stream (the
  // fused histograms, a programmatic dependent) launch as it starts (griddepcontrol.launch_dependents, sm_90), so that
  // the histogram blocks take SMs as the partition's blocks leave them and wait there, counters cleared, for its end.
  bool trigger_dependents = false;
  // r63 (PairsConfig::cursor_lines): bucket b's cursor at d_cursor[b * cursor_stride] (32: one 128-byte line each, so
  // that the partition's reservations do not queue on a few lines of one L2 slice). 1: packed (r03 .. r62).
  std::uint32_t cursor_stride = 1;
};
struct PartitionLaunch {
  std::uint64_t resident_threads = 1;  // partition threads the GPU holds at once
  int threads_per_block = 1;
};
// Sets the histogram kernel's shared-memory limit for slices of `slice` cells (at least 2^14's); returns
// the partition kernel's residency for blocks of `threads` (256 or 512; anything else means 512).
PartitionLaunch prepare_partition(int device, int threads, std::uint32_t slice);
// r16_lean_count.cu: its kernels' shared-memory limits (called by prepare_partition), and one chunk's
// partition by the lean kernel (launch_partition_only calls it when a.lean and the blocks are 512).
void prepare_lean_partition();
// threads: 512, or 256 or 128 for variant 4 and 256 for variants 5 .. 10, with <= 256 slices (sessions 10, 11;
// PairsDevice refuses other lean configurations in smaller blocks); tile_pairs 32 with 256: three blocks a SM.
void launch_lean_partition(const PartitionArgs& a, int bits, cudaStream_t s, int threads = 512);
// Blocks a SM of the lean kernel that launch_lean_partition picks for these knobs and `buckets` slices (the
// occupancy API, asked about the same instantiation): the pipeline sizes a chunk's runs so that one wave of
// them fills the GPU.
int lean_partition_blocks_per_sm(int threads, int tile_pairs, int lean, std::uint32_t buckets);
// Whether the lean kernel is instantiated in tiles of `tile_pairs` for these knobs (0: the kernel's own choice,
// always): the answer of the same mapping launch_lean_partition uses, so that PairsDevice refuses a tile that would
// otherwise run as tiles of 16.
bool lean_partition_tile_built(int threads, int lean, int tile_pairs, std::uint32_t buckets);
// The same for r03's kernel (partition_lean = 0): tiles of 20 or 24 in blocks of 512, 16 (or 0) in either.
bool partition_tile_built(int threads, int tile_pairs);
// One chunk: partition (generate, rank by slice, write 16-bit offsets into the buckets; a full
// bucket spills into the table with RED.ADD), then one histogram block per slice adds its
// bucket into the table and empties the bucket.
void launch_partition(const PartitionArgs& a, int threads, cudaStream_t s);

// The partition kernel alone (no histograms): r04's fused count runs its own histograms.
void launch_partition_only(const PartitionArgs& a, int threads, cudaStream_t s);

// ---- DSMEM count (r08_dsmem_count.cu; the layout: dsmem_plan.hpp) ------------------------------
struct DsmemArgs {
  CountArgs c;                       // the chunk [c.begin, c.end); c.d_table (32-bit) receives the counts
  std::uint64_t run = 16;            // pair starts per route thread
  std::uint32_t cluster = 8, cluster_log = 3;  // blocks per cluster (8 or 16)
  std::uint32_t rows = 1;            // table rows per block (DsmemPlan::rows)
  std::uint32_t magic = 0;           // slot of a row = umulhi(row, magic)
  std::uint32_t slots = 1;           // ceil(kp / rows)
  std::uint32_t ranges = 1;          // buckets = clusters launched
  std::uint32_t cap = 8;             // 32-bit entries per bucket (a multiple of 8)
  std::uint32_t* d_buf = nullptr;    // ranges * cap
  std::uint32_t* d_cursor = nullptr; // ranges; zero before the first chunk, left zero after each
  // The bench's split (PairsDevice::enqueue_count_phase, r08's CountStage::enqueue_phase): bit 0 the route kernel, bit 1 the count
  // kernel; keep_cursor: the count kernel leaves the buckets full (so it can be timed again).
  int phases = 3;
  bool keep_cursor = false;
  bool generic_add = false;  // the count kernel's add as in debug call 1 (generic atom.add), for the A/B
  bool match_rank = false;   // the route kernel ranks with __match_any_sync instead of ballots (A/B)
};
struct DsmemLaunch {
  std::uint32_t resident_clusters = 0;  // clusters of the count kernel the GPU holds at once (at the opt-in maximum)
  std::size_t smem_optin = 0;           // bytes of shared memory a block may opt in to
  std::uint64_t route_threads = 1;      // route threads resident at once
};
// Sets the kernels' attributes (dynamic shared memory, non-portable clusters for 16) on the current
// device and asks the occupancy API. Throws CudaError where clusters of this size cannot launch.
DsmemLaunch prepare_dsmem(int device, std::uint32_t cluster);
// One chunk: the route kernel (generate, rank by range, write 4-byte entries into the range's bucket;
// a full bucket spills into the table with RED.ADD), then one cluster per range counts its bucket into
// its blocks' shared memory with remote (DSMEM) atomics and adds the counts into the table.
void launch_dsmem_count(const DsmemArgs& a, cudaStream_t s);

// ---- GEMM combiner and the fused count (r04_partition_gemm.cu) -----------------------------
// Planes of the GEMM combiner: plane 0 = C & 127 (signed int8 for cuBLASLt), plane j >= 1 =
// (C >> (7 + 8(j-1))) & 255 (r02's mma.sync kernel, TcArgs::low_bits = 7, first_plane = 1).
inline constexpr int GEMM_LOW_BITS = 7;
struct FuseArgs {
  std::uint8_t* d_planes = nullptr;        // planes * kp*kp bytes
  int planes = 1;
  std::uint32_t* d_slice_max = nullptr;    // per slice: its largest count
  std::uint64_t* d_max = nullptr;          // zeroed before; receives the table's maximum
  // r33: cell (a, b) of every plane at column skew_col(a, b, K) of row a (pairs_math.hpp): C's row a rotated
  // left by a, one byte store a cell; cells of rows or columns >= K are not written (nothing reads them).
  bool skew = false;
  // With skew: the byte offset in the histogram kernel's shared memory of room for one plane's bytes of the slice
  // (prepare_partition_fused's answer; 0: none, each byte is read from its counter).
  std::uint32_t skew_stage = 0;
  // r38 (PairsConfig::combine_dependent): the answers' first terms, answer[i] = V[(a0 + i) mod K] for i < K, written by
  // the histogram blocks (nullptr: not here), and `trigger`: each histogram block lets the next kernel of its stream
  // launch as it starts (griddepcontrol.launch_dependents), for a combine launched as a programmatic dependent, which
  // waits for the histograms' end before it reads what they wrote (sm_90; below it the instruction is left out).
  std::uint64_t* d_answer = nullptr;
  const std::uint8_t* d_v = nullptr;  // V, K bytes
  std::uint32_t k = 1, a0 = 0;        // a0 < K
  bool trigger = false;
  // r67 (PairsConfig::hist_early_max): each histogram block reads its slice's previous maximum (d_slice_max[b], written
  // by this block in the previous solve) as it starts, not after its counting, off the critical path.
  bool early_before = false;
  // r69 (PairsConfig::combine_flags): each histogram block adds 1 here after its last write (a release: its threads'
  // proxy fences, a barrier, thread 0's fence), which the combine waits for instead of griddepcontrol.wait. nullptr: none.
  std::uint32_t* d_done = nullptr;
};
// The partition count of a solve's only chunk whose histograms write the planes directly: no
// table, no slicing pass. A slice whose bucket spilled adds the table's counts of its cells and
// clears them (the table stays zero between such solves). Planes j >= 1 of a slice are written
// when its maximum needs them, zeroed when its previous solve's did (d_slice_max), else left
// alone: they stay zero wherever d_slice_max < 2^GEMM_LOW_BITS (zeroed once, before the first solve).
void launch_partition_fused(const PartitionArgs& a, const FuseArgs& f, int threads, cudaStream_t s);
// Sets the fused histogram kernel's shared-memory limit on the current device (before the first launch), never
// lowering one set before. skew (r33): also room for a plane's bytes of a slice where the GPU has it; returns
// FuseArgs::skew_stage (0: no room, or not skew).
std::uint32_t prepare_partition_fused(std::uint32_t slice, bool skew = false);

struct ProductPrepArgs {
  std::int8_t* d_circ = nullptr;  // kp*kp: circ(V)[b][k] = V[(b+k) mod K] for b, k < K, else 0; nullptr: skip
  const std::uint8_t* d_v = nullptr;
  std::uint32_t k = 1, kp = 128, a0 = 0;
  std::uint64_t* d_answer = nullptr;  // receives the first terms V[(a0+k) mod K] unless nullptr
  std::uint8_t* d_u2 = nullptr;       // with d_circ: receives 1 - V[i mod K], i < 2 kp (the reduction's mask)
};
void launch_product_prep(const ProductPrepArgs& a, cudaStream_t s);

// answer[k] += sum_{a < K} (1 - V[(a+k) mod K]) * G[a][k], G (kp x kp int32, row a) the GEMM's product.
struct ProductReduceArgs {
  const std::int32_t* d_g = nullptr;
  const std::uint8_t* d_u2 = nullptr;  // 1 - V[i mod K], i < 2 kp (written by the prep; 16-byte aligned)
  std::uint32_t k = 1, kp = 128;
  std::uint64_t* d_answer = nullptr;
  // Rows [row_begin, min(row_end, k)) only (r06: one panel of G's rows); default: every row.
  std::uint32_t row_begin = 0, row_end = 0xFFFFFFFFu;
  // Launched as a programmatic dependent of the previous kernel in its stream (r04: the GEMM);
  // false: a plain launch (r06's panels wait for their GEMM through an event on another stream).
  bool dependent = true;
};
void launch_product_reduce(const ProductReduceArgs& a, cudaStream_t s);

// ---- tensor-core combiner (r02_atomic_tc_int8.cu) -------------------------------------
// Slices the table into byte planes (C = sum_j 2^(8j) C_j), takes the table's maximum (which
// says how many planes the product needs), and writes the first term of every answer:
// d_answer[k] = V[(a0 + k) mod K].
struct SliceArgs {
  const void* d_table = nullptr;
  bool wide = false;  // 64-bit counters (the multi-round path), else 32-bit
  std::uint32_t kp = 128;
  int slices = 1;     // planes written (enough for the largest possible count)
  std::uint8_t* d_slices = nullptr;  // slices * kp * kp bytes
  std::uint64_t* d_max = nullptr;    // zeroed before; receives the table's maximum
  std::uint64_t* d_answer = nullptr;
  const std::uint8_t* d_v = nullptr;
  std::uint32_t k = 1;
  std::uint32_t a0 = 0;
  int low_bits = 8;   // bits of plane 0 (7 for the GEMM combiner's signed int8), 8 in the others
  bool skew = false;  // r33: the planes skewed as FuseArgs::skew says
};
void launch_slice_table(const SliceArgs& a, cudaStream_t s);

enum class TcTile : int { T128x128 = 0, T64x128 = 1, T64x64 = 2 };

// answer[k] += sum_a (1 - V[a+k]) * G[a][k], G = C * circ(V) on mma.sync m16n8k32 (u8 x u8 -> s32),
// one plane per blockIdx.z; planes the table's maximum does not need exit at once.
struct TcArgs {
  const std::uint8_t* d_slices = nullptr;
  int slices = 1;  // planes available (grid z)
  const std::uint64_t* d_max = nullptr;
  const std::uint8_t* d_v = nullptr;
  std::uint32_t k = 1, kp = 128;
  std::uint64_t* d_answer = nullptr;
  int low_bits = 8;     // plane j holds bits plane_shift(j, low_bits) and up
  int first_plane = 0;  // planes below it are another combiner's (the GEMM takes plane 0)
};
// Dynamic shared memory of the combiner for this kp (bytes); sets the kernel's limit when > 48 KiB.
std::size_t prepare_tc_combine(TcTile tile, std::uint32_t kp);
void launch_tc_combine(const TcArgs& a, TcTile tile, cudaStream_t s);

// ---- NTT combiner (r01_atomic_ntt.cu) ---------------------------------------------------
struct NttArgs {
  const void* d_table = nullptr;
  bool wide = false;
  std::uint32_t k = 1, kp = 128;
  std::uint32_t l = 2;  // transform length (ntt_length(k)), at most NTT_MAX_LENGTH
  const std::uint8_t* d_v = nullptr;
  const std::uint64_t* d_tw = nullptr;   // w^e, e < l/2
  const std::uint64_t* d_itw = nullptr;  // w^-e
  std::uint64_t l_inv = 1;               // 1/l mod p
  std::uint64_t* d_partials = nullptr;   // blocks * l
  std::uint32_t blocks = 1;              // <= k
  std::uint64_t* d_sum = nullptr;        // l
  std::uint64_t* d_answer = nullptr;     // k, written (not accumulated)
  std::uint32_t a0 = 0;
};
inline constexpr std::uint32_t NTT_MAX_LENGTH = 8192;  // two length-L u64 arrays in 128 KiB of shared memory
void prepare_ntt_combine(std::uint32_t l);
void launch_ntt_combine(const NttArgs& a, cudaStream_t s);

}  // namespace joseki::abc471g::pairs
