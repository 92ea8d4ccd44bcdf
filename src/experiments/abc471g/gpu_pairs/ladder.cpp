#include "experiments/abc471g/gpu_pairs/ladder.hpp"

#include <algorithm>
#include <memory>

#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/gpu_pairs/kinds.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_math.hpp"
#include "measure/clock.hpp"
#include "measure/errors.hpp"
#include "measure/stopping.hpp"

namespace joseki::abc471g::pairs {

namespace {

// r35's Hankel view fits beside its ring up to kp = 8960 (r36's, 14 slots: 6272): every K a partition rung takes
// (r35, r36 need no precondition of their own; the wgmma kind refuses the shape above it with an InputError).
static_assert(PARTITION_MAX_KP <= r09::hankel_max_kp(14), "r35, r36 run wherever the partition count does");

std::string partition_precondition(const Problem& p) {
  if (std::string why = pairs_precondition(p, Combiner::TensorCore); !why.empty()) return why;
  if (padded_k(p.k) > PARTITION_MAX_KP)
    return "K = " + std::to_string(p.k) + ": more than " + std::to_string(PARTITION_MAX_KP / 128 * 128) +
           " padded columns, the table has more than 1024 slices of 2^14 cells";
  return "";
}

std::string cpu_pairs_precondition(const Problem& p) {
  for (const Solver& s : solver_registry())
    if (s.name == "cpu-pairs") return p.k > 8192 ? "K > 8192 (cpu-pairs' limit)" : "";
  return "solver cpu-pairs is not in this build";
}

// A rung that runs a registry solver on the CPU (the baseline): position 0, no predecessor.
PairsRung cpu_rung(std::string id, std::string slug, std::string name, std::string technique, std::string solver,
                   std::function<std::string(const Problem&)> precondition) {
  PairsRung r;
  r.id = std::move(id);
  r.slug = std::move(slug);
  r.name = std::move(name);
  r.technique = std::move(technique);
  r.cpu_solver = std::move(solver);
  r.precondition = std::move(precondition);
  return r;
}

// The configure of a rung on r09's wgmma combine kind (r09 .. r18): r05's graph, the kernel's knobs
// (PairsConfig::wgmma: WgmmaShape's inflight, pad_copies, stages, tma), r07's partition tiles where a rung takes
// them, the partition kernel (PairsConfig::partition_lean: r16's lean kernel from r16 on), the slices a SM and
// the histogram blocks (PairsConfig::slices_per_sm, hist_threads: r18) and the partition blocks (r19).
// (r20: partition_lean 5, the unrolled write-out; r21: 6, no barrier closing a tile; r22: 7, r21 with the
// loop write-out; r23: 8, r22 with the given values prefetched.)
std::function<void(PairsConfig&)> wgmma_knobs(int inflight, int pad_copies, int stages, int tma, int tile = 0,
                                              int lean = 0, std::uint32_t spread = 0, int hist = 512,
                                              int threads = 512) {
  return [=](PairsConfig& c) {
    c.graph = true;
    c.partition_tile = tile;
    c.partition_lean = lean;
    c.slices_per_sm = spread;
    c.hist_threads = hist;
    c.partition_threads = threads;
    c.wgmma.inflight = inflight;
    c.wgmma.pad_copies = pad_copies;
    c.wgmma.stages = stages;
    c.wgmma.tma = tma;
  };
}

// r25 - r28: a rung's knobs with chunks of up to 2^30 pairs (N = 10^9 in one chunk) instead of 2^28.
std::function<void(PairsConfig&)> in_one_chunk(std::function<void(PairsConfig&)> knobs) {
  return [knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.chunk_pairs = 1ULL << 30;
  };
}

// r34: a rung's knobs with the wgmma combine in blocks of `wgs` warpgroups (PairsConfig::wgmma.warpgroups).
std::function<void(PairsConfig&)> with_warpgroups(int wgs, std::function<void(PairsConfig&)> knobs) {
  return [wgs, knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.wgmma.warpgroups = wgs;
  };
}

// r35: a rung's knobs with the wgmma combine's A operand from `op` (ss with tma 1: the Hankel view).
std::function<void(PairsConfig&)> with_operand(WgmmaOperand op, std::function<void(PairsConfig&)> knobs) {
  return [op, knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.wgmma.op = op;
  };
}

// r38 .. r42: a rung's knobs with the combine launched as the histograms' programmatic dependent
// (PairsConfig::combine_dependent).
std::function<void(PairsConfig&)> with_dependent_combine(std::function<void(PairsConfig&)> knobs) {
  return [knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.combine_dependent = true;
  };
}

// r43 .. r45: a rung's knobs with the skewed combine's window copies padded apart (WgmmaShape::window_pad), the next
// segment's copies issued before the epilogue (WgmmaShape::early_copies) and a segment's rows loaded early
// (WgmmaShape::early_rows).
std::function<void(PairsConfig&)> with_combine_epilogue(int window_pad, int early_copies,
                                                        std::function<void(PairsConfig&)> knobs, int early_rows = 0) {
  return [=, knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.wgmma.window_pad = window_pad;
    c.wgmma.early_copies = early_copies;
    c.wgmma.early_rows = early_rows;
  };
}

// r46, r47, r50: a rung's knobs with the combine's units split among its blocks by a segment's weight (WgmmaShape::segment_weight).
std::function<void(PairsConfig&)> with_segment_weight(int weight, std::function<void(PairsConfig&)> knobs) {
  return [weight, knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.wgmma.segment_weight = weight;
  };
}

// r48: a rung's knobs with the combine's lean prologue (WgmmaShape::lean_prologue).
std::function<void(PairsConfig&)> with_lean_prologue(std::function<void(PairsConfig&)> knobs) {
  return [knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.wgmma.lean_prologue = 1;
  };
}

// r49: a rung's knobs with V's copies made on the host (WgmmaShape::v_image).
std::function<void(PairsConfig&)> with_v_image(std::function<void(PairsConfig&)> knobs) {
  return [knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.wgmma.v_image = 1;
  };
}

// r51, r52: a rung's knobs with the skewed combine's idle warpgroups skipping their stages (WgmmaShape::skip_idle) and the
// split weighing those stages `discount` eighths lighter per idle warpgroup (WgmmaShape::idle_discount).
std::function<void(PairsConfig&)> with_idle_skipped(int discount, std::function<void(PairsConfig&)> knobs) {
  return [discount, knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.wgmma.skip_idle = 1;
    c.wgmma.idle_discount = discount;
  };
}

// r53: a rung's knobs with the skewed combine's last column tile on the epilogue's fast path (WgmmaShape::edge_fast).
std::function<void(PairsConfig&)> with_edge_fast(std::function<void(PairsConfig&)> knobs) {
  return [knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.wgmma.edge_fast = 1;
  };
}

// r54: a rung's knobs with the combine's split found once a block, in 32-bit arithmetic (WgmmaShape::lean_split).
std::function<void(PairsConfig&)> with_lean_split(std::function<void(PairsConfig&)> knobs) {
  return [knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.wgmma.lean_split = 1;
  };
}

// r56 .. r59: a rung's knobs with `ahead` stages copied ahead of the one computed (WgmmaShape::ahead; r54's kernel).
std::function<void(PairsConfig&)> with_ahead(int ahead, std::function<void(PairsConfig&)> knobs) {
  return [ahead, knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.wgmma.ahead = ahead;
  };
}

// r60 .. r69: a rung's knobs with one switch on (PairsConfig::spread_given, count_trigger, cursor_lines, tail_runs,
// hist_early_max, combine_flags).
std::function<void(PairsConfig&)> with_on(bool PairsConfig::*knob, std::function<void(PairsConfig&)> knobs) {
  return [knob, knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.*knob = true;
  };
}

// r32's knobs (r31 in tiles of 24, one chunk): the 10^9 rung, which r61 and r66 change.
std::function<void(PairsConfig&)> r32_knobs() { return in_one_chunk(wgmma_knobs(1, 1, 8, 1, 24, 12, 1, 1024, 256)); }

// r54's knobs (r49 + the fast edge tile + the split in 32 bits), which r55 .. r59 each change in one knob.
std::function<void(PairsConfig&)> r54_knobs() {
  return with_lean_split(with_edge_fast(with_v_image(with_segment_weight(
      8, with_combine_epilogue(1, 0, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256))))))));
}

