// r09 (issue 19): the gpu-pairs combine on wgmma (sm_90a) with the masked column sum in its epilogue:
// answer[k] += sum_j 2^shift(j) sum_{a,b < K} P_j[a][b] (1 - V[(a+k) mod K]) V[(b+k) mod K], P_j the
// byte planes of C as r04 lays them out (plane 0 = C & 127, plane j >= 1 = (C >> (7 + 8 (j-1))) & 255,
// each kp x kp bytes, row a, stride kp). The product never goes to memory. Kernels in
// sm90a/r09_wgmma_combine.cu (the design and the prediction at its top); the combine kind "wgmma"
// (kinds.hpp) that the ladder entry p09 names, in r09_wgmma_combine.cpp.
// Pure C++ (no CUDA header; a stream is CUstream_st* = cudaStream_t): the callers are g++-compiled,
// and a CPU-only build declares wgmma_combine_unavailable() too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "measure/needs.hpp"

struct CUstream_st;

namespace joseki::abc471g::pairs {

// How the kernel gets the V side of the product (the circulant, made from V in shared memory):
//   Rs: wgmma's A operand from registers (each thread assembles its fragment from V's bytes);
//   Ss: both operands from shared memory (the circulant's tile written there per stage; with tma 1, r35: the
//       circulant as a Hankel view, one array written once per block and read through descriptors alone).
enum class WgmmaOperand : int { Rs = 0, Ss = 1 };
// "rs" | "ss" (inline: the bench names shapes in builds without CUDA too).
inline const char* wgmma_operand_name(WgmmaOperand o) { return o == WgmmaOperand::Ss ? "ss" : "rs"; }

// One of the kernel's shapes (the bench and the tests run every one; an integration picks one).
struct WgmmaShape {
  WgmmaOperand op = WgmmaOperand::Rs;
  int warpgroups = 2;    // WgmmaCombineArgs::warpgroups
  int stage_bytes = 64;  // WgmmaCombineArgs::stage_bytes
  int inflight = 0;      // WgmmaCombineArgs::inflight (r10: 1)
  int pad_copies = 0;    // WgmmaCombineArgs::pad_copies (r11: 1; rs only)
  int stages = 4;        // WgmmaCombineArgs::stages (r12: 6; rs with inflight 1 only)
  int tma = 0;           // WgmmaCombineArgs::tma (r13: 1)
  int window_pad = 0;    // WgmmaCombineArgs::window_pad (r43: 1; the skewed combine only)
  int early_copies = 0;  // WgmmaCombineArgs::early_copies (r44: 1; tma 1 only)
  int early_rows = 0;    // WgmmaCombineArgs::early_rows (r45: 1; the skewed combine only)
  int segment_weight = 0;  // WgmmaCombineArgs::segment_weight (r46, r47: 8, 12; tma 1 only)
  int lean_prologue = 0;   // WgmmaCombineArgs::lean_prologue (r48: 1; tma 1, operand rs only)
  int v_image = 0;         // WgmmaCombineArgs::d_vimage from the combine kind (r49: 1; the skewed combine only)
  int skip_idle = 0;       // WgmmaCombineArgs::skip_idle (r51, r52: 1; the skewed combine only)
  int idle_discount = 0;   // WgmmaCombineArgs::idle_discount (r51: 1, r52: 2; with skip_idle only)
  int edge_fast = 0;       // WgmmaCombineArgs::edge_fast (r53: 1; the skewed combine only)
  int lean_split = 0;      // WgmmaCombineArgs::lean_split (r54: 1; tma 1 only)
  int ahead = 0;           // WgmmaCombineArgs::ahead (r56 .. r59: 4 .. 1; with lean_split only)
};
inline constexpr WgmmaShape WGMMA_SHAPES[] = {
    {WgmmaOperand::Rs, 2, 64, 0, 0},  {WgmmaOperand::Rs, 4, 64, 0, 0},  {WgmmaOperand::Ss, 2, 64, 0, 0},
    {WgmmaOperand::Ss, 4, 64, 0, 0},  {WgmmaOperand::Rs, 2, 128, 0, 0}, {WgmmaOperand::Rs, 4, 128, 0, 0},
    {WgmmaOperand::Ss, 2, 128, 0, 0}, {WgmmaOperand::Ss, 4, 128, 0, 0}, {WgmmaOperand::Rs, 2, 64, 1, 0},
    {WgmmaOperand::Rs, 4, 64, 1, 0},  {WgmmaOperand::Ss, 2, 64, 1, 0},  {WgmmaOperand::Ss, 4, 64, 1, 0},
    {WgmmaOperand::Rs, 2, 128, 1, 0}, {WgmmaOperand::Rs, 4, 128, 1, 0}, {WgmmaOperand::Ss, 2, 128, 1, 0},
    {WgmmaOperand::Ss, 4, 128, 1, 0}, {WgmmaOperand::Rs, 2, 64, 0, 1},  {WgmmaOperand::Rs, 4, 64, 0, 1},
    {WgmmaOperand::Rs, 2, 64, 1, 1},  {WgmmaOperand::Rs, 4, 64, 1, 1},  {WgmmaOperand::Rs, 2, 128, 1, 1},
    {WgmmaOperand::Rs, 4, 128, 1, 1}, {WgmmaOperand::Rs, 2, 64, 1, 1, 6}, {WgmmaOperand::Rs, 4, 64, 1, 1, 6},
    {WgmmaOperand::Rs, 4, 128, 1, 1, 6}, {WgmmaOperand::Rs, 2, 64, 1, 1, 6, 1}, {WgmmaOperand::Rs, 4, 64, 1, 1, 6, 1},
    {WgmmaOperand::Ss, 2, 64, 1, 1, 8, 1}, {WgmmaOperand::Ss, 4, 64, 1, 1, 8, 1},  // r35 (kp <= 8960 only)
    {WgmmaOperand::Ss, 4, 64, 1, 1, 10, 1}, {WgmmaOperand::Ss, 4, 64, 1, 1, 14, 1},  // 3, 7 groups in flight (r36: 7)
    {WgmmaOperand::Rs, 4, 64, 1, 1, 8, 1}};

struct WgmmaCombineArgs {
  const std::uint8_t* d_planes = nullptr;  // planes * kp * kp bytes (only rows and columns < K are read meaningfully)
  int planes = 1;                          // planes available
  int low_bits = 7;                        // plane j holds bits plane_shift(j, low_bits) .. (r04: 7)
  // The table's maximum (device; r04's fused count writes it): planes above its bits are skipped.
  // nullptr: every plane runs.
  const std::uint64_t* d_max = nullptr;
  const std::uint8_t* d_v = nullptr;  // V, K bytes of 0/1
  std::uint32_t k = 1, kp = 128;      // kp: a multiple of 128 >= K (padded_k)
  std::uint64_t* d_answer = nullptr;  // accumulated into (atomics): hold the first terms (or zeros) before
  // Diagnostic only (the bench tries it when a variant is not exact): the shared-memory descriptors'
  // leading and stride byte offsets exchanged (256 / 128 instead of 128 / 256).
  int desc_swap = 0;
  // Consumer warpgroups per block: 2 (128 rows of k per block, two blocks per SM) or 4 (256 rows, one
  // block per SM: half the L2 traffic of the planes, which every row tile reads again).
  int warpgroups = 2;
  // Bytes of b per pipeline stage: 64 (two k32 wgmmas per warpgroup between barriers) or 128 (four).
  int stage_bytes = 64;
  // wgmma groups left in flight across the next stage's barrier: 0 (r09: wait_group 0 after every stage,
  // the tensor cores idle while the warps pass the barrier and build the next fragments) or 1 (r10: the
  // copies run one stage less ahead so that the running group's slot is not overwritten).
  int inflight = 0;
  // rs's four copies of V2 (the A fragments' source): 0 (r09, r10) v_bytes(kp) apart, every copy's word in
  // the same bank, a fragment load 4-way conflicted; 1 (r11) 32 bytes more apart, conflict-free
  // (r09_wgmma_math.hpp, copy_stride). ss has no copies (no effect).
  int pad_copies = 0;
  // Stage slots: 4 (r09 .. r11; the copies 3 stages ahead, 2 with inflight) or 6 (r12, rs with inflight 1
  // only: the copies 4 stages ahead; ncu of r11 put long-scoreboard waits third among its stalls, and r11
  // without any load after the prologue ran 30 us against 36.6).
  int stages = 4;
  // 1 (r13): P's stages copied by the tensor memory accelerator (one thread, cp.async.bulk.tensor boxes
  // of 16 bytes x 128 rows, zeros past column K) and handed over through mbarriers (full / empty per
  // slot): no block barrier and no cp.async in the main loop. rs, inflight 1, pad_copies 1, stages 6 (or 8:
  // the copies six stages ahead, a bench shape) and stage_bytes 64 only; needs the driver's cuTensorMapEncodeTiled (a RunError says so when missing).
  // With operand ss (r35, r35_hankel_operand.cpp): the same pipeline with A read by the tensor cores from circ(V)'s
  // Hankel view in shared memory (no fragments); stages 8 (r35), 10 or 14 (3 or 7 commit groups in flight, r36: 7), kp <=
  // r09::hankel_max_kp(stages) only (8960, 8064, 6272). debug 2 (bench only): no copies after the prologue.
  int tma = 0;
  // r33 (r33_skewed_combine.cpp): the planes are skewed (P[a][(b - a) mod K] = C[a][b]) and the product's rows
  // are the `rows` x with V[x] = 0, ascending, at d_rows (device): half the tensor work at V's half ones, the
  // sum along (x - a) mod K in shared-memory windows. nullptr: r09 .. r15's product. Needs tma 1 and
  // stages 8 (r15's kernel; 4 warpgroups as r15, or 2: r34); rows = 0 launches nothing (no x: the sum is empty).
  const std::uint32_t* d_rows = nullptr;
  std::uint32_t rows = 0;
  // Diagnostics for the bench only (answers are then wrong by design, except with 1): 1 no proxy fence
  // between the copies and the tensor cores, 2 no loads after the prologue. 0: the kernel.
  int debug = 0;
  // r38 (r38_dependent_combine.cpp): 1 launches the kernel as a programmatic dependent of the previous kernel in its
  // stream (r38: the fused histograms, which let it launch as they start): its prologue (mbarriers, V's copies or H,
  // r33's windows) runs first, then griddepcontrol.wait, and only then does it read d_max, the planes and the answers.
  // tma 1 only. 0: a plain launch (the prologue after d_max is read, as r13 .. r37).
  int dependent = 0;
  // r69 (r69_flag_release.cpp; dependent only): instead of griddepcontrol.wait, thread 0 waits until d_done[0] (the
  // fused histograms' ended blocks, each adding 1 after its writes) reaches done_target, with acquire loads, then a proxy
  // fence before the copies; the last block to end sets d_done[0] and d_done[1] (the combine's ended blocks) to zero.
  // A wait of ~2 s traps (a solve whose histograms never end is an error, not a hang). nullptr: griddepcontrol.wait.
  std::uint32_t* d_done = nullptr;
  std::uint32_t done_target = 0;
  // r43 (r43_padded_windows.cpp): 1 sets r33's four window copies (one per quad lane q) WINDOW_PAD words further apart
  // than a window's 512 x warpgroups entries, so that the epilogue's shared atomics of one warp, whose rows' x differ
  // irregularly and whose lanes q shift the entry by -2 q, spread over the banks (an emulation of the max case's
  // rows: 3.25 -> 2.08 wavefronts an atomic). d_rows only (the skewed product). 0: copies WIN apart (r33 .. r42).
  int window_pad = 0;
  // r44 (r44_early_copies.cpp): 1 issues the first stages' copies of a block's next segment before the epilogue of the
  // one it ends, so that the copies' latency hides behind the epilogue instead of following it. tma 1 only. 0: each
  // segment's first copies after the previous segment's epilogue (r13 .. r43).
  int early_copies = 0;
  // r45 (r45_early_rows.cpp): 1 loads a segment's row indices before they are needed: the tile's first and last x (the
  // epilogue's window base and span) at the segment's start, so that the loop hides their latency, and the next
  // segment's rows x_lo, x_hi before this segment's epilogue. d_rows only. 0: each loaded where it is used (r33 .. r44).
  int early_rows = 0;
  // r46, r47 (r46_weighted_split.cpp): the units split among the blocks with each segment a block runs counted as
  // segment_weight stages more (r09_wgmma_math.hpp block_begin_weighted), so that the blocks that cross a tile's
  // boundary (two epilogues, two pipeline fills) take fewer stages than those that do not. 0 .. 64, tma 1 only.
  // 0: an even split of the units (r13 .. r45).
  int segment_weight = 0;
  // r48 (r48_lean_prologue.cpp): 1 writes V's four copies in shared memory in one pass from V's bytes (load_v_lean:
  // one block barrier less, no V2 pass, no `%` below 2 K) where the prologue wrote V2 byte by byte and then the shifted
  // copies from it (load_v). Session 18's trace put the prologue at ~2.1 us, on the critical path of nearly every block
  // of the dependent combine. tma 1 and operand rs only. 0: load_v (r13 .. r47).
  int lean_prologue = 0;
  // r49 (r49_v_image.cpp): V's four copies exactly as the prologue lays them out in shared memory (v_copies_image:
  // 3 copy_stride(kp, 1) + v_bytes(kp) bytes), made on the host from the problem's V when the device is made, so that
  // the prologue copies them in 16-byte loads instead of building them (load_v). tma 1, operand rs and pad_copies 1
  // only. nullptr: the prologue builds them (r13 .. r48).
  const std::uint8_t* d_vimage = nullptr;
  // r51, r52 (r51_idle_warpgroups.cpp, r52_lighter_idle_stages.cpp): 1 lets the warpgroups whose 64 rows all lie past the
  // `rows` rows (the last row tile's, at V's half ones two of four) skip their stages: no fragments and no wgmma, only
  // the wait for each stage's bytes and the slot's release. d_rows only. 0: they multiply rows of x = 0 whose sums the
  // epilogue drops (r33 .. r50).
  int skip_idle = 0;
  // r51, r52: with skip_idle, the split (block_begin_light) counts a stage of the last row tile as 8 - d x (its idle
  // warpgroups) eighths of a full one, d = idle_discount (0 .. 2; 0: r46's split, block_begin_weighted).
  int idle_discount = 0;
  // r53 (r53_edge_tile_fast.cpp): 1 puts the last column tile (a0 + 128 > K) on the epilogue's fast path too (the window
  // slots from the row's slot less a constant, no test an element), where it took the general path (a slot computed and
  // three tests an element): the planes' tensor map then ends at row K, so the columns >= K hold zeros, added into slots
  // inside the window. d_rows only. 0: the general path (r33 .. r52).
  int edge_fast = 0;
  // r54 (r54_lean_split.cpp): 1 has thread 0 alone find the block's range of units after griddepcontrol.wait, in 32-bit
  // arithmetic (r09_wgmma_math.hpp block_begin32), and hand it to the block through shared memory; every thread then
  // finds each segment in 32-bit arithmetic (segment_at32). Used when every product of the split fits 32 bits
  // (range_fits32), else the launch runs r53's kernel. The skewed product (d_rows) with tma 1 and 4 warpgroups only.
  // 0: every thread finds them with 64-bit divisions (r13 .. r53).
  int lean_split = 0;
  // r56 .. r59 (r56_slack_three.cpp .. r59_slack_six.cpp): the stages the TMA kernel copies ahead of the one it computes,
  // 1 .. stages - 2 (0: stages - 2, six of eight). Thread 0 (warpgroup 0) issues stage r + ahead's copy at stage r and
  // first waits until every warpgroup has released that slot's previous stage, r + ahead - stages; with six ahead that
  // is stage r - 2, which a warpgroup releases in stage r - 1, so warpgroup 0 runs at most one stage ahead of the
  // slowest. Fewer ahead leave it stages - 1 - ahead stages of slack, the copies less time to land. Read by r54's
  // kernel (lean_split) only: where the split does not fit 32 bits (range_fits32) the launch falls back to r53's
  // kernel, which copies stages - 2 ahead whatever this says (exact either way; no measured case falls back). Not with
  // early_copies (r44's path with a shorter lead is not built into any rung or test: refused).
  int ahead = 0;
  // Diagnostic (`scale hopper --trace-csv`; the skewed TMA kernel with 4 warpgroups only): when non-null, thread 0 of each block b <
  // trace_blocks writes COMBINE_TRACE_SLOTS words at d_trace + b * COMBINE_TRACE_SLOTS (r09_wgmma_math.hpp
  // CombineTrace: the block's entry and end on the global timer, its SM clocks at the prologue's end, after the wait
  // for the previous kernel, summed over its segments' main loops and epilogues, its SM, segments and stages).
  std::uint64_t* d_trace = nullptr;
  std::uint32_t trace_blocks = 0;
};

// r49: V's four copies (V2 = V twice over, then V2 shifted by 1, 2, 3 bytes, copy_stride(kp, 1) bytes apart) as the
// TMA kernel's prologue lays them out in shared memory: byte i of copy c is V[(i + c) mod K] (the bytes between the
// copies zero). v holds V's K bytes (0 or 1); kp a multiple of 128 >= K.
std::vector<std::uint8_t> v_copies_image(const std::vector<std::uint8_t>& v, std::uint32_t kp);

// Copies a shape's knobs (warpgroups, stage_bytes, inflight, pad_copies, stages, tma) into a; the operand
// (shape.op) is launch_wgmma_combine's own argument. The one place the shape meets the arguments.
inline void set_wgmma_shape(WgmmaCombineArgs& a, const WgmmaShape& shape) {
  a.warpgroups = shape.warpgroups;
  a.stage_bytes = shape.stage_bytes;
  a.inflight = shape.inflight;
  a.pad_copies = shape.pad_copies;
  a.stages = shape.stages;
  a.tma = shape.tma;
  a.window_pad = shape.window_pad;
  a.early_copies = shape.early_copies;
  a.early_rows = shape.early_rows;
  a.segment_weight = shape.segment_weight;
  a.lean_prologue = shape.lean_prologue;
  a.skip_idle = shape.skip_idle;
  a.idle_discount = shape.idle_discount;
  a.edge_fast = shape.edge_fast;
  a.lean_split = shape.lean_split;
  a.ahead = shape.ahead;
}

// What r09 needs of the GPU at this kp: wgmma (cc 9.x, sm_90a code) and its shared memory per block, the
// largest of any kernel shape at kp (prepare_wgmma_combine sets the limit of every shape, so a device
// whose blocks cannot take the largest one cannot run any): ss.wg4.bk128 at every kp (196.8 KiB at K = 2300,
// 224.3 KiB at kp 16384: within the H200's 227 KiB), above the TMA kernel's eight slots (r15: 85.1 KiB at
// K = 2300) and ss.wg2.bk64 (68.8 KiB, the need stated before 2026-12-02).
measure::Needs wgmma_combine_needs(std::uint32_t kp);
// Why r09 cannot run on `device` here ("" when it can): no GPU, no CUDA, no sm_90a code, unmet needs.
std::string wgmma_combine_unavailable(std::uint32_t kp, int device);

// True when this build holds the sm_90a kernels (90 among the build's architectures).
bool wgmma_combine_built();
// Dynamic shared memory per block that launch_wgmma_combine requests for this (valid) shape at kp (bytes):
// r09_wgmma_math.hpp's smem_bytes / tma_smem_bytes for the kernel the launcher picks. Host code (any build).
std::size_t wgmma_combine_smem_bytes(std::uint32_t kp, const WgmmaShape& shape);
// Throws std::invalid_argument naming the first bad knob and its value (then every argument) when the
// launcher would refuse a (k, kp, planes, pointers, operand, warpgroups, stage_bytes, inflight, pad_copies,
// tma, stages: their combinations below); returns when it accepts them. Host code (any build);
// launch_wgmma_combine calls it first.
void check_wgmma_combine_args(const WgmmaCombineArgs& a, WgmmaOperand op);
// Sets the kernels' shared-memory limit, every variant (call once per device before launching at this kp).
void prepare_wgmma_combine(std::uint32_t kp);
// Enqueues the combine on s (one kernel; planes the maximum does not need cost nothing). Launch checked;
// bad arguments: check_wgmma_combine_args's std::invalid_argument.
void launch_wgmma_combine(const WgmmaCombineArgs& a, WgmmaOperand op, CUstream_st* s);

}  // namespace joseki::abc471g::pairs
