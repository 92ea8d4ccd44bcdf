// The reduction ladder's registry: one entry per rung (id, slug, display name, technique,
// predecessor, preconditions, knobs and their sweep, launcher). The CLI's lists, the tables,
// the sweeps and docs/REDUCE.md all come from here. Adding a GPU rung = one .cu file (kernels +
// `GpuOps <id>_ops()`) + one JK_REDUCE_RUNG entry in rungs.def (the metadata: a Rung's fields).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backend/cpu/cpu_info.hpp"
#include "experiments/reduce/rung.hpp"
#include "measure/needs.hpp"
#include "measure/ladder.hpp"
#include "measure/sweep.hpp"

namespace joseki::reduce {

enum class Backend { Cpu, Cuda };

// How the grid follows from the knobs, the size and the device.
enum class GridPolicy {
  None,        // CPU rungs and CUB (which sizes its own grid)
  PerElement,  // one thread per element: grid = ceil(n / block)
  Wave,        // grid-stride over 4-byte elements: grid = min(SMs x blocks_per_sm, ceil(n / block))
  WaveVector,  // tiles of block x unroll 16-byte words: grid = min(SMs x blocks_per_sm, tiles)
  WaveBulk,    // bulk chunks: grid = min(SMs x blocks_per_sm, chunks)
};

// The knobs a GPU rung may have; which ones it has follows from its GridPolicy.
struct Knobs {
  int block = 256;
  int blocks_per_sm = 0;  // 0: as many as fit by threads (max threads per SM / block)
  int unroll = 1;
  int stages = 0;
  int chunk_kib = 0;
  int hint = 0;  // r07's load hint (0, 1, 2)
};

// What a swept rung's sweep varies (the cartesian product; an empty axis stays at the rung's
// default). Points that cannot run are skipped with the reason; at a given size, points that
// make the same launch as an earlier point are skipped as duplicates (the harness).
struct SweepSpace {
  std::vector<std::int64_t> hint{}, unroll{}, block{}, blocks_per_sm{}, stages{}, chunk_kib{};
};

struct DeviceShape {
  int sm_count = 1;
  int max_threads_per_sm = 2048;
  std::int64_t smem_per_sm = 228 * 1024;
  std::int64_t smem_per_block_optin = 227 * 1024;
};

using CpuSumFn = std::uint32_t (*)(const std::uint32_t* p, std::size_t n, cpu::SimdLevel level);

struct Rung {
  std::string id{};           // "r05"
  std::string slug{};         // "r05_vector_loads": the records' variant and the CLI's name
  std::string name{};         // "16-byte vector loads"
  std::string technique{};    // one line for tables
  int rung = 0;             // position in the ladder (baselines: 0)
  std::string predecessor{};  // slug of the rung "x previous" compares with; "" none
  Backend backend = Backend::Cuda;
  GridPolicy grid = GridPolicy::None;
  Knobs defaults{};
  std::string preconditions{};
  measure::Needs needs{};     // what it needs of the GPU: unmet (measure::unmet) = skipped with the reason
  bool tree = false;            // the block sum is the shared tree: block must be a power of two >= 64
  std::string config_from{};      // slug whose (possibly swept) knobs this rung uses; "" its own
  bool hinted = false;          // has the `hint` knob (r07)
  bool swept = false;           // --sweep varies this rung's knobs over `space` and picks with tie_rule_for()
  SweepSpace space{};
  double tie_tolerance = 0.02;  // sweep results within this fraction of the fastest are ties
  Output output = Output::Word; // where the launch leaves the sum (rung.hpp)
  GpuLaunchFn launch = nullptr;      // null for CPU rungs and in a CPU-only build
  WorkspaceFn workspace = nullptr;   // null: no workspace
  CpuSumFn cpu = nullptr;            // CPU rungs only

  bool is_gpu() const { return backend == Backend::Cuda; }
};

const std::vector<Rung>& rungs();  // in ladder order

// A GPU rung from its rungs.def entry: id ("r05"), slug suffix ("vector_loads"), its file's ops and
// the metadata (a Rung with the other fields set). Sets id, slug (id_suffix), backend, launch and
// workspace, and the position from the id's digits unless the metadata gives one.
Rung gpu_rung(const char* id, const char* slug_suffix, const GpuOps& ops, Rung meta);

// One JK_REDUCE_RUNG(id, slug suffix, {metadata}) entry as a Rung, with the ops of the rung's file
// (`GpuOps <id>_ops()`, rung.hpp; none in a CPU-only build). registry.cpp expands rungs.def with
// it; a test rung (tests/rungs/) is one such line too.
#ifdef JOSEKI_HAVE_CUDA
#define JOSEKI_REDUCE_OPS(id_) id_##_ops()
#else
#define JOSEKI_REDUCE_OPS(id_) ::joseki::reduce::GpuOps{}
#endif
#define JOSEKI_REDUCE_RUNG(id_, slug_, ...) \
  ::joseki::reduce::gpu_rung(#id_, slug_, JOSEKI_REDUCE_OPS(id_), ::joseki::reduce::Rung __VA_ARGS__)

// The rung as the one ladder protocol's descriptor (measure/ladder.hpp): id, slug, technique,
// predecessor, position, backend ("cpu" | "cuda"), defaults (the knobs; CPU rungs: none, the
// harness adds threads and simd), baseline (r00_cub), output contract, config_from; impl holds the
// CpuSumFn (CPU rungs) or a pointer to the Rung (GPU rungs; `r` must outlive the spec). The
// harness's ladder_at() adds what depends on the size and the device (sweep, resolved knobs).
measure::RungSpec spec_of(const Rung& r);

// By slug ("r05_vector_loads"), id ("r05") or alias ("cub"); throws InputError listing the names.
const Rung& find_rung(const std::string& name);
// Comma-separated names (or several arguments); empty or "all": every rung. Ladder order, no duplicates.
std::vector<const Rung*> select_rungs(const std::vector<std::string>& names);

// The knobs that apply to this rung, as sweep/record axes (block, blocks_per_sm, unroll, ...).
measure::Point knobs_point(const Rung& r, const Knobs& k);
Knobs knobs_from_point(const Rung& r, const measure::Point& p);
// blocks_per_sm = 0 ("as many as fit by threads") made explicit for this device.
Knobs resolve_knobs(const Knobs& k, const DeviceShape& d);
// Why these knobs cannot run on this device (preconditions), or nullopt.
std::optional<std::string> check_knobs(const Rung& r, const Knobs& k, const DeviceShape& d);
// The launch (block, grid, unroll, shared memory) for n inputs. Requires check_knobs() == nullopt.
LaunchPlan plan_launch(const Rung& r, const Knobs& k, std::size_t n, const DeviceShape& d);

// The sweep of a swept rung at size n (skips carry their reason) and the tie rule that picks.
measure::Sweep sweep_for(const Rung& r, std::size_t n, const DeviceShape& d);
measure::TieRule tie_rule_for(const Rung& r);

}  // namespace joseki::reduce