// r57's knobs (r54 with three stages copied ahead), which r60, r62 .. r65 and r67 build on.
std::function<void(PairsConfig&)> r57_knobs() { return with_ahead(3, r54_knobs()); }

// r68: a rung's knobs with one switch off (r68: PairsConfig::graph, the solve launched kernel by kernel).
std::function<void(PairsConfig&)> with_off(bool PairsConfig::*knob, std::function<void(PairsConfig&)> knobs) {
  return [knob, knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.*knob = false;
  };
}

// r64's knobs (r57 with the given values spread and the runs in whole warps), which r65 builds on.
std::function<void(PairsConfig&)> r64_knobs() {
  return with_on(&PairsConfig::tail_runs, with_on(&PairsConfig::spread_given, r57_knobs()));
}

// r65's knobs (r64 with the histograms triggered as the partition's blocks start), which r67 .. r69 each change in one
// knob.
std::function<void(PairsConfig&)> r65_knobs() { return with_on(&PairsConfig::count_trigger, r64_knobs()); }

// r29: a rung's knobs with `loads` 16-byte loads in flight a histogram thread (PairsConfig::hist_loads).
std::function<void(PairsConfig&)> with_hist_loads(int loads, std::function<void(PairsConfig&)> knobs) {
  return [loads, knobs = std::move(knobs)](PairsConfig& c) {
    knobs(c);
    c.hist_loads = loads;
  };
}

}  // namespace

PairsRung gpu_rung(std::string id, int position, std::string slug, std::string name, std::string technique,
                   std::string predecessor, Combiner combiner, Counter counter, std::string count_kind,
                   std::string combine_kind, std::vector<measure::Feature> features,
                   std::function<void(PairsConfig&)> configure) {
  PairsRung r;
  r.id = std::move(id);
  r.position = position;
  r.slug = std::move(slug);
  r.name = std::move(name);
  r.technique = std::move(technique);
  r.predecessor = std::move(predecessor);
  r.combiner = combiner;
  if (combiner != Combiner::Ntt) r.needs = combiner_needs(combiner);  // what it needs of the GPU
  for (const measure::Feature f : features)  // the rung's own (r08: clusters)
    if (std::find(r.needs.features.begin(), r.needs.features.end(), f) == r.needs.features.end())
      r.needs.features.push_back(f);
  r.configure = std::move(configure);
  r.counter = count_kind.empty() ? counter : Counter::Kind;
  r.count_kind = std::move(count_kind);
  r.combine_kind = std::move(combine_kind);
  r.precondition = r.counter != Counter::Atomic ? partition_precondition
                                                 : std::function<std::string(const Problem&)>(
                                                       [combiner](const Problem& p) { return pairs_precondition(p, combiner); });
  return r;
}

