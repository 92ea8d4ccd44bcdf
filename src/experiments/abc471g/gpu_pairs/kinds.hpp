// Pluggable kinds of the gpu-pairs solve: a rung that brings a new KIND of count or combine kernel
// (not a new configuration of the built-in ones) defines, in its own rung file, the kernel and a
// CountKind or CombineKind object registered with a static registrar; its ladder entry names the kind
// (PairsConfig::count_kind / combine_kind, set by the entry's configure). PairsDevice (pipeline.cpp)
// calls the kind's stage at its seams and never names a kind: r08's DSMEM count (r08_dsmem_count.cu)
// and r09's wgmma combine (r09_wgmma_combine.cpp) are plugged in this way, and so is the test-only
// tests/rungs/pairs_t01_warp_atomic.cu (docs/ABC471G_SCALE.md, "Adding a rung").
//
// A stage's enqueue_* calls only enqueue work on the stream they are given (no host synchronisation, no
// allocation): PairsDevice runs them inside enqueue_count / enqueue_combine, which r05's CUDA graph
// captures, and the harness times them with events.
// Pure C++ (compiled by g++ and nvcc; no CUDA header): streams are CUstream_st* (= cudaStream_t).
// The built-in kinds stay inside pipeline.cpp: counts Atomic and Partition, combiners Ntt, TensorCore
// and Gemm (cuBLASLt).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "experiments/abc471g/problem.hpp"
#include "measure/needs.hpp"

struct CUstream_st;

