// The device side of a gpu-pairs solve, for host code compiled with the CUDA runtime
// (include only under #ifdef JOSEKI_HAVE_CUDA). One object = one problem on one GPU: the given
// values and V uploaded, the count table(s), the combiner's scratch. The enqueue_* calls only
// enqueue work on the stream they are given, so the harness can time them with events.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/int8_gemm.hpp"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#include "experiments/abc471g/gpu_pairs/kinds.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g::pairs {

class PairsDevice {
 public:
  // Counts pair starts [begin, end) (default: all N - 1 pairs). The counter width follows the
  // total N - 1 (not the sub-range), so tables of several devices can be summed exactly.
  PairsDevice(const Problem& p, const PairsConfig& c, int device, std::uint64_t begin = 0,
              std::uint64_t end = ~0ULL);
  ~PairsDevice();
  PairsDevice(const PairsDevice&) = delete;
  PairsDevice& operator=(const PairsDevice&) = delete;
  bool persists_g() const { return m_persist; }  // G kept in the L2's persisting part (PairsConfig::persist_g)

  std::uint32_t kp() const { return m_kp; }
  bool wide() const { return m_wide; }
  std::size_t rounds() const { return m_rounds; }
  std::uint64_t pairs() const { return m_end - m_begin; }
  int device() const { return m_device; }
  std::uint32_t pairs_per_thread() const { return m_ppt; }
  Counter counter() const { return m_counter; }
  // The records' "counter": counter_name(counter()), or the count kind's name (Counter::Kind).
  std::string counter_label() const;
  const std::string& count_kind() const;  // "" unless Counter::Kind
  // The count kind's facts for the records (CountStage::extras); value by key, 0 when absent.
  std::vector<std::pair<std::string, std::uint64_t>> count_extras() const;
  std::uint64_t count_extra(const std::string& key) const;
  const std::string& combine_kind() const;  // "" unless a combine kind takes the planes
  const CountStage* count_stage() const { return m_count_stage.get(); }  // nullptr unless Counter::Kind
  std::size_t chunks() const { return m_chunks_per_round; }  // partition chunks per full round
  std::uint64_t chunk_pairs() const { return m_chunk; }
  const SlicePlan& slice_plan() const { return m_plan; }
  std::uint32_t bucket_cap() const { return m_cap; }
  bool fused() const { return m_fused; }  // the histograms write the planes (PairsConfig::fuse)
  bool gemm() const { return m_gemm != nullptr; }  // cuBLASLt loaded (Combiner::Gemm)
  const std::string& gemm_unavailable() const { return m_gemm_why; }
  double gemm_load_seconds() const { return m_gemm ? m_gemm->load_seconds() : 0.0; }
  int gemm_algo() const { return m_gemm ? m_gemm->algo() : -1; }
  int gemm_algos() const { return m_gemm ? m_gemm->algos() : 0; }
  std::string combine_description() const;