const std::vector<PairsRung>& pairs_ladder() {
  static const std::vector<PairsRung> rungs = [] {
    std::vector<PairsRung> v{
        cpu_rung("p00", "r00_cpu_pairs", "CPU pairs (baseline)",
                 "cpu-pairs: pair counts on all CPU cores + FFTW correlations", "cpu-pairs", cpu_pairs_precondition),
        gpu_rung("p01", 1, "r01_atomic_ntt", "GPU count + NTT",
                 "jump-ahead generation, L2 atomics into K x K; Goldilocks NTT correlations", "r00_cpu_pairs",
                 Combiner::Ntt, Counter::Atomic),
        gpu_rung("p02", 2, "r02_atomic_tc_int8", "GPU count + tensor cores",
                 "same count; G = C circ(V) on mma.sync m16n8k32 u8 (byte planes), masked epilogue", "r01_atomic_ntt",
                 Combiner::TensorCore, Counter::Atomic),
        gpu_rung("p03", 3, "r03_partition_tc", "partition count + tensor cores",
                 "no global atomics: pairs partitioned by table slice (shared-memory sort), shared-memory histograms; "
                 "r02's combine",
                 "r02_atomic_tc_int8", Combiner::TensorCore, Counter::Partition),
        gpu_rung("p04", 4, "r04_partition_gemm", "partition count + cuBLASLt GEMM",
                 "r03's count; plane 0 (C & 127) times circ(V) on cuBLASLt's int8 GEMM + masked column sum; "
                 "one chunk: the histograms write the planes (no table, no slicing pass)",
                 "r03_partition_tc", Combiner::Gemm, Counter::Partition),
        gpu_rung("p05", 5, "r05_whole_graph", "r04 as one CUDA graph",
                 "r04's kernels (both streams, cuBLASLt's GEMM) captured once and replayed as one CUDA graph",
                 "r04_partition_gemm", Combiner::Gemm, Counter::Partition, "", "", {},
                 [](PairsConfig& c) { c.graph = true; }),
        gpu_rung("p06", 6, "r06_gemm_panels", "r05 + GEMM in row panels",
                 "r05's graph; G = C_0 circ(V) in 3 panels of rows, each panel's masked column sum on a second "
                 "stream beside the next panel's GEMM (G read back from L2)",
                 "r05_whole_graph", Combiner::Gemm, Counter::Partition, "", "", {},
                 [](PairsConfig& c) {
                   c.graph = true;
                   c.gemm_panels = 3;
                 }),
        gpu_rung("p07", 7, "r07_wide_tiles", "r05 + partition tiles of 24",
                 "r05's graph (not r06's panels, which lost); the partition kernel in tiles of 24 pairs per thread "
                 "(the per-tile scan, reservations and barriers shared by 1.5x the pairs)",
                 "r05_whole_graph", Combiner::Gemm, Counter::Partition, "", "", {},
                 [](PairsConfig& c) {
                   c.graph = true;
                   c.partition_tile = 24;
                 }),
        gpu_rung("p08", 8, "r08_dsmem_count", "DSMEM count + cuBLASLt GEMM",
                 "pairs routed by row range (16 ways, 4-byte entries); each range counted by a cluster of 8 blocks "
                 "holding its rows in distributed shared memory (remote shared atomics); r04's combine after a "
                 "slicing pass",
                 "r04_partition_gemm", Combiner::Gemm, Counter::Kind, "dsmem", "",
                 {measure::Feature::Clusters}),  // thread-block clusters: sm_90
        gpu_rung("p09", 9, "r09_wgmma_combine", "r05 + combine on wgmma",
                 "r05's graph; every plane of C times circ(V) on joseki's own wgmma kernel (sm_90a; circ(V) made "
                 "from V in shared memory), the masked column sum in its epilogue: no cuBLASLt, no G, no circ(V) "
                 "in memory",
                 "r05_whole_graph", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma},  // sm_90a code on a 9.x GPU
                 wgmma_knobs(0, 0, 4, 0)),
        gpu_rung("p10", 10, "r10_wgmma_inflight", "r09 + one wgmma group in flight",
                 "r09's graph and wgmma combine; the stage's wgmma group left running across the next stage's "
                 "barrier (wait_group 1, not 0; copies one stage less ahead, two sets of fragment registers)",
                 "r09_wgmma_combine", Combiner::Gemm, Counter::Partition, "", "wgmma", {measure::Feature::Wgmma},
                 wgmma_knobs(1, 0, 4, 0)),
        gpu_rung("p11", 11, "r11_wgmma_banks", "r10 + conflict-free fragment loads",
                 "r10; rs's four copies of V (the A fragments' source) 32 bytes further apart, so that a warp's "
                 "fragment load hits 32 different banks instead of 4-way conflicts",
                 "r10_wgmma_inflight", Combiner::Gemm, Counter::Partition, "", "wgmma", {measure::Feature::Wgmma},
                 wgmma_knobs(1, 1, 4, 0)),
        gpu_rung("p12", 12, "r12_wgmma_stages", "r11 + six stage slots",
                 "r11; six stage slots instead of four, so that the copies run four stages ahead of the "
                 "tensor cores instead of two",
                 "r11_wgmma_banks", Combiner::Gemm, Counter::Partition, "", "wgmma", {measure::Feature::Wgmma},
                 wgmma_knobs(1, 1, 6, 0)),
        gpu_rung("p13", 13, "r13_wgmma_tma", "r12 fed by TMA through mbarriers",
                 "r12; P's stages copied by the tensor memory accelerator (one thread, 16-byte x 128-row boxes, "
                 "zeros past column K) and handed over through full/empty mbarriers per slot: no block barrier "
                 "and no cp.async in the main loop",
                 "r12_wgmma_stages", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 6, 1)),
        gpu_rung("p14", 14, "r14_tma_wide_tiles", "r13 + partition tiles of 24",
                 "r13's combine with r07's count (the partition kernel in tiles of 24 pairs per thread): the "
                 "best count at 10^9 and the best combine in one solve",
                 "r13_wgmma_tma", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 6, 1, 24)),
        gpu_rung("p15", 15, "r15_tma_eight_slots", "r13 + eight stage slots",
                 "r13 with eight stage slots instead of six: the TMA copies run six stages ahead of the tensor "
                 "cores instead of four",
                 "r13_wgmma_tma", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 8, 1)),
        gpu_rung("p16", 16, "r16_lean_count", "r15 + a lean partition kernel",
                 "r15; the partition kernel with the same work in fewer instructions per pair: LCG steps that the "
                 "compiler cannot fold into per-element jumps, the PCG output from the state's halves, x mod K by "
                 "one 32-bit high product, no per-pair branch in a full tile's scatter, keys that index the "
                 "shared arrays by byte, one slice per thread in the scan, a tile's given values loaded at once",
                 "r15_tma_eight_slots", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 8, 1, 0, 4)),
        gpu_rung("p17", 17, "r17_lean_wide_tiles", "r16 + partition tiles of 24",
                 "r16's lean partition kernel in r07's tiles of 24 pairs per thread (no spill in the lean kernel): "
                 "the per-tile scan, reservations and barriers shared by 1.5x the pairs",
                 "r16_lean_count", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 8, 1, 24, 4)),
        gpu_rung("p18", 18, "r18_one_slice_a_sm", "r17 + one slice a SM",
                 "r17 with the table cut into one slice a SM (132 on the H200) instead of three: the partition "
                 "kernel ranks, scans, reserves and writes runs for a third of the slices; one histogram block of "
                 "1024 threads a SM holds 158 KiB of counters",
                 "r17_lean_wide_tiles", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 8, 1, 24, 4, 1, 1024)),
        gpu_rung("p19", 19, "r19_small_partition_blocks", "r18 + partition blocks of 256",
                 "r18 with r16's partition kernel in blocks of 256 threads, four a SM, instead of two of 512: the "
                 "same warps a SM, half of them at each of a tile's four barriers",
                 "r18_one_slice_a_sm", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 8, 1, 24, 4, 1, 1024, 256)),
        gpu_rung("p20", 20, "r20_unrolled_write_out", "r19 + an unrolled write-out",
                 "r19 with a full tile's write-out unrolled (partition_lean = 5): each thread writes its 24 entries "
                 "of the sorted tile without a loop counter, bound or branch per pair",
                 "r19_small_partition_blocks", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 8, 1, 24, 5, 1, 1024, 256)),
        gpu_rung("p21", 21, "r21_no_tile_end_barrier", "r20 - the barrier that closes a tile",
                 "r20 with the slice counters in two buffers, tile t counting into buffer t mod 2 and clearing the "
                 "other after its first barrier (partition_lean = 6): no barrier closes a tile, so a warp done "
                 "with its write-out generates the next tile while the others still write",
                 "r20_unrolled_write_out", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 8, 1, 24, 6, 1, 1024, 256)),
        gpu_rung("p22", 22, "r22_loop_write_out", "r21 - r20's unrolled write-out",
                 "r21 with r19's write-out loop again (partition_lean = 7): no barrier closes a tile, and the "
                 "write-out is the loop whose time r20's unrolling did not improve",
                 "r21_no_tile_end_barrier", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 8, 1, 24, 7, 1, 1024, 256)),
        gpu_rung("p23", 23, "r23_prefetch_given_values", "r22 + the given values prefetched",
                 "r22 with the next tile's given values prefetched into L1 while a tile is ranked (partition_lean "
                 "= 8): the threads whose runs lie in the M given values no longer wait one load a tile, and the "
                 "first chunk's first block no longer finishes last",
                 "r22_loop_write_out", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 8, 1, 24, 8, 1, 1024, 256)),
        gpu_rung("p24", 24, "r24_prefetch_barrier_back", "r23 + the barrier that closes a tile, back",
                 "r19's kernel with r23's prefetch (partition_lean = 9): the tile-end barrier that r21 removed "
                 "comes back (without it the chunks without given values ran 1.8 % slower)",
                 "r23_prefetch_given_values", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 wgmma_knobs(1, 1, 8, 1, 24, 9, 1, 1024, 256)),
        gpu_rung("p25", 25, "r25_one_chunk", "r24 in one chunk of up to 2^30 pairs",
                 "r24 with chunks of up to 2^30 pairs instead of 2^28: N = 10^9 is one chunk whose histograms write "
                 "the product's planes (fused, launched as programmatic dependents), no per-chunk kernel tails",
                 "r24_prefetch_barrier_back", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 in_one_chunk(wgmma_knobs(1, 1, 8, 1, 24, 9, 1, 1024, 256))),
        gpu_rung("p26", 26, "r26_one_chunk_tiles_28", "r25 in tiles of 28",
                 "r25 with tiles of 28 pairs a thread instead of 24 (64 registers, no spill; four blocks of 256 a "
                 "SM still fit): a seventh fewer tiles, so a seventh fewer scans, reservations and barriers",
                 "r25_one_chunk", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 9, 1, 1024, 256))),
        gpu_rung("p27", 27, "r27_one_chunk_no_tile_end_barrier", "r26 - the barrier that closes a tile",
                 "r26 with r23's kernel (partition_lean = 8: two counter buffers, no barrier closing a tile, the "
                 "prefetch): in one long chunk the given values' threads have 309 tiles, and without that barrier "
                 "the prefetch hides their loads",
                 "r26_one_chunk_tiles_28", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 8, 1, 1024, 256))),
        gpu_rung("p28", 28, "r28_given_tiles_full_path", "r27 + given tiles on the full path",
                 "r27 with a tile whose pairs are all given values ranked and scattered on the full tile's path "
                 "(partition_lean = 10): no per-pair bound or key test for the threads of the first block",
                 "r27_one_chunk_no_tile_end_barrier", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 10, 1, 1024, 256))),
        gpu_rung("p29", 29, "r29_hist_loads_in_flight", "r27 + four histogram loads in flight",
                 "r27 with each histogram thread issuing four 16-byte loads of its bucket before it counts them "
                 "(hist_loads = 4): 64 KiB in flight a SM instead of 16, so the bucket read is not bound by the "
                 "load latency",
                 "r27_one_chunk_no_tile_end_barrier", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_hist_loads(4, in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 8, 1, 1024, 256)))),
        gpu_rung("p30", 30, "r30_paired_write_out", "r27 + the write-out in pairs of entries",
                 "r27 with every slice's run padded to an even length (a hole entry the histograms count into a "
                 "spare counter), so each thread writes two adjacent entries of a slice with one 32-bit store "
                 "(partition_lean = 11): half the shared loads, global stores and loop steps of the write-out",
                 "r27_one_chunk_no_tile_end_barrier", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 11, 1, 1024, 256))),
        gpu_rung("p31", 31, "r31_quad_write_out", "r30 in groups of four entries",
                 "r30 with every slice's run padded to a multiple of four (up to three holes) so that each thread "
                 "writes four adjacent entries with one 64-bit store after one 128-bit shared load "
                 "(partition_lean = 12): half r30's write-out steps again, ~1.5 holes a run instead of ~0.5",
                 "r30_paired_write_out", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 12, 1, 1024, 256))),
        gpu_rung("p32", 32, "r32_quad_tiles_24", "r31 in tiles of 24",
                 "r31 with tiles of 24 pairs a thread instead of 28 (partition_tile = 24): its kernel in tiles of 28 "
                 "spills 8 bytes, in tiles of 24 it does not, and in chunks of 2^28 the tiles of 24 were faster",
                 "r31_quad_write_out", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 r32_knobs()),
        gpu_rung("p33", 33, "r33_skewed_combine", "r31 + the combine on V's zero rows only",
                 "r31 with the planes skewed (row a rotated left by a, written so by the histograms) so that the "
                 "masked product's rows x with V[x] = 1 drop out whole: the wgmma product runs on the compacted "
                 "rows with V[x] = 0 only (about half the tensor work), its sums along (x - a) mod K in "
                 "shared-memory windows (combine kind wgmma_skew)",
                 "r31_quad_write_out", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 12, 1, 1024, 256))),
        gpu_rung("p34", 34, "r34_skewed_rows_128", "r33 in blocks of 128 rows",
                 "r33 with the skewed product in blocks of two warpgroups (128 rows, two blocks a SM) instead of "
                 "four: at V's half ones 9 row tiles of 128 (1152 rows) instead of 5 of 256 (1280)",
                 "r33_skewed_combine", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_warpgroups(2, in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 12, 1, 1024, 256)))),
        gpu_rung("p35", 35, "r35_hankel_operand", "r31 + circ(V) read by the tensor cores from a Hankel view",
                 "r31 with the wgmma combine's A operand, circ(V), read by the tensor cores from shared memory through "
                 "descriptors alone: one array H[p] = V[p .. p + 15] of (K + 128) x 16 bytes, written once per block, "
                 "is every tile's A operand (no-swizzle core matrices of 8 consecutive entries; LBO 256, SBO 128), so "
                 "the main loop assembles no fragments (PairsConfig::wgmma.op = ss with tma 1)",
                 "r31_quad_write_out", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_operand(WgmmaOperand::Ss, in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 12, 1, 1024, 256)))),
        gpu_rung("p36", 36, "r36_hankel_seven_in_flight", "r35 with seven commit groups in flight",
                 "r35 with wait_group 7 instead of 1 (up to sixteen wgmmas a warpgroup queued at the tensor cores, "
                 "as the mma probe's 92.8 %-of-peak loop queues eight), a stage's slot released once its group is "
                 "done, 14 slots so that the copies still run six stages ahead (PairsConfig::wgmma.stages = 14)",
                 "r35_hankel_operand", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_operand(WgmmaOperand::Ss, in_one_chunk(wgmma_knobs(1, 1, 14, 1, 28, 12, 1, 1024, 256)))),
        gpu_rung("p37", 37, "r37_rotated_cells", "r33 with the rotation in the partition's cell index",
                 "r33 with each pair counted at its rotated cell a kp + (b - a) mod K by the partition kernel (two "
                 "instructions a pair; partition_lean = 13), so that the histograms write the skewed combine's "
                 "operand P with r31's plain packed stores instead of a second, skewed pass over their slice",
                 "r33_skewed_combine", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 13, 1, 1024, 256))),
        gpu_rung("p38", 38, "r38_dependent_combine", "r37 + the combine as the histograms' programmatic dependent",
                 "r37 with the histograms writing the answers' first terms and letting the next kernel launch as they "
                 "start, and the skewed combine launched as their programmatic dependent: its prologue (mbarriers, V's "
                 "copies, the windows) overlaps their tail, griddepcontrol.wait before it reads the planes "
                 "(PairsConfig::combine_dependent)",
                 "r37_rotated_cells", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 13, 1, 1024, 256)))),
        gpu_rung("p39", 39, "r39_dependent_plain_combine", "r31 + the combine as the histograms' programmatic dependent",
                 "r31 with r38's launch alone: the histograms write the answers' first terms and let the next kernel "
                 "launch as they start, and the plain wgmma combine (rows unrotated) is launched as their programmatic "
                 "dependent (PairsConfig::combine_dependent)",
                 "r31_quad_write_out", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 28, 12, 1, 1024, 256)))),
        gpu_rung("p40", 40, "r40_rotated_tiles_24", "r38 in tiles of 24",
                 "r38 with tiles of 24 pairs a thread instead of 28 (partition_tile = 24): the rotated-cell kernel "
                 "spills in tiles of 28 (8 bytes stored, 12 loaded a thread) and not in tiles of 24",
                 "r38_dependent_combine", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 24, 13, 1, 1024, 256)))),
        gpu_rung("p41", 41, "r41_rotated_tiles_26", "r38 in tiles of 26",
                 "r38 with tiles of 26 pairs a thread instead of 28 (partition_tile = 26): the max case's run of 52 "
                 "pairs a thread (one wave on the H200) in two full tiles, so no pair takes the general path of a "
                 "partial tile and no third round of scan and barriers runs",
                 "r38_dependent_combine", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256)))),
        gpu_rung("p42", 42, "r42_given_tiles_rotated", "r41 + tiles of given values on the full path",
                 "r41 with r28's move on the rotated-cell kernel (partition_lean = 14): a tile whose pairs are all given "
                 "values goes through the full tile's path (loaded together, ranked without per-pair tests), so the "
                 "blocks whose runs lie in the given values no longer carry ~1.7x a block's instructions",
                 "r41_rotated_tiles_26", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 14, 1, 1024, 256)))),
        gpu_rung("p43", 43, "r43_padded_windows", "r41 + the epilogue's window copies padded apart",
                 "r41 with the skewed combine's four window copies (one a quad lane) 10 entries further apart "
                 "(WgmmaCombineArgs::window_pad): a warp's shared atomics in the epilogue meet the banks of x_g + 8 q "
                 "instead of x_g - 2 q, ~2.1 wavefronts an atomic instead of ~3.25",
                 "r41_rotated_tiles_26", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_combine_epilogue(1, 0, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256))))),
        gpu_rung("p44", 44, "r44_early_copies", "r43 + the next segment's copies before the epilogue",
                 "r43 with the first stages of a combine block's next segment copied before the epilogue of the "
                 "segment it ends (WgmmaCombineArgs::early_copies), so that the copies' latency hides behind the "
                 "epilogue instead of following it",
                 "r43_padded_windows", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_combine_epilogue(1, 1, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256))))),
        gpu_rung("p45", 45, "r45_early_rows", "r44 + a segment's rows loaded before they are needed",
                 "r44 with the skewed combine's row indices loaded early (WgmmaCombineArgs::early_rows): the tile's "
                 "first and last x (the epilogue's window) at the segment's start, and the next segment's rows before "
                 "the epilogue, so that no global load's latency opens a segment or its epilogue",
                 "r44_early_copies", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_combine_epilogue(1, 1, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256))), 1)),
        gpu_rung("p46", 46, "r46_weighted_split", "r43 + the combine's units split by a segment's weight",
                 "r43 with the skewed combine's stages split among its blocks so that each segment a block runs (an "
                 "epilogue, a set-up, a pipeline fill) counts as 8 stages (WgmmaCombineArgs::segment_weight): the "
                 "blocks that cross a tile's boundary take fewer stages than those that do not",
                 "r43_padded_windows", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_segment_weight(8, with_combine_epilogue(1, 0, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256)))))),
        gpu_rung("p47", 47, "r47_heavier_segments", "r46 with a segment weighed as 12 stages",
                 "r46 with each segment a combine block runs counted as 12 stages instead of 8 "
                 "(WgmmaCombineArgs::segment_weight): the other side of the bracket around the segment's measured cost",
                 "r46_weighted_split", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_segment_weight(12, with_combine_epilogue(1, 0, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256)))))),
        gpu_rung("p48", 48, "r48_lean_prologue", "r46 + the combine's prologue in one pass less",
                 "r46 with the skewed combine's four copies of V written in one pass from V's bytes "
                 "(WgmmaCombineArgs::lean_prologue): one block barrier less, no V2 pass, no modulo below 2 K, in the "
                 "prologue that the dependent launch leaves on the critical path of nearly every block",
                 "r46_weighted_split", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_lean_prologue(with_segment_weight(8, with_combine_epilogue(1, 0, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256))))))),
        gpu_rung("p49", 49, "r49_v_image", "r46 + V's copies made on the host, copied in by the prologue",
                 "r46 with V's four copies made once on the host in the layout of the combine's shared memory "
                 "(v_copies_image, uploaded with the device) and copied in by the prologue in 16-byte loads "
                 "(WgmmaCombineArgs::d_vimage) instead of built there from V's bytes",
                 "r46_weighted_split", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_v_image(with_segment_weight(8, with_combine_epilogue(1, 0, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256))))))),
        gpu_rung("p50", 50, "r50_lighter_segments", "r49 with a segment weighed as 6 stages",
                 "r49 with each segment a combine block runs counted as 6 stages instead of 8 "
                 "(WgmmaCombineArgs::segment_weight): the lower side of the bracket r46 (8) and r47 (12) opened, "
                 "with r49's shorter prologue",
                 "r49_v_image", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_v_image(with_segment_weight(6, with_combine_epilogue(1, 0, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256))))))),
        gpu_rung("p51", 51, "r51_idle_warpgroups", "r49 + the idle warpgroups skip their stages, the split weighs them",
                 "r49 with the warpgroups whose rows all lie past the list of x with V[x] = 0 (the last row tile's: two "
                 "of four at V's half ones) skipping their stages (no fragments, no wgmma; WgmmaCombineArgs::skip_idle), "
                 "and the split counting such a stage as 8 - 1 per idle warpgroup eighths of a full one (idle_discount 1)",
                 "r49_v_image", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_idle_skipped(1, with_v_image(with_segment_weight(8, with_combine_epilogue(1, 0, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256)))))))),
        gpu_rung("p52", 52, "r52_lighter_idle_stages", "r51 with the idle warpgroups' stages weighed lighter",
                 "r51 with the split counting a stage of the last row tile as 8 - 2 per idle warpgroup eighths of a full "
                 "one (idle_discount 2: half a stage with two of four warpgroups idle), the other side of r51's guess",
                 "r51_idle_warpgroups", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_idle_skipped(2, with_v_image(with_segment_weight(8, with_combine_epilogue(1, 0, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256)))))))),
        gpu_rung("p53", 53, "r53_edge_tile_fast", "r49 + the last column tile's epilogue on the fast path",
                 "r49 with the skewed combine's last column tile (columns a0 .. a0 + 127 crossing K) summed on the "
                 "epilogue's fast path (WgmmaCombineArgs::edge_fast: the planes' map ends at row K, so columns >= K "
                 "hold zeros), where it took the general path: that tile's epilogues cost ~3.3 us against ~1.45 and its "
                 "blocks ended last",
                 "r49_v_image", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_edge_fast(with_v_image(with_segment_weight(8, with_combine_epilogue(1, 0, with_dependent_combine(in_one_chunk(wgmma_knobs(1, 1, 8, 1, 26, 13, 1, 1024, 256)))))))),
        gpu_rung("p54", 54, "r54_lean_split", "r53 + the combine's split found once a block, in 32-bit arithmetic",
                 "r53 with the block's range of units found by thread 0 alone after the wait for the histograms, in "
                 "32-bit arithmetic, and handed over in shared memory, and each segment found in 32-bit arithmetic "
                 "(WgmmaCombineArgs::lean_split), where all 512 threads ran the same 64-bit divisions on every "
                 "block's critical path",
                 "r53_edge_tile_fast", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 r54_knobs()),
        gpu_rung("p55", 55, "r55_lean_idle_skip", "r54 + the idle warpgroups skip their stages (r51's knobs)",
                 "r54 with the skewed combine's warpgroups that hold no row of the list (the last row tile's) only "
                 "waiting for each stage's bytes and releasing the slot (no fragments, no wgmma; "
                 "WgmmaCombineArgs::skip_idle), and the 32-bit split weighing such a stage 7/8 of a full one "
                 "(idle_discount 1): r51's move without its 64-bit split or the slow edge tile it happened to fix",
                 "r54_lean_split", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_idle_skipped(1, r54_knobs())),
        gpu_rung("p56", 56, "r56_slack_three", "r54 + four stages copied ahead, not six (three stages of slack)",
                 "r54 with the TMA kernel copying four stages ahead of the one it computes instead of six "
                 "(WgmmaCombineArgs::ahead): thread 0 of warpgroup 0 waits for a slot's release by every warpgroup "
                 "before it copies into it, which held warpgroup 0 to one stage ahead of the slowest; now three",
                 "r54_lean_split", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_ahead(4, r54_knobs())),
        gpu_rung("p57", 57, "r57_slack_four", "r54 + three stages copied ahead (four stages of slack)",
                 "r54 with the TMA kernel copying three stages ahead of the one it computes instead of six "
                 "(WgmmaCombineArgs::ahead): four stages of slack for warpgroup 0 against the slowest warpgroup, the "
                 "copies ~1.4 us to land",
                 "r56_slack_three", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 r57_knobs()),
        gpu_rung("p58", 58, "r58_slack_five", "r54 + two stages copied ahead (five stages of slack)",
                 "r54 with the TMA kernel copying two stages ahead of the one it computes instead of six "
                 "(WgmmaCombineArgs::ahead): five stages of slack for warpgroup 0 against the slowest warpgroup, the "
                 "copies ~0.9 us to land",
                 "r57_slack_four", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_ahead(2, r54_knobs())),
        gpu_rung("p59", 59, "r59_slack_six", "r54 + one stage copied ahead (six stages of slack)",
                 "r54 with the TMA kernel copying one stage ahead of the one it computes instead of six "
                 "(WgmmaCombineArgs::ahead): the end of the bracket, six stages of slack and the copies ~0.45 us to "
                 "land, less than a copy's latency from L2 under load",
                 "r58_slack_five", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_ahead(1, r54_knobs())),
        gpu_rung("p60", 60, "r60_spread_given", "r57 + the given values' pairs in shorter runs (the partition's stragglers)",
                 "r57 with the partition threads whose runs lie in the M given values (the kernel's general path, ~1.7x "
                 "the instructions a pair) taking shorter runs, spread over the threads the wave leaves free "
                 "(PairsConfig::spread_given), so that their blocks no longer end last",
                 "r57_slack_four", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_on(&PairsConfig::spread_given, r57_knobs())),
        gpu_rung("p61", 61, "r61_spread_given_10e9", "r32 + the given values' pairs in shorter runs (the 10^9 rung)",
                 "r32 (unrotated cells, tiles of 24, the plain wgmma combine: the best at 10^9) with r60's shorter runs "
                 "for the partition threads whose runs lie in the given values (PairsConfig::spread_given): in one chunk "
                 "of 10^9 pairs their runs of ~7400 pairs on the general path outlast every other thread's",
                 "r32_quad_tiles_24", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_on(&PairsConfig::spread_given, r32_knobs())),
        gpu_rung("p62", 62, "r62_count_trigger", "r57 + the histograms launched as the partition's blocks start",
                 "r57 with each partition block executing griddepcontrol.launch_dependents as it starts "
                 "(PairsConfig::count_trigger): the fused histograms, its programmatic dependent, launched only after "
                 "its last block had ended (the count's trace: ~1.2 us later); now their blocks take SMs as the "
                 "partition's leave them, clear their counters and wait there for its end",
                 "r57_slack_four", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_on(&PairsConfig::count_trigger, r57_knobs())),
        gpu_rung("p63", 63, "r63_cursor_lines", "r62 + each bucket cursor in its own 128-byte line",
                 "r62 with the 132 bucket cursors, which every partition block reserves from once a tile (one returning "
                 "global atomic a slice), each in its own 128-byte line instead of 32 to a line "
                 "(PairsConfig::cursor_lines): the reservations no longer queue on a few lines of one L2 slice",
                 "r62_count_trigger", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_on(&PairsConfig::cursor_lines, with_on(&PairsConfig::count_trigger, r57_knobs()))),
        gpu_rung("p64", 64, "r64_whole_warp_runs", "r60 + the partition's runs in whole warps (no mixed warp)",
                 "r60 with the given values' pairs and the chunk's last pairs in short runs over whole warps, the full "
                 "runs between them (PairsConfig::tail_runs, plan_runs): the block holding the last, partial run had a "
                 "warp on both of the kernel's paths and ended ~3 us after every other block (the count's trace)",
                 "r60_spread_given", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 r64_knobs()),
        gpu_rung("p65", 65, "r65_whole_warps_trigger", "r64 + r62's histograms launched as the partition's blocks start",
                 "r64 with r62's trigger (PairsConfig::count_trigger): the two count changes that held at the max case "
                 "together",
                 "r64_whole_warp_runs", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 r65_knobs()),
        gpu_rung("p66", 66, "r66_whole_warps_10e9", "r61 + r64's runs in whole warps (the 10^9 rung)",
                 "r61 (r32 with the given values spread) with r64's runs in whole warps (PairsConfig::tail_runs); at 10^9 "
                 "the wave leaves one free warp at 7399 pairs a thread, so plan_runs lengthens the runs to 7400 to free "
                 "two: the given pairs in 32 runs of 3125, the last pairs in 32 runs under 4/7 of a full one",
                 "r61_spread_given_10e9", Combiner::Gemm, Counter::Partition, "", "wgmma",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_on(&PairsConfig::tail_runs, with_on(&PairsConfig::spread_given, r32_knobs()))),
        gpu_rung("p67", 67, "r67_hist_early_max", "r65 + each histogram block's previous maximum read as it starts",
                 "r65 with the fused histograms reading their slice's maximum of the previous solve (which decides "
                 "whether its upper planes need zeroing) as they start, not after their counting: one global load's "
                 "round trip off the critical path of every histogram block (PairsConfig::hist_early_max)",
                 "r65_whole_warps_trigger", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_on(&PairsConfig::hist_early_max, r65_knobs())),
        gpu_rung("p68", 68, "r68_stream_launches", "r65 launched kernel by kernel (no CUDA graph)",
                 "r65 with its kernels launched one by one on the stream (partition, then the histograms and the "
                 "combine as programmatic dependents, the prep on the side stream) instead of replayed as one CUDA "
                 "graph (PairsConfig::graph off): the launch probe's cold head (a graph's first kernel after the "
                 "start event) against a stream launch's",
                 "r65_whole_warps_trigger", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_off(&PairsConfig::graph, r65_knobs())),
        gpu_rung("p69", 69, "r69_flag_release", "r65 + the combine released by a count of the histograms' ended blocks",
                 "r65 with each histogram block adding 1 to a counter after its last write (proxy fences, a barrier, a "
                 "GPU fence) and the dependent combine's blocks polling it with acquire loads instead of waiting in "
                 "griddepcontrol.wait, which returned 1.1-1.3 us after the last histogram block ended "
                 "(PairsConfig::combine_flags)",
                 "r65_whole_warps_trigger", Combiner::Gemm, Counter::Partition, "", "wgmma_skew",
                 {measure::Feature::Wgmma, measure::Feature::TensorMapCopy},
                 with_on(&PairsConfig::combine_flags, r65_knobs())),
    };
    v[2].sizes_technique = "gpu-pairs, atomic count (RED.ADD per pair) + tensor-core combine, one process, events";
    v[3].sizes_technique =
        "gpu-pairs, partition count (shared-memory histograms) + tensor-core combine, one process, events";
    v[4].sizes_technique = "gpu-pairs, partition count + cuBLASLt GEMM combine (fused when one chunk), one process, events";
    return v;
  }();
  return rungs;
}

