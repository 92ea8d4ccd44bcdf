// The reduction ladder's registry pinned rung by rung: ids, slugs, positions, predecessors, order,
// grid policy, default knobs, sweep spaces, tie bands, output contract, needs, preconditions, names
// and techniques exactly as they were when each rung was declared in a hand-written table (main at
// 0fe1adf), so that generating the registry from rungs.def changed none of them.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "experiments/reduce/registry.hpp"

using namespace joseki;
using namespace joseki::reduce;

namespace {

std::string ints(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::int64_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return "[" + s + "]";
}

// One line per rung: every field of the registry's entry (functions: whether there is one).
std::string fingerprint(const Rung& r) {
  std::ostringstream o;
  o << r.id << " | " << r.slug << " | " << r.rung << " | prev " << (r.predecessor.empty() ? "-" : r.predecessor)
    << " | " << (r.is_gpu() ? "cuda" : "cpu") << " | grid " << static_cast<int>(r.grid) << " | knobs "
    << r.defaults.block << "," << r.defaults.blocks_per_sm << "," << r.defaults.unroll << "," << r.defaults.stages << ","
    << r.defaults.chunk_kib << "," << r.defaults.hint << " | tree " << r.tree << " | from "
    << (r.config_from.empty() ? "-" : r.config_from) << " | hinted " << r.hinted << " | swept " << r.swept;
  if (r.swept)
    o << " " << ints(r.space.hint) << ints(r.space.unroll) << ints(r.space.block) << ints(r.space.blocks_per_sm)
      << ints(r.space.stages) << ints(r.space.chunk_kib) << " tie " << r.tie_tolerance;
  o << " | output " << static_cast<int>(r.output) << " | cpu " << (r.cpu != nullptr) << " | needs " << r.needs.min_cc;
  for (measure::Feature f : r.needs.features) o << "," << measure::feature_name(f);
  o << " | " << r.preconditions << " | " << r.name << " | " << r.technique;
  return o.str();
}

// The registry of main at 0fe1adf (a hand-written table in registry.cpp), rung by rung; r01c added 2026-12-05.
const char* const kPinned = R"(cpu_one_core | cpu_one_core | 0 | prev - | cpu | grid 0 | knobs 256,0,1,0,0,0 | tree 0 | from - | hinted 0 | swept 0 | output 0 | cpu 1 | needs 0 | none | CPU, one core | one core, auto-vectorised loop (SIMD chosen at run time)
cpu_all_cores | cpu_all_cores | 0 | prev cpu_one_core | cpu | grid 0 | knobs 256,0,1,0,0,0 | tree 0 | from - | hinted 0 | swept 0 | output 0 | cpu 1 | needs 0 | none | CPU, all cores | all cores (thread pool), auto-vectorised chunks
r00 | r00_cub | 0 | prev - | cuda | grid 0 | knobs 256,0,1,0,0,0 | tree 0 | from - | hinted 0 | swept 0 | output 0 | cpu 0 | needs 0 | none | CUB DeviceReduce::Sum | cub::DeviceReduce::Sum (library baseline)
r01 | r01_atomic | 1 | prev cpu_one_core | cuda | grid 1 | knobs 256,0,1,0,0,0 | tree 0 | from - | hinted 0 | swept 0 | output 0 | cpu 0 | needs 0 | none | one atomicAdd per element | one global atomicAdd per element
r01b | r01b_atomic_opaque | 1 | prev r01_atomic | cuda | grid 1 | knobs 256,0,1,0,0,0 | tree 0 | from - | hinted 0 | swept 0 | output 0 | cpu 0 | needs 0 | none | one atomic per element, address opaque to the compiler | atomicAdd per element, address from memory (no warp aggregation)
r01c | r01c_atomic_match | 1 | prev r01b_atomic_opaque | cuda | grid 1 | knobs 256,0,1,0,0,0 | tree 0 | from - | hinted 0 | swept 0 | output 0 | cpu 0 | needs 0,redux.sync | block a multiple of 32; sm_80+ | one atomic per element, opaque address merged at run time | r01b + __match_any_sync groups, redux.sync sum, one atomicAdd a group
r02 | r02_shared_tree | 2 | prev r01_atomic | cuda | grid 1 | knobs 256,0,1,0,0,0 | tree 1 | from - | hinted 0 | swept 0 | output 0 | cpu 0 | needs 0 | block a power of two, 64..1024 | shared-memory tree | shared-memory tree, 1 element per thread
r03 | r03_coarsen | 3 | prev r02_shared_tree | cuda | grid 2 | knobs 256,0,1,0,0,0 | tree 1 | from - | hinted 0 | swept 1 [][][128,256,512,1024][1,2,4,8,16,32][][] tie 0.02 | output 0 | cpu 0 | needs 0 | block a power of two, 64..1024 | thread coarsening | grid-stride register sums + shared tree
r04 | r04_warp_shuffle | 4 | prev r03_coarsen | cuda | grid 2 | knobs 256,0,1,0,0,0 | tree 0 | from r03_coarsen | hinted 0 | swept 0 | output 0 | cpu 0 | needs 0 | block a multiple of 32, up to 1024 | warp shuffle | grid-stride + warp shuffles, 1 barrier
r04b | r04b_warp_redux | 4 | prev r04_warp_shuffle | cuda | grid 2 | knobs 256,0,1,0,0,0 | tree 0 | from r03_coarsen | hinted 0 | swept 0 | output 0 | cpu 0 | needs 0,redux.sync | block a multiple of 32; sm_80+ | warp redux.sync | grid-stride + redux.sync warp sums
r05 | r05_vector_loads | 5 | prev r04b_warp_redux | cuda | grid 3 | knobs 256,0,4,0,0,0 | tree 0 | from r06_single_pass | hinted 0 | swept 0 | output 0 | cpu 0 | needs 0 | input 4-byte aligned (any 16-byte phase); block a multiple of 32; unroll 1, 2, 4 or 8 | 16-byte vector loads | uint4 loads, unroll in flight + memset
r06 | r06_single_pass | 6 | prev r05_vector_loads | cuda | grid 3 | knobs 256,0,4,0,0,0 | tree 0 | from - | hinted 0 | swept 1 [][1,2,4,8][256,512,1024][1,2,4,8][][] tie 0.01 | output 0 | cpu 0 | needs 0 | input 4-byte aligned (any 16-byte phase); block a multiple of 32; unroll 1, 2, 4 or 8 | one launch end to end | r05 + last-block-done finish: one launch, no memset
r07 | r07_load_hints | 7 | prev r06_single_pass | cuda | grid 3 | knobs 256,0,4,0,0,0 | tree 0 | from - | hinted 1 | swept 1 [0,1,2][4][256,512,1024][1,2,4,8][][] tie 0.01 | output 0 | cpu 0 | needs 0,L2 cache-hint loads (createpolicy) | input 4-byte aligned (any 16-byte phase); block a multiple of 32; unroll 1, 2, 4 or 8; hint 0, 1 or 2; sm_80+ | Hopper load hints | r06 + cache hints (0: nc.L1::no_allocate.L2::256B, 1: nc.L1::no_allocate, 2: 1 + L2 evict_first policy)
r08 | r08_bulk_copy | 8 | prev r06_single_pass | cuda | grid 4 | knobs 256,2,1,4,16,0 | tree 0 | from - | hinted 0 | swept 1 [][][256][1,2,4][2,4,8][4,8,16] tie 0.01 | output 0 | cpu 0 | needs 0,cp.async.bulk | sm_90; chunk a multiple of 16 bytes; 2..16 stages; stages x chunk within the shared memory per block | bulk async copies (TMA) | cp.async.bulk into a shared-memory ring + mbarriers, one launch
r09 | r09_packed_ticket | 9 | prev r06_single_pass | cuda | grid 3 | knobs 256,0,4,0,0,0 | tree 0 | from r06_single_pass | hinted 0 | swept 0 | output 0 | cpu 0 | needs 0 | input 4-byte aligned (any 16-byte phase); block a multiple of 32; unroll 1, 2, 4 or 8 | one-atomic finish | r06 with a packed 64-bit ticket: one atomic per block, no fences
r10 | r10_two_slot | 10 | prev r09_packed_ticket | cuda | grid 3 | knobs 256,0,4,0,0,0 | tree 0 | from r06_single_pass | hinted 0 | swept 0 | output 1 | cpu 0 | needs 0 | input 4-byte aligned (any 16-byte phase); block a multiple of 32; unroll 1, 2, 4 or 8; the result alternates between two words (contract in rung.hpp) | two-slot result, no finish | per-block atomics into a slot the previous launch zeroed; no memset, no tail
r11 | r11_bulk_slab | 11 | prev r08_bulk_copy | cuda | grid 4 | knobs 256,4,1,2,16,0 | tree 0 | from - | hinted 0 | swept 1 [][][256,512][1,2,4][2,4][8,16,32] tie 0.01 | output 0 | cpu 0 | needs 0,cp.async.bulk | sm_90; chunk a multiple of 16 bytes; 2..16 stages; stages x chunk within the shared memory per block | bulk copies over balanced slabs | r08's ring over one contiguous, balanced slab per block + r09's finish)";

}  // namespace