  void enqueue_zero(cudaStream_t s);
  void enqueue_round(std::size_t r, cudaStream_t s, bool generate_only = false);
  void enqueue_count(cudaStream_t s) {
    enqueue_zero(s);
    for (std::size_t r = 0; r < m_rounds; ++r) enqueue_round(r, s);
  }
  void enqueue_combine(cudaStream_t s);
  // A count kind's kernels one at a time, for the bench's split (one chunk, one round, a count kind;
  // RunError otherwise): CountStage::enqueue_phase. r08: phase 1 empties the buckets and routes the
  // pairs into them, phase 2 counts the buckets into the table through DSMEM and leaves them full (so
  // it can be timed again; the table accumulates); variant (the bench's A/Bs): phase 2 with debug call
  // 1's generic atom.add instead of red.shared::cluster, phase 1 ranking with __match_any_sync.
  void enqueue_count_phase(cudaStream_t s, int phase, bool variant = false);
  // The whole solve: count, then combine; with PairsConfig::graph as one CUDA graph launch
  // (r05_whole_graph.cpp), else kernel by kernel.
  void enqueue_solve(cudaStream_t s);
  // r05: kernel nodes of the captured graph (0: none captured yet), all nodes, captures made.
  int graph_kernel_nodes() const { return m_graph_kernels; }
  int graph_nodes() const { return m_graph_nodes; }
  int graph_captures() const { return m_graph_captures; }
  const std::string& graph_unavailable() const { return m_graph_why; }  // why the capture failed ("" when it did not)
  // r06: rows per panel of the GEMM combine (0: r04's single GEMM).
  std::uint32_t gemm_panel_rows() const { return m_panel_rows; }
  // Fills every output and scratch buffer with 0xA5 (before a validation run).
  void poison(cudaStream_t s);
  // The answers (synchronous copy on s).
  Answer download(cudaStream_t s) const;
  // PairsConfig::trace_combine: the last solve's combine trace, r09::COMBINE_TRACE_SLOTS words a block (blocks of a
  // wave, at most COMBINE_TRACE_BLOCKS; a block that did not run reads all zeros). Empty without the knob.
  std::vector<std::uint64_t> combine_trace(cudaStream_t s) const;
  static constexpr std::uint32_t COMBINE_TRACE_BLOCKS = 1024;
  // PairsConfig::trace_count: the last solve's count trace, COUNT_TRACE_PARTITION_WORDS words for each of
  // COUNT_TRACE_BLOCKS partition blocks, then COUNT_TRACE_HIST_WORDS for each histogram block (kernels.hpp; zeros where a
  // block did not run or no word was written: several chunks, or r03's kernel). Empty without the knob.
  std::vector<std::uint64_t> count_trace(cudaStream_t s) const;
  static constexpr std::uint32_t COUNT_TRACE_BLOCKS = 2048;
  // The counts (for tests), widened to 64 bits, row stride kp.
  std::vector<std::uint64_t> download_table(cudaStream_t s) const;

  // The table the combiner reads: kp*kp counters, 64-bit when wide(), else 32-bit.
  void* table() { return m_wide ? static_cast<void*>(m_t64.data()) : static_cast<void*>(m_t32.data()); }
  std::size_t table_entries() const { return static_cast<std::size_t>(m_kp) * m_kp; }
  std::uint32_t* t32() { return m_t32.data(); }

