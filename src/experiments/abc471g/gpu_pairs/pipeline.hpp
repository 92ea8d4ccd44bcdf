// The gpu-pairs solve, as pure C++ (compiles in a CPU-only build, where it throws
// GpuUnavailable): count adjacent pairs on the GPU, combine with the NTT (r01) or on the tensor
// cores (r02). Any N (rounds of < 2^32 pairs into 32-bit counters, flushed into 64-bit ones),
// memory independent of N (K^2 counters; A is never stored).
#pragma once

#include <cstdint>
#include <string>

#include "experiments/abc471g/gpu_pairs/r09_wgmma_combine.hpp"  // WgmmaShape (pure C++, std + needs.hpp)
#include "experiments/abc471g/problem.hpp"
#include "measure/needs.hpp"

namespace joseki::abc471g::pairs {

// How C is combined with V: NTT correlations (r01), the product G = C circ(V) on our mma.sync
// kernel (r02, r03), or plane 0 of it on cuBLASLt's int8 GEMM and the higher planes on mma.sync
// (r04; falls back to mma.sync alone when cuBLASLt cannot be loaded, and says so).
enum class Combiner { Ntt, TensorCore, Gemm };
const char* combiner_name(Combiner c);  // "ntt" | "tc" | "gemm"

// How pairs are counted: one L2 atomic per pair (r01, r02), or partitioned by table slice and
// counted in shared memory (r03; needs Kp <= PARTITION_MAX_KP, else the atomic count runs), or by a
// pluggable count kind (kinds.hpp) named by PairsConfig::count_kind (r08's DSMEM count,
// r08_dsmem_count.cu; like the partition, only where Kp <= PARTITION_MAX_KP, else the atomic count).
enum class Counter { Atomic, Partition, Kind };
const char* counter_name(Counter c);  // "atomic" | "partition" | "kind"
inline constexpr std::uint32_t PARTITION_MAX_KP = 4096;  // kp^2 / 2^14 slices <= 1024

inline constexpr std::uint32_t GPU_PAIRS_MAX_K = 16384;  // table <= 1 GiB; shared-memory V bank
inline constexpr std::uint32_t NTT_MAX_K = 4096;         // transform length <= 8192
inline constexpr int TC_TILE_COUNT = 3;                  // tensor-core tile shapes (PairsConfig::tile)
inline constexpr std::uint64_t ROUND_PAIRS_MAX = 0xFFFFFFFFULL;  // 32-bit counters stay exact

struct PairsConfig {
  // The shipped gpu-pairs: r03's mma.sync product. Gemm (r04) halves the max case's GPU_COMPUTE
  // but loading cuBLASLt costs a one-shot solve ~90 ms of EXTERNAL (H200, 2026-11-30): it is
  // `--solver gpu-pairs-gemm`, for many solves in one process.
  Combiner combiner = Combiner::TensorCore;
  // TcTile: 0 = 128x128, 1 = 64x128, 2 = 64x64. 64x128: the tile sweep's choice in all three H200
  // runs (2026-11-29 x2, 2026-11-30 tour: 188.1-190.4 us vs ~202 us for 128x128, max case).
  int tile = 1;
  // Pair starts per thread (atomic count) or per partition thread (a run of tiles of 16);
  // 0: auto (one wave over the whole GPU).
  std::uint32_t pairs_per_thread = 0;
  std::uint64_t round_pairs = ROUND_PAIRS_MAX;  // pairs per round (< 2^32); smaller to test the 64-bit path
  bool progress = true;                 // progress bar for runs predicted to last > 1 s
  Counter counter = Counter::Partition;
  // A pluggable count kind (kinds.hpp) by name ("dsmem": r08): it replaces `counter` where Kp <=
  // PARTITION_MAX_KP (effective_counter: Counter::Kind). "": the built-in `counter`.
  std::string count_kind;
  // Partition count: pairs per chunk (the buckets hold ~2 bytes per pair of a chunk, whatever N),
  // and the capacity of each slice's bucket (0: the chunk's share plus slack; tests force tiny
  // buckets to exercise the spill into the table).
  // 2^28: the chunk sweep's choice at N = 10^9 on the H200 (4.767 ms vs 4.879 ms at 2^27,
  // results/h200/2026-11-30-partition-dev); buckets ~570 MB at K = 2300.
  std::uint64_t chunk_pairs = 1ULL << 28;
  std::uint32_t bucket_cap = 0;
  // Threads per partition block: 256 or 512 (1024 per SM either way); 128 and 256 with r16's kernel (variant 4,
  // <= 256 slices: slices_per_sm = 1) are session 10's sweep points. Other values mean 512.
  int partition_threads = 512;
  // GEMM combiner + partition count, all pairs in one chunk on one device: the histograms write
  // the product's planes (no table). Off: the table, then a slicing pass (the multi-GPU path).
  bool fuse = true;
  // r38 (r38_dependent_combine.cpp): with a fused count and a combine kind on the TMA kernel (wgmma.tma = 1), the
  // histograms write the answers' first terms and let the next kernel launch as they start, and the combine kind's
  // kernel is launched as their programmatic dependent: its prologue overlaps their tail, and it waits for their end
  // before it reads the planes. Without a fused count (several chunks or rounds) the combine launches as before.
  // Refused (InputError) without a combine kind or with wgmma.tma = 0.
  bool combine_dependent = false;
  // A diagnostic (`scale hopper --trace-csv`): the skewed combine's TMA kernel (4 warpgroups) records each
  // block's clocks (WgmmaCombineArgs::d_trace); PairsDevice::combine_trace reads the last solve's.
  bool trace_combine = false;
  // A diagnostic (`scale hopper --trace-csv`): the lean partition kernel and the fused histograms record each block's
  // entry and end on the global timer, and its SM (PartitionArgs::d_trace; one fused chunk only); PairsDevice::count_trace
  // reads the last solve's.
  bool trace_count = false;
  // Combiner::Gemm: false runs plane 0 on joseki's mma.sync kernel as well (what happens when
  // cuBLASLt cannot be loaded; tests use it to reach that path).
  bool use_cublaslt = true;
  int gemm_algo = 0;  // cuBLASLt heuristic's suggestion to use (0: its first; the bench sweeps them)
  // Keep the GEMM's product G in the L2's persisting part (an access-policy window on the stream,
  // the set-aside sized to G while the solve's device object lives) so the reduction reads it there.
  // Off: no gain at the max case, and the set-aside slowed N = 10^9 by 2% (H200, 2026-11-30).
  bool persist_g = false;
  // r05 (r05_whole_graph.cpp): PairsDevice::enqueue_solve replays the whole solve (count and combine,
  // both streams, every kernel, cuBLASLt's included) as one CUDA graph, captured at the first solve
  // that starts from a clean state. Off: the kernels are launched one by one (r01..r04).
  bool graph = false;
  // r06 (r06_gemm_panels.cpp): the GEMM combine in this many panels of G's rows (multiples of 128),
  // each panel's masked column sum on a second stream beside the next panel's GEMM. 1: r04's one GEMM.
  int gemm_panels = 1;
  // r07: pairs per thread and tile of the partition kernel (0: 16, or 18 on a short run; 20 or 24:
  // larger tiles, the per-tile scan, reservations and barriers shared by 1.25x / 1.5x the pairs).
  int partition_tile = 0;
  // r16: the lean partition kernel (r16_lean_count.cu: the same work in fewer instructions per pair):
  // 0 r03's kernel, 1 lean, 2 lean with a full tile's scatter positions gathered first, 3 that with the
  // write-out of a tile overlapped with the next tile's generation, 4 lean with one slice per thread in the
  // scan (PartitionArgs::lean); 5 (r20) 4 with a full tile's write-out unrolled, in blocks of 256 only; 6 (r21)
  // 5 without the barrier that closes a tile; 7 (r22) 6 with 4's write-out loop; 8 (r23) 7 with the next
  // tile's given values prefetched; 9 (r24) 4 with 8's prefetch; 10 (r28) 8 with a tile of given values on
  // the full tile's path; 11 (r30) 8 with the write-out in pairs of entries (one 32-bit store for two; every
  // slice's run padded to an even length with a hole the histograms skip); 12 (r31) 11 in groups of four
  // entries (one 64-bit store for four; up to three holes a run); 13 (r37) 12 with each pair counted at its
  // rotated cell (a, (b - a) mod K), so that the table and the planes hold the skewed combine's operand P; only with
  // a combine kind that reads the planes skewed (wgmma_skew; others are refused: InputError); 14 (r42) 13 with 10's
  // tiles of given values on the full tile's path (the same refusal). Tiles of 26 (partition_tile) for 13 and 14 only.
  int partition_lean = 0;
  // Session 10's sweep (pairs.sweep.slices_per_sm): histogram blocks per SM, i.e. how many slices the
  // table is cut into (plan_slices_spread: 1 -> ~1 slice a SM, up to 2^16 cells, one block's shared
  // memory). 0: plan_slices' rule (slices of <= 2^14 cells, 3 a SM on the H200 at K = 2300: 395).
  // Values 1..8; others are refused (InputError), as is a spread whose slices do not fit this GPU.
  std::uint32_t slices_per_sm = 0;
  // Threads per histogram block (PartitionArgs::hist_threads): 512, or 1024 (a sweep point with one large
  // slice a SM); others are refused (InputError).
  int hist_threads = 512;
  // r29: 16-byte loads each histogram thread issues together before it counts them (PartitionArgs::hist_loads):
  // 1 (r03 .. r28: one load, its eight shared-memory atomics, the next load), 2 or 4; others are refused
  // (InputError).
  int hist_loads = 1;
  // r60: the partition's threads whose runs lie in the given values (pairs p < M - 1, the kernel's general path) take
  // shorter runs, spread over the threads the wave has free (pairs_math.hpp spread_given_runs); only with the lean
  // partition kernel (partition_lean > 0; otherwise refused: InputError). Off: every thread a run of the same length.
  bool spread_given = false;
  // r62: each partition block lets the fused histograms (its programmatic dependent) launch as it starts, so that their
  // blocks take SMs as the partition's leave them (PartitionArgs::trigger_dependents); the lean kernel only (else
  // refused: InputError). Off: they launch when the partition's last block has ended.
  bool count_trigger = false;
  // r63: each slice's bucket cursor in its own 128-byte line (PartitionArgs::cursor_stride 32); the lean kernel only
  // (else refused: InputError). Off: the cursors packed, 32 to a line.
  bool cursor_lines = false;
  // r64: the partition's runs in whole warps (pairs_math.hpp plan_runs): the given values' pairs in short runs over whole
  // warps, then the full runs, then the chunk's last pairs in short runs over whole warps, so that no warp holds a thread
  // on the kernel's general path beside full ones; where no such plan fits one wave, r60's spread (with spread_given) or
  // the plain layout. The lean kernel only (else refused: InputError).
  bool tail_runs = false;
  // r67: each fused histogram block reads its slice's previous maximum as it starts instead of after its counting
  // (FuseArgs::early_before). Fused counts only; elsewhere nothing reads it.
  bool hist_early_max = false;
  // r69: the dependent combine waits for a count of the fused histograms' ended blocks (FuseArgs::d_done,
  // CombinePlanes::d_done) instead of griddepcontrol.wait, which returns ~1.1-1.3 us after their last block ends (the
  // traces of r65). Needs combine_dependent and the combine kind wgmma_skew (else refused: InputError).
  bool combine_flags = false;
  // r08 (count_kind "dsmem"): blocks per cluster, 8 (portable) or 16 (non-portable: the table in fewer,
  // larger ranges); anything else is refused by the PairsDevice (InputError).
  std::uint32_t dsmem_cluster = 8;
  // A pluggable combine kind (kinds.hpp) by name, with Combiner::Gemm: it takes every byte plane of C
  // in place of cuBLASLt and mma.sync. "": the built-in combiner. A kind this GPU or build cannot run
  // makes the combine unavailable (it says why), never a silent fallback.
  // r09 ("wgmma", r09_wgmma_combine.cpp, kernel in sm90a/r09_wgmma_combine.cu): every plane on joseki's
  // own wgmma kernel (sm_90a), the masked column sum in its epilogue: no cuBLASLt, no G, no circ(V) in
  // memory. Its shape (`wgmma`, r09_wgmma_combine.hpp's WgmmaShape): the operand path (op Rs: the
  // circulant's fragments from registers, "rs"; Ss: from shared memory, "ss"), warpgroups per block (2 or
  // 4), bytes of b per stage (64 or 128), and the knobs of the later rungs:
  //   inflight   r10: 1 (WgmmaCombineArgs::inflight)
  //   pad_copies r11: 1 (WgmmaCombineArgs::pad_copies)
  //   stages     r12: 6, r15: 8 (WgmmaCombineArgs::stages)
  //   tma        r13: 1 (WgmmaCombineArgs::tma)
  // Default rs.wg4.bk64 (inflight 0, pad 0, stages 4, tma 0): the fastest exact shape in the mid-session
  // H200 calls (51.7 us alone at the max case). Note the 4 warpgroups: WgmmaShape's own default is 2.
  std::string combine_kind;
  WgmmaShape wgmma{WgmmaOperand::Rs, 4, 64, 0, 0, 4, 0};
};

// The counter a solve of p with c actually uses (Partition falls back to Atomic when K is too large).
Counter effective_counter(const Problem& p, const PairsConfig& c);

// Why this problem cannot be solved with this combiner, or "" when it can.
std::string pairs_precondition(const Problem& p, Combiner c);
// What a combiner needs of the GPU for K: mma.sync m16n8k32 (sm_80) for TensorCore and Gemm (their
// upper planes run on it) and the shared memory per block of its kernel at K (k = 0: the features
// alone). Where it is unmet, the gpu-pairs solvers fall back to the NTT combiner where that one runs
// and say so; a PairsDevice refuses it (never launches a guarded kernel or an impossible launch).
measure::Needs combiner_needs(Combiner c, std::uint32_t k = 0);

// Solves on GPU o.device. Throws GpuUnavailable (no GPU / CPU-only build), InputError (K above
// the combiner's limit), CudaError, ValidationError never (the harness validates).
SolveResult solve_gpu_pairs(const Problem& p, const SolveOptions& o, const PairsConfig& c);

// Auto choice of pairs_per_thread for `pairs` pairs on a GPU with `sms` multiprocessors.
std::uint32_t auto_pairs_per_thread(std::uint64_t pairs, int sms);

}  // namespace joseki::abc471g::pairs