TEST(ReduceRegistry, EveryRungPinnedInLadderOrder) {
  std::string got;
  for (const Rung& r : rungs()) got += (got.empty() ? "" : "\n") + fingerprint(r);
  EXPECT_EQ(got, kPinned);
}

// Which GPU rungs have a workspace (their file's ops), and that a CUDA build has every launcher and
// a CPU-only build none (the rungs are listed all the same).
TEST(ReduceRegistry, LaunchersAndWorkspacesFollowTheBuild) {
  std::string with_workspace;
  int gpu = 0;
  for (const Rung& r : rungs()) {
    if (!r.is_gpu()) continue;
    ++gpu;
#ifdef JOSEKI_HAVE_CUDA
    EXPECT_NE(r.launch, nullptr) << r.slug;
    if (r.workspace) with_workspace += (with_workspace.empty() ? "" : ",") + r.id;
#else
    EXPECT_EQ(r.launch, nullptr) << r.slug;
    EXPECT_EQ(r.workspace, nullptr) << r.slug;
#endif
  }
  EXPECT_EQ(gpu, 15);
#ifdef JOSEKI_HAVE_CUDA
  EXPECT_EQ(with_workspace, "r00,r01b,r01c,r06,r07,r08,r09,r11");
#endif
}

// One file plus one line: every GPU rung of rungs.def has its file rNN_slug.cu (the records' variant
// + .cu) and every rung file of the folder has its line. A line without its file fails the CUDA
// build (rung.hpp declares GpuOps <id>_ops() from rungs.def, the registry calls it); this catches a
// file without its line, which would build and never run.
TEST(ReduceRegistry, EveryGpuRungIsOneFileAndOneLine) {
  namespace fs = std::filesystem;
  std::set<std::string> files, expected;
  for (const auto& e : fs::directory_iterator(fs::path(JOSEKI_SOURCE_DIR) / "src/experiments/reduce")) {
    const std::string name = e.path().filename().string();
    if (name.size() > 4 && name[0] == 'r' && std::isdigit(static_cast<unsigned char>(name[1])) &&
        e.path().extension() == ".cu")
      files.insert(name);
  }
  for (const Rung& r : rungs())
    if (r.is_gpu()) {
      expected.insert(r.slug + ".cu");
      EXPECT_EQ(r.slug.rfind(r.id + "_", 0), 0u) << r.slug << ": the slug starts with the id";
    }
  EXPECT_EQ(files, expected) << "each GPU rung: rNN_slug.cu + one JK_REDUCE_RUNG line in rungs.def";
}