namespace joseki::abc471g::pairs {

struct PairsConfig;  // pipeline.hpp
struct CountArgs;    // kernels.hpp: one round of pairs, the 32-bit table

// What a kind's stage is given when a PairsDevice is made (valid for the device's lifetime).
struct StageContext {
  const Problem* p = nullptr;
  const PairsConfig* cfg = nullptr;  // the device's configuration (the kind's own knobs are read there)
  int device = 0;
  std::uint32_t kp = 128;            // padded K: the table is kp x kp, row stride kp
  std::uint64_t begin = 0, end = 0;  // the pair starts this device counts
  std::uint64_t round = 1;           // pairs of a full round (<= PairsConfig::round_pairs, >= 1)
};

// ---- count kinds ------------------------------------------------------------------------------
// A count kind's per-device part: it counts every round's pairs into the 32-bit table (CountArgs::d_table,
// kp x kp + 2 words for the maximum; the device flushes wide tables and slices it for the combine).
class CountStage {
 public:
  virtual ~CountStage() = default;
  // Set by the stage's maker; the device reports them (chunks(), chunk_pairs(), pairs_per_thread(),
  // bucket_cap()). pairs_per_thread 0: the device's own choice (one wave of the atomic count).
  std::uint64_t chunk_pairs = 1;
  std::size_t chunks_per_round = 1;
  std::uint32_t pairs_per_thread = 0;
  std::uint32_t bucket_cap = 0;
  // After the device zeroed the table (every count): zero the stage's own state (cursors).
  virtual void enqueue_zero(CUstream_st* s) { (void)s; }
  // One round: pairs [a.begin, a.end) into a.d_table (a.pairs_per_thread: pairs_per_thread or the device's).
  virtual void enqueue_round(const CountArgs& a, CUstream_st* s) = 0;
  // Fill every buffer of the stage with 0xA5 (before a validation run).
  virtual void poison(CUstream_st* s) { (void)s; }
  // The explanation's clause ("one L2 atomic per pair"; r08: "routed by row range into ...").
  virtual std::string explanation() const = 0;
  // Integer facts for the records' `extra` (r08: dsmem_rows, dsmem_ranges, ...).
  virtual std::vector<std::pair<std::string, std::uint64_t>> extras() const { return {}; }
  // The bench's split of the count into its kernels (one round of one chunk; a's range is the device's).
  // Default: the kind has no phases (RunError).
  virtual void enqueue_phase(const CountArgs& a, int phase, bool variant, CUstream_st* s);
};

struct CountKind {
  std::string name;   // PairsConfig::count_kind and the records' "counter" ("dsmem")
  std::string what;   // in messages: "the DSMEM count (r08)"
  measure::Needs needs;  // of the GPU (unmet: the device throws GpuUnavailable with the reason)
  // Makes the stage; throws InputError (a bad knob, no layout for K) or GpuUnavailable.
  std::unique_ptr<CountStage> (*make)(const StageContext& ctx) = nullptr;
};

// ---- combine kinds ----------------------------------------------------------------------------
// The byte planes of C as the Gemm combiner lays them out (plane 0 = C & 127, plane j >= 1 =
// (C >> (7 + 8 (j-1))) & 255, each kp x kp), and where the answer goes. The answer already holds the
// first terms V[(A_0 + k) mod K] when the combine kind is called.
struct CombinePlanes {
  const std::uint8_t* d_planes = nullptr;
  int planes = 1;
  int low_bits = 7;
  const std::uint64_t* d_max = nullptr;  // the table's maximum (planes above its bits may be skipped)
  const std::uint8_t* d_v = nullptr;
  std::uint32_t k = 1, kp = 128;
  std::uint64_t* d_answer = nullptr;     // accumulated into
  // r38: launch as a programmatic dependent of the previous kernel in the stream (the fused histograms, which wrote
  // the first terms and let it launch as they started); a kind whose kernel cannot wait for it refuses it.
  bool dependent = false;
  // The combine kernel's trace (a diagnostic; WgmmaCombineArgs::d_trace): a kind that has none leaves it untouched.
  std::uint64_t* d_trace = nullptr;
  std::uint32_t trace_blocks = 0;
  // r69 (PairsConfig::combine_flags; dependent only): the fused histograms count their blocks' ends at d_done[0]; the
  // combine waits there for done_target (their blocks) instead of griddepcontrol.wait, and its last block sets d_done[0]
  // and d_done[1] (its own count of ended blocks) back to zero for the next solve. A kind that launches nothing sets
  // both to zero itself; a kind whose kernel cannot wait so refuses it.
  std::uint32_t* d_done = nullptr;
  std::uint32_t done_target = 0;
};

// A combine kind's per-device part: it takes the planes in place of the built-in products (mma.sync,
// cuBLASLt) of a Combiner::Gemm solve; the fused count still writes the planes.
class CombineStage {
 public:
  virtual ~CombineStage() = default;
  virtual void enqueue(const CombinePlanes& a, CUstream_st* s) = 0;
  virtual std::string description() const = 0;  // the explanation's "combined by ..." clause
};

struct CombineKind {
  std::string name;  // PairsConfig::combine_kind ("wgmma")
  std::string what;  // in messages: "r09's wgmma combine"
  measure::Needs needs;  // of the GPU (core_ladder adds them to the rung's; the smem a K needs: `unavailable`)
  // "" when it runs on this device at kp, else why (no such code in this build, unmet needs): the
  // device then counts only, and its combine throws GpuUnavailable("gpu-pairs: <what> <why>").
  std::string (*unavailable)(std::uint32_t kp, int device) = nullptr;
  std::unique_ptr<CombineStage> (*make)(const StageContext& ctx) = nullptr;
  // true: the kind reads the planes skewed, row a rotated left by a (P[a][(b - a) mod K] = C[a][b], r33); the
  // count's histograms (or the slicing pass) then write them so.
  bool skewed_planes = false;
};

// ---- registration (a static registrar in the kind's rung file) --------------------------------
struct CountKindRegistrar {
  explicit CountKindRegistrar(const CountKind& k);
};
struct CombineKindRegistrar {
  explicit CombineKindRegistrar(const CombineKind& k);
};
// nullptr when no kind of that name is registered in this build.
const CountKind* find_count_kind(const std::string& name);
const CombineKind* find_combine_kind(const std::string& name);
std::vector<std::string> count_kind_names();
std::vector<std::string> combine_kind_names();

}  // namespace joseki::abc471g::pairs