PairsConfig PairsRung::config() const {
  PairsConfig c;
  if (combiner) c.combiner = *combiner;
  c.counter = counter;
  c.count_kind = count_kind;
  c.combine_kind = combine_kind;
  if (configure) configure(c);  // a knob beyond counter, combiner and kinds (r05 graph, r06 panels)
  return c;
}

const PairsRung& find_rung(const std::string& name, const std::string& option) {
  std::string names;
  for (const PairsRung& r : pairs_ladder()) {
    if (r.slug == name || r.id == name || r.variant() == name) return r;
    names += (names.empty() ? "" : ", ") + r.slug;
  }
  throw InputError(option + " " + name + ": unknown rung (rungs: " + names + ")");
}

namespace {

// The CPU baseline: the registry's solver, timed in process around the solve call.
class CpuSolveRunner : public measure::Runner {
 public:
  CpuSolveRunner(const Problem& p, const Answer& want) : m_p(p), m_want(want) {}
  std::string backend() const override { return "cpu"; }
  measure::Scope scope() const override { return measure::Scope::CpuCompute; }
  std::optional<std::string> setup(const measure::RungSpec& s, const measure::Point&) override {
    m_rung = std::any_cast<const PairsRung*>(s.impl);
    if (std::string why = m_rung->precondition(m_p); !why.empty()) return why;
    m_solver = &find_solver(m_rung->cpu_solver);
    return std::nullopt;
  }
  void poison_output() override { m_got.assign(m_p.k, ~std::uint64_t{0}); }
  void run() override { m_got = m_solver->solve(m_p, SolveOptions{}).answer; }
  std::string compare() override { return compare_answers(m_got, m_want); }
  double timed_run() override {
    const double t0 = measure::now_s();
    (void)m_solver->solve(m_p, SolveOptions{});
    return measure::now_s() - t0;
  }
  // A whole solve per sample (seconds at the max case): at most 5 samples, one warm-up run.
  std::optional<measure::Measurement> measure(measure::Mode, const measure::StoppingRule& rule,
                                              const measure::WarmUp&) override {
    measure::StoppingRule r = rule;
    r.min_samples = std::min(r.min_samples, 5);
    return measure::measure([this] { return timed_run(); }, [] {}, r, measure::WarmUp{1, 0.0});
  }
  measure::Work work() const override { return {static_cast<double>(m_p.n > 0 ? m_p.n - 1 : 0), 0}; }

