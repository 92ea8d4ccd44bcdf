// The probes' host-side arithmetic, pure and unit-tested: verdict rules, the pointer-chase
// permutation, bank-conflict degrees, plateau finding, occupancy thresholds and the
// reduction-ranking prediction of the cost-ratio profile.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace joseki::probes {

enum class Verdict { Holds, DoesNotHold, Depends };
const char* to_string(Verdict v);  // "holds" | "does not hold" | "depends"

// ---- divergence ----
// "Divergence cost = sum of the paths (not the max)": holds when t_div is within `tol` of
// t_a + t_b; does not hold when it is within `tol` of max(t_a, t_b); depends otherwise.
Verdict sum_of_paths_verdict(double t_div, double t_a, double t_b, double tol = 0.15);

// ---- coalescing ----
// 32-byte sectors one warp touches when its 32 lanes read 4-byte words `stride` words
// apart, the first at word `offset` (a 128-byte aligned base).
int sectors_per_request(std::int64_t stride_words, std::int64_t offset_words = 0);

// ---- shared-memory banks ----
// Conflict degree of a warp reading 4-byte words `stride` apart on 32 banks: gcd(stride, 32)
// (stride 0 is a broadcast: degree 1).
int bank_conflict_degree(std::int64_t stride);
// Largest relative deviation of cycles[i] / cycles(stride 1) from bank_conflict_degree(strides[i]).
double bank_model_deviation(const std::vector<std::int64_t>& strides, const std::vector<double>& cycles);

// ---- pointer chase ----
// A random cyclic permutation of 0..n-1 as a visiting order (Sattolo's algorithm): node
// order[k] points to order[(k+1) % n], and following the pointers visits every node once.
std::vector<std::uint32_t> chase_order(std::uint32_t n, std::uint64_t seed);
// next[] from a visiting order; true when next[] is one cycle through all n nodes.
std::vector<std::uint32_t> next_from_order(const std::vector<std::uint32_t>& order);
bool is_single_cycle(const std::vector<std::uint32_t>& next);

// ---- plateaus (caches) ----
struct Level {
  std::size_t first = 0, last = 0;  // indices into the (sorted) curve
  double value = 0;                 // median of the values in the level
};
// Splits a curve sorted by working set into levels: a new level starts where the value
// exceeds `jump` x the current level's first value.
std::vector<Level> find_levels(const std::vector<double>& values, double jump = 1.35);
// The plateaus of a latency curve (values over working sets `ws`, ascending), named:
// levels of one point that are not the last are transitions and left out; then by where a
// level lies (its geometric middle working set): starting at <= l1_bytes "L1", middle <=
// l2_bytes "L2" (a second one "L2 (second plateau)"), middle below 2 x l2_bytes (and not the
// last level) "L2 + HBM mix", beyond "HBM" and, for a further step up, "HBM + TLB misses".
struct NamedLevel {
  Level level;
  std::string name;
  double from_ws = 0, to_ws = 0;
};
std::vector<NamedLevel> name_latency_levels(const std::vector<double>& ws, const std::vector<double>& values,
                                            double l1_bytes, double l2_bytes, double jump = 1.35);

// ---- occupancy ----
// The smallest x (occupancy) whose y (a rate) reaches `fraction` of the best y; -1 if none.
double occupancy_needed(const std::vector<double>& occ, const std::vector<double>& rate, double fraction = 0.9);
// "Memory-bound kernels need >= 50 % occupancy": holds when the kernel without ILP needs
// >= 50 %; depends when that is so but a kernel with ILP gets there below 50 %; does not
// hold when even the kernel without ILP needs less than 50 %.
Verdict memory_occupancy_verdict(double needed_no_ilp, double needed_ilp);
// "Compute-bound kernels can do with 25 % given ILP": holds when the ILP kernel needs <= 25 %.
Verdict compute_occupancy_verdict(double needed_ilp);
// Shared memory of one SM and one kernel as the occupancy calculator counts it: a block
// takes round_up(static + dynamic + reserved, granularity) of the SM's per_sm bytes, and a
// kernel's dynamic size may not exceed optin_per_block - static (cudaFuncSetAttribute's limit).
struct SmemLimits {
  std::int64_t per_sm = 0;              // cudaDevAttrMaxSharedMemoryPerMultiprocessor (H200: 233472)
  std::int64_t optin_per_block = 0;     // cudaDevAttrMaxSharedMemoryPerBlockOptin (H200: 232448)
  std::int64_t reserved_per_block = 0;  // cudaDevAttrReservedSharedMemoryPerBlock (H200: 1024)
  std::int64_t static_per_block = 0;    // the kernel's __shared__ arrays (cudaFuncAttributes::sharedSizeBytes)
  std::int64_t granularity = 128;       // allocation unit
};
// The largest dynamic shared memory a launch of this kernel may ask for.
std::int64_t max_dynamic_smem(const SmemLimits& l);
// Dynamic shared memory per block that leaves room for exactly `blocks` blocks per SM (as far
// as shared memory goes), capped at max_dynamic_smem; 0 when even no dynamic memory leaves
// room for fewer blocks than that.
std::int64_t smem_for_blocks(const SmemLimits& l, int blocks);
// Blocks per SM that shared memory allows for a dynamic size (the occupancy calculator's
// shared-memory limit); 0 when the size is above max_dynamic_smem.
int blocks_by_smem(const SmemLimits& l, std::int64_t dynamic_bytes);

// ---- cost-ratio profile: predicted ranking of the reduction ladder's first three rungs ----
struct UnitCosts {
  double global_load_elem_s = 0;  // device-wide time per 4-byte element read (4 B / bandwidth)
  double atomic_same_op_s = 0;    // one same-address atomic from one lane (serialised at the L2)
  double barrier_s = 0;           // one __syncthreads of a 256-thread block
  double launch_s = 0;            // one kernel launch (GPU interval between back-to-back kernels)
  int sms = 0;
};
struct RungPrediction {
  std::string rung;   // "r01", "r02", "r03"
  double time_s = 0;  // predicted
  std::string arithmetic;
};
struct ReducePrediction {
  std::vector<RungPrediction> rungs;  // in rung order
  std::vector<std::string> ranking;   // fastest first
};
// n elements; r02 and r03 use `block` threads per block (a power of two), r03 one wave of
// `blocks_per_sm` blocks per SM.
ReducePrediction predict_reduce(const UnitCosts& c, double n, int block = 256, int blocks_per_sm = 8);
// A time for unit costs, which go below a nanosecond: "1.24 ps", "0.778 ns", else measure::format_time.
std::string unit_time(double seconds);
// Names sorted by time, fastest first (ties keep input order).
std::vector<std::string> ranking_of(const std::vector<std::pair<std::string, double>>& times);

}  // namespace joseki::probes