 private:
  const Problem& m_p;
  PairsConfig m_cfg;
  int m_device;
  std::uint32_t m_kp;
  std::uint64_t m_begin, m_end;
  bool m_wide;
  std::size_t m_rounds;
  std::uint32_t m_ppt;
  std::uint32_t m_a0;
  cuda::DeviceBuffer<std::uint32_t> m_b;
  cuda::DeviceBuffer<std::uint8_t> m_v;
  cuda::DeviceBuffer<std::uint32_t> m_t32;  // kp*kp counters + 2 words: the table maximum (u64)
  cuda::DeviceBuffer<std::uint64_t> m_t64;
  cuda::DeviceBuffer<std::uint64_t> m_answer;
  cuda::DeviceBuffer<std::uint64_t> m_trace;  // PairsConfig::trace_combine only
  cuda::DeviceBuffer<std::uint64_t> m_count_trace;  // PairsConfig::trace_count only
  // partition count
  Counter m_counter = Counter::Atomic;
  std::uint64_t m_chunk = 1;
  std::size_t m_chunks_per_round = 1;
  std::uint64_t m_resident = 1;  // partition threads resident at once
  // Pair starts per partition thread for a chunk of `pairs`: one wave of resident threads, unless
  // PairsConfig::pairs_per_thread says otherwise (tests use it for runs of many tiles on small N).
  std::uint64_t partition_run(std::uint64_t pairs) const {
    if (m_cfg.pairs_per_thread) return m_cfg.pairs_per_thread;
    return pairs == 0 ? 1 : (pairs + m_resident - 1) / m_resident;
  }
  std::uint32_t m_cap = 8;  // entries per slice's bucket
  SlicePlan m_plan;
  cuda::DeviceBuffer<std::uint16_t> m_buf;
  cuda::DeviceBuffer<std::uint32_t> m_cursor;
  std::uint32_t m_cursor_stride = 1;  // r63 (PairsConfig::cursor_lines): 32
  // A pluggable count kind (PairsConfig::count_kind; kinds.hpp): its stage does the rounds.
  StageContext m_ctx;
  const CountKind* m_count_kind = nullptr;
  std::unique_ptr<CountStage> m_count_stage;
  CountArgs round_args(std::size_t r);  // round r's pairs, the 32-bit table
  // tensor cores
  int m_slices = 1;
  int m_low_bits = 8;  // bits of plane 0
  cuda::DeviceBuffer<std::uint8_t> m_planes;
  // GEMM combiner (r04)
  std::unique_ptr<cuda::Int8Gemm> m_gemm;
  std::string m_gemm_why;  // why cuBLASLt is not used
  std::string m_combine_unmet;  // why this GPU cannot run the combiner ("" when it can): count only
  // A pluggable combine kind (PairsConfig::combine_kind, and it runs here): it takes every plane.
  const CombineKind* m_combine_kind = nullptr;
  std::uint32_t m_skew_stage = 0;  // r33: FuseArgs::skew_stage (prepare_partition_fused)
  // r37 (partition_lean 13, with the partition count): the partition counts each pair at its rotated cell, so the
  // table and the planes hold P already and nothing downstream rotates them again.
  bool m_cells_rotated = false;
  // r33: the histograms (or the slicing pass) write the planes skewed: a skewed combine kind after a count that
  // did not rotate the cells (r33's partition, or the atomic count that a large K falls back to).
  bool skew_writes() const { return m_combine_kind && m_combine_kind->skewed_planes && !m_cells_rotated; }
  std::unique_ptr<CombineStage> m_combine_stage;
  cuda::DeviceBuffer<std::int8_t> m_circ;    // circ(V), kp x kp
  cuda::DeviceBuffer<std::int32_t> m_g;      // G of plane 0, kp x kp
  cuda::DeviceBuffer<std::uint8_t> m_u2;     // 1 - V[i mod K], i < 2 kp
  std::unique_ptr<cuda::Stream> m_side;  // circ(V) beside the count or the slicing; the upper planes beside the GEMM
  std::unique_ptr<cuda::Event> m_fork, m_join, m_join2;
  bool m_first_pending = false;  // enqueue_first_terms ran (with the count); the combine waits for m_join
  // r38: the fused histograms wrote the first terms and let the combine launch as they started; the combine, the next
  // kernel of the stream, is their programmatic dependent (cleared by poison(): the answers no longer hold them)
  bool m_first_in_count = false;
  bool m_prep_pending = false;  // enqueue_prep ran (with the count); the combine waits for m_join
  // forked: m_fork was recorded on s already (at the start of the count).
  void enqueue_prep(cudaStream_t s, bool forked = false);
  void enqueue_first_terms();  // a combine kind's first terms on the side stream, from the count's fork
  // L2 persistence for G: the stream's access-policy window on (GEMM, reduction) or off.
  bool m_persist = false;
  std::size_t m_persist_before = 0;
  cudaAccessPolicyWindow m_window{};
  void set_g_window(cudaStream_t s, bool on);
  void setup_g_persistence(int device);
  bool m_fused = false;
  bool m_table_clean = false;  // the table, the buckets' cursors are zero (kept so by the fused count)
  cuda::DeviceBuffer<std::uint32_t> m_slice_max;
  cuda::DeviceBuffer<std::uint32_t> m_sync;  // r69 (PairsConfig::combine_flags): ended histogram and combine blocks
  // r05: the whole solve as one CUDA graph (PairsConfig::graph; r05_whole_graph.cpp)
  struct Graph;
  std::shared_ptr<Graph> m_graph;  // shared_ptr: Graph is incomplete here (its deleter is captured where it is made)
  int m_graph_kernels = 0, m_graph_nodes = 0, m_graph_captures = 0;
  std::string m_graph_why;  // the capture failed: why (every solve then runs kernel by kernel)
  void capture_graph();
  // r06: the GEMM in panels of G's rows (PairsConfig::gemm_panels; r06_gemm_panels.cpp)
  std::uint32_t m_panel_rows = 0;  // rows per panel (0: one GEMM, r04)
  std::unique_ptr<cuda::Int8Gemm> m_gemm_panel, m_gemm_last;  // panel width, and the last panel's when narrower
  std::unique_ptr<cuda::Stream> m_red;  // the panels' column sums
  std::vector<std::unique_ptr<cuda::Event>> m_panel_done;
  std::unique_ptr<cuda::Event> m_red_join;
  void setup_gemm_panels();
  void enqueue_gemm_panels(cudaStream_t s);
  int gemm_panel_count() const;
  // NTT
  std::uint32_t m_l = 2, m_ntt_blocks = 1;
  std::uint64_t m_l_inv = 1;
  cuda::DeviceBuffer<std::uint64_t> m_tw, m_itw, m_partials, m_sum;
};

}  // namespace joseki::abc471g::pairs