 private:
  const Problem& m_p;
  const Answer& m_want;
  const PairsRung* m_rung = nullptr;
  const Solver* m_solver = nullptr;
  Answer m_got;
};

}  // namespace

measure::Ladder core_ladder(const Problem& p, const std::vector<PairsRung>& rungs) {
  measure::Ladder lad{"abc471g", {}};
  for (const PairsRung& r : rungs) {
    measure::RungSpec s;
    s.id = r.id;
    s.slug = r.variant();
    s.technique = r.technique;
    if (!r.predecessor.empty()) s.predecessor = "pairs." + r.predecessor;
    s.position = r.position;
    s.backend = r.combiner ? "cuda" : "cpu";
    if (r.combiner) {
      s.needs = combiner_needs(*r.combiner, p.k);
      std::vector<measure::Feature> own = r.needs.features;  // the rung's own (r08: clusters), and its kinds'
      if (const CountKind* ck = r.count_kind.empty() ? nullptr : find_count_kind(r.count_kind))
        own.insert(own.end(), ck->needs.features.begin(), ck->needs.features.end());
      if (const CombineKind* ck = r.combine_kind.empty() ? nullptr : find_combine_kind(r.combine_kind))
        own.insert(own.end(), ck->needs.features.begin(), ck->needs.features.end());
      for (const measure::Feature f : own)
        if (std::find(s.needs.features.begin(), s.needs.features.end(), f) == s.needs.features.end())
          s.needs.features.push_back(f);
    }
    s.baseline = !r.combiner && r.predecessor.empty();  // p00: the CPU solver every rung is compared with
    s.output = "the K counts of the problem, compared exactly with the reference solver's";
    s.impl = &r;
    lad.rungs.push_back(std::move(s));
  }
  return lad;
}

std::unique_ptr<measure::Runner> make_cpu_runner(const Problem& p, const Answer& want) {
  return std::make_unique<CpuSolveRunner>(p, want);
}

}  // namespace joseki::abc471g::pairs
