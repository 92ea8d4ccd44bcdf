// Issue 19's gpu-pairs pieces without a GPU: the floor's CPU check (the element sum) against the
// problem's generator one element at a time, the floor ratios on records, and the rungs r05/r06 in the
// ladder with their knobs (what `scale ladder` and `scale hopper` apply before timing them).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/bench_hopper.hpp"
#include "experiments/abc471g/gpu_pairs/dsmem_plan.hpp"
#include "experiments/abc471g/gpu_pairs/ladder.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_math.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_combine.hpp"
#include "experiments/abc471g/gpu_pairs/test_support.hpp"
#include "measure/needs.hpp"

namespace {

namespace ab = joseki::abc471g;
namespace gp = joseki::abc471g::pairs;
using gp::testing::random_problem;

TEST(Abc471gHopper, ElementSumIsTheGeneratorsSum) {
  for (const ab::Problem& p : {random_problem(1, 1, 1, 1, 2), random_problem(5, 37, 0, 3, 4),
                               random_problem(100'003, 2300, 5'000, 9, 10), random_problem(300'007, 300, 300'007, 5, 6)}) {
    std::vector<std::uint32_t> a(p.n);
    ab::generate(p, 0, p.n, a.data());
    std::uint32_t want = 0;
    for (std::uint32_t x : a) want += x;
    EXPECT_EQ(gp::cpu_element_sum32(p), want) << "N = " << p.n << ", K = " << p.k << ", M = " << p.m();
    if (p.n > 1) {
      EXPECT_NE(want, 0u) << "a sum that could not catch a generator skipping elements";
    }
  }
}

TEST(Abc471gHopper, FloorRatiosOnMeasuredGpuRecordsOnly) {
  auto rec = [](const std::string& variant, const std::string& scope, double median) {
    joseki::measure::Record r;
    r.variant = variant;
    r.scope = scope;
    if (median > 0) {
      joseki::measure::Measurement m;
      m.samples_s = {median, median, median};
      m.stats.median = median;
      r.set_measurement(m);
    }
    return r;
  };
  std::vector<joseki::measure::Record> v{rec("pairs.floor.generate", "GPU_COMPUTE", 10e-6),
                                         rec("pairs.r04_partition_gemm", "GPU_COMPUTE", 77e-6),
                                         rec("pairs.r00_cpu_pairs", "CPU_COMPUTE", 40e-3),
                                         rec("pairs.r05_whole_graph", "GPU_COMPUTE", 0)};
  ASSERT_TRUE(v[0].summary.has_value());
  gp::add_floor_ratios(v, v[0]);
  EXPECT_FALSE(v[0].extra.contains("floor_x")) << "not the floor itself";
  ASSERT_TRUE(v[1].extra.contains("floor_x"));
  EXPECT_NEAR(v[1].extra["floor_x"].get<double>(), 7.7, 1e-9);
  EXPECT_FALSE(v[2].extra.contains("floor_x")) << "CPU time is not comparable";
  EXPECT_FALSE(v[3].extra.contains("floor_x")) << "not measured";
}

TEST(Abc471gHopper, RungsFiveAndSixCarryTheirKnobs) {
  const gp::PairsRung& r5 = gp::find_rung("p05");
  const gp::PairsRung& r6 = gp::find_rung("r06_gemm_panels");
  EXPECT_EQ(r5.slug, "r05_whole_graph");
  EXPECT_EQ(r5.predecessor, "r04_partition_gemm");
  EXPECT_EQ(r6.predecessor, "r05_whole_graph");
  for (const gp::PairsRung* r : {&r5, &r6}) {
    ASSERT_TRUE(r->combiner.has_value());
    EXPECT_EQ(*r->combiner, gp::Combiner::Gemm);
    EXPECT_EQ(r->counter, gp::Counter::Partition);
    ASSERT_TRUE(static_cast<bool>(r->configure)) << r->slug;
    gp::PairsConfig c;
    r->configure(c);
    EXPECT_TRUE(c.graph) << r->slug;
    EXPECT_EQ(c.gemm_panels, r == &r6 ? 3 : 1) << r->slug;
  }
  const gp::PairsRung& r7 = gp::find_rung("p07");
  EXPECT_EQ(r7.predecessor, "r05_whole_graph") << "r06's panels lost: r07 builds on r05";
  ASSERT_TRUE(static_cast<bool>(r7.configure));
  gp::PairsConfig c7;
  r7.configure(c7);
  EXPECT_EQ(c7.partition_tile, 24);
  EXPECT_EQ(c7.gemm_panels, 1);
  EXPECT_TRUE(c7.graph);
  gp::PairsConfig d;
  EXPECT_EQ(d.partition_tile, 0) << "r03's tiles by default";
  EXPECT_FALSE(d.graph) << "the shipped solvers launch kernel by kernel";
  EXPECT_EQ(d.gemm_panels, 1);
  EXPECT_FALSE(static_cast<bool>(gp::find_rung("p04").configure)) << "r04 is r04";
  EXPECT_TRUE(d.combine_kind.empty()) << "cuBLASLt's GEMM unless r09 asks for its wgmma combine kind";
  EXPECT_TRUE(d.count_kind.empty()) << "the built-in counter unless a rung names a count kind";
  const gp::PairsRung& r9 = gp::find_rung("p09");
  EXPECT_EQ(r9.slug, "r09_wgmma_combine");
  EXPECT_EQ(r9.predecessor, "r05_whole_graph");
  ASSERT_TRUE(static_cast<bool>(r9.configure));
  gp::PairsConfig c9;
  r9.configure(c9);
  EXPECT_TRUE(c9.combine_kind.empty()) << "the kind is the entry's, not a knob of configure";
  EXPECT_EQ(r9.combine_kind, "wgmma") << "r09 brings the combine kind 'wgmma' (r09_wgmma_combine.cpp)";
  EXPECT_TRUE(r9.count_kind.empty());
  EXPECT_EQ(r9.counter, gp::Counter::Partition);
  c9 = r9.config();
  EXPECT_EQ(c9.combine_kind, "wgmma");
  EXPECT_EQ(c9.combiner, gp::Combiner::Gemm) << "the kind takes the gemm combiner's planes";
  EXPECT_TRUE(c9.graph);
  EXPECT_EQ(c9.gemm_panels, 1);
  bool needs_wgmma = false;
  for (joseki::measure::Feature f : r9.needs.features) needs_wgmma = needs_wgmma || f == joseki::measure::Feature::Wgmma;
  EXPECT_TRUE(needs_wgmma) << "r09 is skipped with the reason off sm_90a";
  // r10: r09 with one wgmma group in flight, its one knob beside r09's graph.
  const gp::PairsRung& r10 = gp::find_rung("p10");
  EXPECT_EQ(r10.slug, "r10_wgmma_inflight");
  EXPECT_EQ(r10.predecessor, "r09_wgmma_combine");
  EXPECT_EQ(r10.combine_kind, "wgmma");
  EXPECT_EQ(r10.needs.features, r9.needs.features);
  const gp::PairsConfig c10 = r10.config();
  EXPECT_EQ(c10.wgmma.inflight, 1);
  EXPECT_TRUE(c10.graph);
  EXPECT_EQ(c9.wgmma.inflight, 0) << "r09 waits for every group";
  EXPECT_EQ(c10.wgmma.pad_copies, 0);
  // r11: r10 with the fragment copies padded apart in banks.
  const gp::PairsRung& r11 = gp::find_rung("p11");
  EXPECT_EQ(r11.slug, "r11_wgmma_banks");
  EXPECT_EQ(r11.predecessor, "r10_wgmma_inflight");
  EXPECT_EQ(r11.combine_kind, "wgmma");
  const gp::PairsConfig c11 = r11.config();
  EXPECT_EQ(c11.wgmma.inflight, 1);
  EXPECT_EQ(c11.wgmma.pad_copies, 1);
  EXPECT_FALSE(c11.wgmma.op == gp::WgmmaOperand::Ss) << "the copies exist in rs only";
  EXPECT_TRUE(c11.graph);
  EXPECT_EQ(c11.wgmma.stages, 4);
  // r12: r11 with six stage slots.
  const gp::PairsRung& r12 = gp::find_rung("p12");
  EXPECT_EQ(r12.slug, "r12_wgmma_stages");
  EXPECT_EQ(r12.predecessor, "r11_wgmma_banks");
  const gp::PairsConfig c12 = r12.config();
  EXPECT_EQ(c12.wgmma.stages, 6);
  EXPECT_EQ(c12.wgmma.inflight, 1) << "six slots exist for the kernel with a group in flight only";
  EXPECT_EQ(c12.wgmma.pad_copies, 1);
  EXPECT_EQ(c12.wgmma.tma, 0);
  // r13: r12 fed by TMA through mbarriers; it also needs tensor-map copies.
  const gp::PairsRung& r13 = gp::find_rung("p13");
  EXPECT_EQ(r13.slug, "r13_wgmma_tma");
  EXPECT_EQ(r13.predecessor, "r12_wgmma_stages");
  const gp::PairsConfig c13 = r13.config();
  EXPECT_EQ(c13.wgmma.tma, 1);
  EXPECT_EQ(c13.wgmma.stages, 6);
  bool needs_tma = false;
  for (joseki::measure::Feature f : r13.needs.features) needs_tma = needs_tma || f == joseki::measure::Feature::TensorMapCopy;
  EXPECT_TRUE(needs_tma);
  // r14: r13's combine with r07's tiles of 24.
  const gp::PairsRung& r14 = gp::find_rung("p14");
  EXPECT_EQ(r14.predecessor, "r13_wgmma_tma");
  const gp::PairsConfig c14 = r14.config();
  EXPECT_EQ(c14.partition_tile, 24);
  EXPECT_EQ(c14.wgmma.tma, 1);
  EXPECT_EQ(c13.partition_tile, 0) << "r13 counts as r05";
  // r15: r13 with eight slots.
  const gp::PairsRung& r15 = gp::find_rung("p15");
  EXPECT_EQ(r15.predecessor, "r13_wgmma_tma");
  const gp::PairsConfig c15 = r15.config();
  EXPECT_EQ(c15.wgmma.stages, 8);
  EXPECT_EQ(c15.wgmma.tma, 1);
  EXPECT_EQ(c15.partition_tile, 0);
  EXPECT_EQ(c15.partition_lean, 0);
  // r16: r15 with the lean partition kernel.
  const gp::PairsRung& r16 = gp::find_rung("p16");
  EXPECT_EQ(r16.predecessor, "r15_tma_eight_slots");
  const gp::PairsConfig c16 = r16.config();
  EXPECT_EQ(c16.partition_lean, 4);
  EXPECT_EQ(c16.wgmma.stages, 8);
  EXPECT_EQ(c16.wgmma.tma, 1);
  EXPECT_EQ(c16.partition_tile, 0);
  // r17: r16 in tiles of 24.
  const gp::PairsRung& r17 = gp::find_rung("p17");
  EXPECT_EQ(r17.predecessor, "r16_lean_count");
  const gp::PairsConfig c17 = r17.config();
  EXPECT_EQ(c17.partition_lean, 4);
  EXPECT_EQ(c17.partition_tile, 24);
  EXPECT_EQ(c17.wgmma.stages, 8);
  EXPECT_TRUE(c17.graph);
  EXPECT_EQ(c17.slices_per_sm, 0u);
  // r18: r17 with one slice a SM.
  const gp::PairsRung& r18 = gp::find_rung("p18");
  EXPECT_EQ(r18.predecessor, "r17_lean_wide_tiles");
  const gp::PairsConfig c18 = r18.config();
  EXPECT_EQ(c18.slices_per_sm, 1u);
  EXPECT_EQ(c18.partition_lean, 4);
  EXPECT_EQ(c18.partition_tile, 24);
  EXPECT_EQ(c18.wgmma.stages, 8);
  EXPECT_EQ(c18.hist_threads, 1024);
  EXPECT_EQ(c18.partition_threads, 512);
  EXPECT_TRUE(c18.graph);
  // r19: r18 with partition blocks of 256.
  const gp::PairsRung& r19 = gp::find_rung("p19");
  EXPECT_EQ(r19.predecessor, "r18_one_slice_a_sm");
  const gp::PairsConfig c19 = r19.config();
  EXPECT_EQ(c19.partition_threads, 256);
  EXPECT_EQ(c19.slices_per_sm, 1u);
  EXPECT_EQ(c19.hist_threads, 1024);
  EXPECT_EQ(c19.partition_lean, 4);
  EXPECT_EQ(c19.partition_tile, 24);
  // r20: r19 with the unrolled write-out.
  const gp::PairsRung& r20 = gp::find_rung("p20");
  EXPECT_EQ(r20.predecessor, "r19_small_partition_blocks");
  const gp::PairsConfig c20 = r20.config();
  EXPECT_EQ(c20.partition_lean, 5);
  EXPECT_EQ(c20.partition_threads, 256);
  EXPECT_EQ(c20.slices_per_sm, 1u);
  EXPECT_EQ(c20.hist_threads, 1024);
  EXPECT_EQ(c20.partition_tile, 24);
  // r21: r20 without the barrier that closes a tile.
  const gp::PairsRung& r21 = gp::find_rung("p21");
  EXPECT_EQ(r21.predecessor, "r20_unrolled_write_out");
  gp::PairsConfig c21 = r21.config();
  EXPECT_EQ(c21.partition_lean, 6);
  c21.partition_lean = 5;
  EXPECT_EQ(c21.partition_threads, c20.partition_threads);  // nothing else changed
  EXPECT_EQ(c21.slices_per_sm, c20.slices_per_sm);
  EXPECT_EQ(c21.hist_threads, c20.hist_threads);
  EXPECT_EQ(c21.partition_tile, c20.partition_tile);
  // r22: r21 with the loop write-out (variant 7); r23: r22 with the given values prefetched (variant 8).
  EXPECT_EQ(gp::find_rung("p22").predecessor, "r21_no_tile_end_barrier");
  EXPECT_EQ(gp::find_rung("p23").predecessor, "r22_loop_write_out");
  for (const auto& [id, lean] : {std::pair{"p22", 7}, std::pair{"p23", 8}}) {
    gp::PairsConfig c = gp::find_rung(id).config();
    EXPECT_EQ(c.partition_lean, lean) << id;
    c.partition_lean = 5;
    EXPECT_EQ(c.partition_threads, c20.partition_threads) << id;
    EXPECT_EQ(c.slices_per_sm, c20.slices_per_sm) << id;
    EXPECT_EQ(c.hist_threads, c20.hist_threads) << id;
    EXPECT_EQ(c.partition_tile, c20.partition_tile) << id;
  }
  // r24: r19's kernel with the prefetch (variant 9); r25: r24 in chunks of 2^30; r26: r25 in tiles of 28.
  const gp::PairsConfig c24 = gp::find_rung("p24").config(), c25 = gp::find_rung("p25").config(),
                        c26 = gp::find_rung("p26").config();
  EXPECT_EQ(gp::find_rung("p24").predecessor, "r23_prefetch_given_values");
  EXPECT_EQ(c24.partition_lean, 9);
  EXPECT_EQ(c24.chunk_pairs, c20.chunk_pairs);
  EXPECT_EQ(gp::find_rung("p25").predecessor, "r24_prefetch_barrier_back");
  EXPECT_EQ(c25.partition_lean, 9);
  EXPECT_EQ(c25.chunk_pairs, 1ULL << 30);
  EXPECT_EQ(c25.partition_tile, 24);
  EXPECT_EQ(gp::find_rung("p26").predecessor, "r25_one_chunk");
  EXPECT_EQ(c26.partition_tile, 28);
  EXPECT_EQ(c26.chunk_pairs, 1ULL << 30);
  EXPECT_EQ(c26.partition_lean, 9);
  // r27: r26 with variant 8 (no tile-end barrier, the prefetch); r28: r27 with variant 10.
  for (const auto& [id, lean, pred] : {std::tuple{"p27", 8, "r26_one_chunk_tiles_28"},
                                       std::tuple{"p28", 10, "r27_one_chunk_no_tile_end_barrier"}}) {
    const gp::PairsConfig c = gp::find_rung(id).config();
    EXPECT_EQ(gp::find_rung(id).predecessor, pred) << id;
    EXPECT_EQ(c.partition_lean, lean) << id;
    EXPECT_EQ(c.partition_tile, 28) << id;
    EXPECT_EQ(c.chunk_pairs, 1ULL << 30) << id;
    EXPECT_EQ(c.partition_threads, 256) << id;
    EXPECT_EQ(c.hist_loads, 1) << id;
  }
  // r29: r27 with four 16-byte loads in flight a histogram thread, everything else r27's.
  const gp::PairsConfig c27 = gp::find_rung("p27").config(), c29 = gp::find_rung("p29").config();
  EXPECT_EQ(gp::find_rung("p29").predecessor, "r27_one_chunk_no_tile_end_barrier");
  EXPECT_EQ(c29.hist_loads, 4);
  EXPECT_EQ(c29.partition_lean, c27.partition_lean);
  EXPECT_EQ(c29.partition_tile, c27.partition_tile);
  EXPECT_EQ(c29.chunk_pairs, c27.chunk_pairs);
  EXPECT_EQ(c29.hist_threads, c27.hist_threads);
  EXPECT_EQ(c29.slices_per_sm, c27.slices_per_sm);
  // r30: r27 with variant 11 (the write-out in pairs of entries), one histogram load in flight as r27.
  const gp::PairsConfig c30 = gp::find_rung("p30").config();
  EXPECT_EQ(gp::find_rung("p30").predecessor, "r27_one_chunk_no_tile_end_barrier");
  EXPECT_EQ(c30.partition_lean, 11);
  EXPECT_EQ(c30.hist_loads, 1);
  EXPECT_EQ(c30.partition_tile, c27.partition_tile);
  EXPECT_EQ(c30.chunk_pairs, c27.chunk_pairs);
  EXPECT_EQ(c30.partition_threads, c27.partition_threads);
  // r31: r30 in groups of four entries (variant 12).
  const gp::PairsConfig c31 = gp::find_rung("p31").config();
  EXPECT_EQ(gp::find_rung("p31").predecessor, "r30_paired_write_out");
  EXPECT_EQ(c31.partition_lean, 12);
  EXPECT_EQ(c31.partition_tile, c30.partition_tile);
  EXPECT_EQ(c31.chunk_pairs, c30.chunk_pairs);
  EXPECT_EQ(c31.hist_loads, c30.hist_loads);
  // r32: r31 in tiles of 24.
  const gp::PairsConfig c32 = gp::find_rung("p32").config();
  EXPECT_EQ(gp::find_rung("p32").predecessor, "r31_quad_write_out");
  EXPECT_EQ(c32.partition_lean, 12);
  EXPECT_EQ(c32.partition_tile, 24);
  EXPECT_EQ(c32.chunk_pairs, c31.chunk_pairs);
}

// PairsConfig's default shape is today's shipped r09 shape (rs.wg4.bk64, nothing of r10 .. r15).
TEST(Abc471gHopper, PairsConfigWgmmaDefaultIsRsWg4Bk64) {
  const gp::PairsConfig c;
  EXPECT_EQ(c.wgmma.op, gp::WgmmaOperand::Rs);
  EXPECT_EQ(c.wgmma.warpgroups, 4);
  EXPECT_EQ(c.wgmma.stage_bytes, 64);
  EXPECT_EQ(c.wgmma.inflight, 0);
  EXPECT_EQ(c.wgmma.pad_copies, 0);
  EXPECT_EQ(c.wgmma.stages, 4);
  EXPECT_EQ(c.wgmma.tma, 0);
  gp::WgmmaCombineArgs a;
  gp::set_wgmma_shape(a, gp::WGMMA_SHAPES[std::size(gp::WGMMA_SHAPES) - 1]);  // rs.wg4.bk64.if1.pad.st8.tma
  EXPECT_EQ(a.warpgroups, 4);
  EXPECT_EQ(a.stage_bytes, 64);
  EXPECT_EQ(a.inflight, 1);
  EXPECT_EQ(a.pad_copies, 1);
  EXPECT_EQ(a.stages, 8);
  EXPECT_EQ(a.tma, 1);
}

// r09's stated shared memory (wgmma_combine_needs) covers what the launcher asks for with every shape the
// bench and tests run and every rung's shape, at small, the max case's and the largest kp, and is the
// largest of them (ss.wg4.bk128), within the H200's opt-in limit up to GPU_PAIRS_MAX_K.
TEST(Abc471gHopper, WgmmaNeedsCoverEveryShapesSharedMemory) {
  constexpr std::int64_t H200_OPTIN = 232'448;  // 227 KiB
  std::vector<gp::WgmmaShape> shapes(std::begin(gp::WGMMA_SHAPES), std::end(gp::WGMMA_SHAPES));
  for (const char* id : {"p09", "p10", "p11", "p12", "p13", "p14", "p15", "p16", "p17", "p18", "p19", "p20", "p21", "p22", "p23", "p24", "p25", "p26", "p27", "p28", "p35", "p36"}) {
    const gp::PairsRung& r = gp::find_rung(id);
    EXPECT_EQ(r.combine_kind, "wgmma") << id;
    shapes.push_back(r.config().wgmma);
  }
  for (const std::uint32_t k : {1u, 100u, 2300u, 5000u, 6272u, 6273u, 8064u, 8960u, 8961u, gp::GPU_PAIRS_MAX_K}) {
    const std::uint32_t kp = gp::padded_k(k);
    const std::int64_t need = gp::wgmma_combine_needs(kp).smem_per_block;
    std::int64_t most = 0;
    for (const gp::WgmmaShape& sh : shapes) {
      // r35's Hankel view (ss with tma 1) runs up to kp = 8960 only (the launcher refuses it beyond)
      if (sh.op == gp::WgmmaOperand::Ss && sh.tma == 1 &&
          kp > joseki::abc471g::pairs::r09::hankel_max_kp(static_cast<std::uint32_t>(sh.stages)))
        continue;
      const auto bytes = static_cast<std::int64_t>(gp::wgmma_combine_smem_bytes(kp, sh));
      EXPECT_GT(bytes, 0);
      EXPECT_GE(need, bytes) << "kp = " << kp << ", shape op " << static_cast<int>(sh.op) << " wg " << sh.warpgroups
                             << " bk " << sh.stage_bytes << " stages " << sh.stages << " tma " << sh.tma;
      most = std::max(most, bytes);
    }
    EXPECT_EQ(need, most) << "kp = " << kp << ": the need is the largest shape's (ss.wg4.bk128 is among them)";
    EXPECT_LE(need, H200_OPTIN) << "kp = " << kp;
  }
  // At K = 2300 (kp 2304; V 2 kp + 256 = 4864 bytes, its padded copy 4896): r15's TMA kernel with eight
  // slots 2048 + 8 x 128 x 64 + 3 x 4896 + 4864 = 87136 bytes, more than ss.wg2.bk64's 4 x (128 + 128) x 64
  // + 4864 = 70400 (the need stated before), and ss.wg4.bk128's 4 x (128 + 256) x 128 + 4864 = 201472.
  const gp::WgmmaShape r15 = gp::find_rung("p15").config().wgmma;
  EXPECT_EQ(gp::wgmma_combine_smem_bytes(2304, r15), 87'136u);
  EXPECT_EQ(gp::wgmma_combine_smem_bytes(2304, gp::WgmmaShape{gp::WgmmaOperand::Ss, 2, 64}), 70'400u);
  EXPECT_EQ(gp::wgmma_combine_needs(2304).smem_per_block, 201'472);
  // r35 at K = 2300: 2048 + 8 x 128 x 64 + 4864 (V2) + 16 x 2432 (H) = 111360; at kp 8960 it is the largest shape.
  const gp::WgmmaShape r35 = gp::find_rung("p35").config().wgmma;
  EXPECT_EQ(gp::wgmma_combine_smem_bytes(2304, r35), 111'360u);
  EXPECT_EQ(gp::wgmma_combine_needs(8960).smem_per_block, static_cast<std::int64_t>(gp::wgmma_combine_smem_bytes(8960, r35)));
}

// The launcher's argument checks (host code: they run without a GPU), one per knob, each message naming
// the knob and its value; every shape of WGMMA_SHAPES and of the rungs passes. Mirrors the GPU test
// Abc471gWgmmaGpu.BadArgumentsAreRefused (which goes through launch_wgmma_combine).
TEST(Abc471gHopper, WgmmaArgumentsAreCheckedKnobByKnob) {
  std::uint8_t byte = 0;
  std::uint64_t word = 0;
  gp::WgmmaCombineArgs good;  // pointers only compared with null, never read
  good.d_planes = &byte;
  good.d_v = &byte;
  good.d_answer = &word;
  good.k = 100;
  good.kp = 128;
  for (const gp::WgmmaShape& sh : gp::WGMMA_SHAPES) {
    gp::WgmmaCombineArgs a = good;
    gp::set_wgmma_shape(a, sh);
    EXPECT_NO_THROW(gp::check_wgmma_combine_args(a, sh.op));
  }
  for (const char* id : {"p09", "p12", "p13", "p15", "p17", "p35", "p36"}) {
    gp::WgmmaCombineArgs a = good;
    const gp::WgmmaShape sh = gp::find_rung(id).config().wgmma;
    gp::set_wgmma_shape(a, sh);
    EXPECT_NO_THROW(gp::check_wgmma_combine_args(a, sh.op)) << id;
    if (sh.tma) {  // r38's dependent launch and r44's early copies are accepted on every TMA shape
      a.dependent = 1;
      EXPECT_NO_THROW(gp::check_wgmma_combine_args(a, sh.op)) << id << " launched as a dependent";
      a.early_copies = 1;
      EXPECT_NO_THROW(gp::check_wgmma_combine_args(a, sh.op)) << id << " with early copies";
    }
  }
  // The refusal's message names the knob and its bad value.
  const auto refused = [](const gp::WgmmaCombineArgs& a, gp::WgmmaOperand op, const std::string& names) {
    try {
      gp::check_wgmma_combine_args(a, op);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).find(names) != std::string::npos ? std::string("named")
                                                                     : std::string("unnamed: ") + e.what();
    }
    return std::string("accepted");
  };
  const auto rs = gp::WgmmaOperand::Rs, ss = gp::WgmmaOperand::Ss;
  gp::WgmmaCombineArgs a = good;
  a.kp = 100;
  EXPECT_EQ(refused(a, rs, "kp = 100"), "named");
  a.kp = 128;
  a.k = 129;
  EXPECT_EQ(refused(a, ss, "kp = 128"), "named") << "k above kp";
  a.k = 0;
  EXPECT_EQ(refused(a, rs, "k = 0"), "named");
  a.k = 100;
  a.planes = 0;
  EXPECT_EQ(refused(a, rs, "planes = 0"), "named");
  a.planes = 1;
  a.d_v = nullptr;
  EXPECT_EQ(refused(a, rs, "pointer"), "named");
  a.d_v = &byte;
  EXPECT_EQ(refused(a, static_cast<gp::WgmmaOperand>(2), "operand = 2"), "named");
  a.dependent = 1;  // r38's programmatic dependent launch: the TMA kernel only (good is tma 0)
  EXPECT_EQ(refused(a, rs, "dependent = 1"), "named");
  a.dependent = 2;
  EXPECT_EQ(refused(a, rs, "dependent = 2"), "named");
  a.dependent = 0;
  a.window_pad = 1;  // r43's padded windows: the skewed product only (good has no d_rows)
  EXPECT_EQ(refused(a, rs, "window_pad = 1"), "named");
  a.window_pad = 2;
  EXPECT_EQ(refused(a, rs, "window_pad = 2"), "named");
  a.window_pad = 0;
  a.early_copies = 1;  // r44's early copies: the TMA kernel only (good is tma 0)
  EXPECT_EQ(refused(a, rs, "early_copies = 1"), "named");
  a.early_copies = -1;
  EXPECT_EQ(refused(a, rs, "early_copies = -1"), "named");
  a.early_copies = 0;
  a.early_rows = 1;  // r45's early rows: the skewed product only
  EXPECT_EQ(refused(a, rs, "early_rows = 1"), "named");
  a.early_rows = 0;
  a.segment_weight = 8;  // r46's weighted split: the TMA kernel only (good is tma 0)
  EXPECT_EQ(refused(a, rs, "segment_weight = 8"), "named");
  a.segment_weight = 0;
  a.skip_idle = 1;  // r51's idle warpgroups: the skewed TMA product only (good has neither)
  EXPECT_EQ(refused(a, rs, "skip_idle = 1"), "named");
  a.skip_idle = 0;
  a.idle_discount = 1;  // r51's lighter stages: only with skip_idle
  EXPECT_EQ(refused(a, rs, "idle_discount = 1"), "named");
  a.idle_discount = 0;
  a.edge_fast = 1;  // r53's epilogue: the skewed product only
  EXPECT_EQ(refused(a, rs, "edge_fast = 1"), "named");
  a.edge_fast = 0;
  a.lean_split = 1;  // r54's split: the TMA kernel only (good is tma 0)
  EXPECT_EQ(refused(a, rs, "lean_split = 1"), "named");
  a.lean_split = 0;
  a.ahead = 4;  // r56's copies ahead: only with lean_split
  EXPECT_EQ(refused(a, rs, "ahead = 4 (must be"), "named");
  a.ahead = 0;
  const std::uint8_t image[16] = {};
  a.d_vimage = image;  // r49's image of V's copies: the TMA kernel only (good is tma 0)
  EXPECT_EQ(refused(a, rs, "d_vimage set with tma = 0"), "named");
  a.d_vimage = nullptr;
  a.lean_prologue = 1;  // r48's prologue: the TMA kernel only (good is tma 0)
  EXPECT_EQ(refused(a, rs, "lean_prologue = 1"), "named");
  a.lean_prologue = 0;
  std::uint64_t trace[joseki::abc471g::pairs::r09::COMBINE_TRACE_SLOTS] = {};
  a.d_trace = trace;  // the combine's trace: the skewed TMA kernel with 4 warpgroups only (good is tma 0)
  EXPECT_EQ(refused(a, rs, "d_trace set with tma = 0"), "named");
  a.d_trace = nullptr;
  a.warpgroups = 3;
  EXPECT_EQ(refused(a, rs, "warpgroups = 3"), "named");
  a.warpgroups = 2;
  a.stage_bytes = 32;
  EXPECT_EQ(refused(a, rs, "stage_bytes = 32"), "named");
  a.stage_bytes = 64;
  a.stages = 6;  // 6 stage slots: rs with a group in flight only
  EXPECT_EQ(refused(a, rs, "stages = 6"), "named");
  a.inflight = 1;
  EXPECT_EQ(refused(a, ss, "stages = 6"), "named");
  EXPECT_EQ(refused(a, rs, ""), "accepted") << "rs, inflight 1, stages 6: r12";
  a.stages = 5;
  EXPECT_EQ(refused(a, rs, "stages = 5"), "named");
  a.stages = 8;
  EXPECT_EQ(refused(a, rs, "stages = 8"), "named") << "eight slots: tma only";
  a.stages = 4;
  a.inflight = 2;
  EXPECT_EQ(refused(a, rs, "inflight = 2"), "named");
  a.inflight = 0;
  a.pad_copies = 2;
  EXPECT_EQ(refused(a, rs, "pad_copies = 2"), "named");
  a.pad_copies = 1;
  a.inflight = 1;
  a.tma = 2;
  EXPECT_EQ(refused(a, rs, "tma = 2"), "named");
  a.tma = 1;  // the TMA pipeline: rs, a group in flight, padded copies, six or eight 64-byte stages only
  EXPECT_EQ(refused(a, rs, "stages 6 or 8, not 4"), "named");
  a.stages = 6;
  EXPECT_EQ(refused(a, rs, ""), "accepted") << "r13";
  EXPECT_EQ(refused(a, ss, "stages = 6"), "named");
  a.stages = 8;
  EXPECT_EQ(refused(a, ss, ""), "accepted") << "r35: the TMA pipeline on the Hankel view";
  a.kp = 9088;  // r35's H does not fit beside the ring there
  EXPECT_EQ(refused(a, ss, "kp <= 8960 with 8 stages (kp = 9088"), "named");
  EXPECT_EQ(refused(a, rs, ""), "accepted") << "r15 at kp 9088";
  a.kp = 8960;
  EXPECT_EQ(refused(a, ss, ""), "accepted") << "r35 at its largest kp";
  a.stages = 14;  // r36: seven groups in flight, 14 slots: H fits up to kp 6272
  EXPECT_EQ(refused(a, ss, "kp <= 6272 with 14 stages"), "named");
  a.kp = 6272;
  EXPECT_EQ(refused(a, ss, ""), "accepted") << "r36 at its largest kp";
  EXPECT_EQ(refused(a, rs, "stages = 14"), "named") << "14 slots: the Hankel kernel only";
  a.stages = 12;
  EXPECT_EQ(refused(a, ss, "stages = 12"), "named");
  a.stages = 8;
  a.debug = 2;
  EXPECT_EQ(refused(a, ss, ""), "accepted") << "the bench's no-loads diagnostic of the Hankel kernel";
  EXPECT_EQ(refused(a, rs, "debug 0, not 2"), "named");
  a.debug = 0;
  a.kp = 128;
  std::uint32_t row = 0;
  a.d_rows = &row;
  a.rows = 1;
  EXPECT_EQ(refused(a, ss, "no d_rows"), "named") << "r33's rows are not a run";
  a.window_pad = 1;
  a.early_copies = 1;
  a.early_rows = 1;
  EXPECT_EQ(refused(a, rs, ""), "accepted") << "r45: r33's product with padded windows, early copies and rows";
  a.segment_weight = 64;
  EXPECT_EQ(refused(a, rs, ""), "accepted") << "r46's split on r33's product, the heaviest weight";
  a.segment_weight = 65;
  EXPECT_EQ(refused(a, rs, "segment_weight = 65"), "named");
  a.segment_weight = -1;
  EXPECT_EQ(refused(a, rs, "segment_weight = -1"), "named");
  a.segment_weight = 0;
  a.skip_idle = 1;
  a.idle_discount = 2;
  EXPECT_EQ(refused(a, rs, ""), "accepted") << "r52: r33's product, idle warpgroups skipped, their stages weighed half";
  a.idle_discount = 3;
  EXPECT_EQ(refused(a, rs, "idle_discount = 3"), "named");
  a.idle_discount = -1;
  EXPECT_EQ(refused(a, rs, "idle_discount = -1"), "named");
  a.idle_discount = 0;
  a.skip_idle = 2;
  EXPECT_EQ(refused(a, rs, "skip_idle = 2"), "named");
  a.skip_idle = 0;
  a.edge_fast = 1;
  EXPECT_EQ(refused(a, rs, ""), "accepted") << "r53: r33's product, the last column tile on the fast path";
  a.edge_fast = 2;
  EXPECT_EQ(refused(a, rs, "edge_fast = 2"), "named");
  a.edge_fast = 0;
  a.lean_split = 1;
  EXPECT_EQ(refused(a, rs, "lean_split = 1"), "named") << "r54: 4 warpgroups only (a has " << a.warpgroups << ")";
  const int wgs_before = a.warpgroups;
  a.warpgroups = 4;
  EXPECT_EQ(refused(a, rs, ""), "accepted") << "r54: r33's product, the split found once a block";
  const int early_before = a.early_copies;
  a.early_copies = 0;
  for (const int ahead : {1, 3, 4, a.stages - 2}) {  // r56 .. r59: 1 .. stages - 2 copied ahead
    a.ahead = ahead;
    EXPECT_EQ(refused(a, rs, ""), "accepted") << "ahead = " << ahead << " of " << a.stages << " stages";
  }
  for (const int ahead : {-1, a.stages - 1, a.stages}) {  // stages - 1 would wait on a slot its own stage releases
    a.ahead = ahead;
    EXPECT_EQ(refused(a, rs, "ahead = " + std::to_string(ahead) + " (must be"), "named") << "of " << a.stages << " stages";
  }
  a.ahead = 3;
  a.early_copies = 1;  // r44's early copies with a shorter lead: no rung runs it, refused
  EXPECT_EQ(refused(a, rs, "ahead = 3 (must be"), "named");
  a.early_copies = early_before;
  a.ahead = 0;
  a.warpgroups = wgs_before;
  a.lean_split = 2;
  EXPECT_EQ(refused(a, rs, "lean_split = 2"), "named");
  a.lean_split = 0;
  a.window_pad = 0;
  a.early_copies = 0;
  a.early_rows = 0;
  a.d_rows = nullptr;
  a.rows = 0;
  EXPECT_EQ(refused(a, rs, ""), "accepted") << "r15";
  a.pad_copies = 0;
  EXPECT_EQ(refused(a, rs, "pad_copies 1, not 0"), "named");
  a.pad_copies = 1;
  a.inflight = 0;
  EXPECT_EQ(refused(a, rs, "inflight 1, not 0"), "named");
  a.inflight = 1;
  a.stage_bytes = 128;
  EXPECT_EQ(refused(a, rs, "stage_bytes 64, not 128"), "named");
  a.stage_bytes = 64;
  a.debug = 1;
  EXPECT_EQ(refused(a, rs, "debug 0, not 1"), "named");
}

// r08's layout (dsmem_plan.hpp): every row in exactly one slot, the slot of a row by the magic
// multiply, a block's rows within its shared memory and its offsets within 16 bits, at most
// DSMEM_MAX_RANGES ranges; one wave of clusters where the shared memory allows it.
TEST(Abc471gHopper, DsmemPlanCoversTheTableWithinItsLimits) {
  constexpr std::size_t H200_OPTIN = 232'448;  // 227 KiB
  for (const std::uint32_t cluster : {8u, 16u})
    for (const std::uint32_t resident : {1u, 7u, 8u, 16u, 33u})
      for (std::uint32_t kp = 128; kp <= gp::PARTITION_MAX_KP; kp += 128) {
        const gp::DsmemPlan p = gp::plan_dsmem(kp, cluster, resident, H200_OPTIN);
        const std::string at = "kp " + std::to_string(kp) + ", cluster " + std::to_string(cluster) + ", resident " +
                               std::to_string(resident);
        ASSERT_GT(p.rows, 0u) << at;
        EXPECT_EQ(p.cluster, cluster);
        EXPECT_EQ(1u << p.cluster_log, cluster);
        EXPECT_LE(p.cta_bytes, H200_OPTIN) << at;
        EXPECT_EQ(p.cta_bytes, static_cast<std::size_t>(p.rows) * kp * 4) << at;
        EXPECT_LE(static_cast<std::uint64_t>(p.rows) * kp, 65536u) << at << ": offsets must fit 16 bits";
        EXPECT_LE(p.ranges, gp::DSMEM_MAX_RANGES) << at;
        EXPECT_GE(static_cast<std::uint64_t>(p.slots) * p.rows, kp) << at << ": every row has a slot";
        EXPECT_LT(static_cast<std::uint64_t>(p.slots - 1) * p.rows, kp) << at << ": no empty slot";
        EXPECT_EQ(p.ranges, (p.slots + cluster - 1) / cluster) << at;
        EXPECT_TRUE(gp::dsmem_magic_exact(kp, p.rows, p.magic)) << at;
        EXPECT_EQ(p.cta_bytes % 16, 0u) << at << ": rows are read as uint4";
        EXPECT_GE(p.rows, 2u) << at << ": the magic of 1 row is 2^32";
        // One wave when the shared memory allows: no more ranges than resident clusters.
        const std::uint32_t wave_rows = std::max<std::uint32_t>(2, (kp + resident * cluster - 1) / (resident * cluster));
        if (static_cast<std::uint64_t>(wave_rows) * kp * 4 <= H200_OPTIN && wave_rows * kp <= 65536u &&
            wave_rows >= (kp + 64 * cluster - 1) / (64 * cluster)) {
          EXPECT_LE(p.ranges, resident) << at;
        }
      }
  // The max case on the H200 (16 clusters of 8 resident): 18 rows a block, 16 ranges, 166 KB.
  const gp::DsmemPlan mx = gp::plan_dsmem(gp::padded_k(2300), 8, 16, H200_OPTIN);
  EXPECT_EQ(mx.rows, 18u);
  EXPECT_EQ(mx.ranges, 16u);
  EXPECT_EQ(mx.cta_bytes, 18u * 2304u * 4u);
  // Refusals: no shared memory for a row, a cluster that is not a power of two or too large.
  EXPECT_EQ(gp::plan_dsmem(4096, 8, 16, 8 * 1024).rows, 0u);
  EXPECT_EQ(gp::plan_dsmem(2304, 12, 16, H200_OPTIN).rows, 0u);
  EXPECT_EQ(gp::plan_dsmem(2304, 32, 16, H200_OPTIN).rows, 0u);
  EXPECT_EQ(gp::plan_dsmem(0, 8, 16, H200_OPTIN).rows, 0u);
  // A magic that is not exact is caught by the check the plan relies on.
  EXPECT_FALSE(gp::dsmem_magic_exact(4096, 3, (1ULL << 32) / 3));
}

// r08's routing (the kernels' own functions): every pair of rows and columns lands, through its range's
// bucket entry and the block it names, on its own table cell, and a spilled key on the same cell.
TEST(Abc471gHopper, DsmemRoutingPutsEveryPairOnItsCell) {
  constexpr std::size_t H200_OPTIN = 232'448;
  for (const std::uint32_t kp : {128u, 384u, 2304u, 4096u})
    for (const std::uint32_t cluster : {8u, 16u})
      for (const std::uint32_t resident : {7u, 16u}) {
        const gp::DsmemPlan p = gp::plan_dsmem(kp, cluster, resident, H200_OPTIN);
        ASSERT_GT(p.rows, 0u);
        std::uint64_t bad = 0;
        for (std::uint32_t row = 0; row < kp; ++row)
          for (std::uint32_t col = 0; col < kp; col += (kp > 512 ? 7 : 1)) {
            const std::uint32_t key = gp::dsmem_key(row, col, kp, p.rows, p.magic);
            const std::uint32_t range = gp::dsmem_key_range(key, p.cluster_log);
            const std::uint32_t entry = gp::dsmem_key_entry(key, cluster);
            const std::size_t cell = static_cast<std::size_t>(row) * kp + col;
            bad += range != row / (p.rows * cluster) || range >= p.ranges || (entry >> 16) >= cluster ||
                   (entry & 0xFFFFu) >= p.rows * kp || gp::dsmem_entry_cell(range, entry, cluster, p.rows, kp) != cell ||
                   gp::dsmem_key_cell(key, p.rows, kp) != cell;
          }
        EXPECT_EQ(bad, 0u) << "kp " << kp << ", cluster " << cluster << ", resident " << resident;
      }
}

TEST(Abc471gHopper, DsmemBucketCapacity) {
  // The range's share + 1/16 + 1024, a multiple of 8; a forced cap (tests) rounded up to 8; ranges * cap < 2^32.
  EXPECT_EQ(gp::dsmem_bucket_cap(1u << 28, 16, 0), ((1u << 24) + (1u << 20) + 1024 + 7) / 8 * 8);
  EXPECT_EQ(gp::dsmem_bucket_cap(1000, 16, 0), (62 + 3 + 1024 + 7) / 8 * 8);
  EXPECT_EQ(gp::dsmem_bucket_cap(1000, 16, 5), 8u);
  EXPECT_EQ(gp::dsmem_bucket_cap(1000, 16, 8), 8u);
  for (const std::uint32_t ranges : {1u, 2u, 16u, 64u}) {
    const std::uint32_t cap = gp::dsmem_bucket_cap(1ULL << 31, ranges, 0);
    EXPECT_EQ(cap % 8, 0u);
    EXPECT_LT(static_cast<std::uint64_t>(cap) * ranges, 1ULL << 32) << ranges << " ranges";
  }
}

TEST(Abc471gHopper, RungEightIsTheDsmemCountAndNeedsClusters) {
  const gp::PairsRung& r8 = gp::find_rung("p08");
  EXPECT_EQ(r8.slug, "r08_dsmem_count");
  EXPECT_EQ(r8.position, 8);
  EXPECT_EQ(r8.predecessor, "r04_partition_gemm") << "same combine: the A/B is the count";
  EXPECT_EQ(r8.counter, gp::Counter::Kind);
  EXPECT_EQ(r8.count_kind, "dsmem") << "r08 brings the count kind 'dsmem' (r08_dsmem_count.cu)";
  EXPECT_EQ(r8.counter_label(), "dsmem") << "the records' counter, as before the kinds";
  EXPECT_TRUE(r8.combine_kind.empty());
  ASSERT_TRUE(r8.combiner.has_value());
  EXPECT_EQ(*r8.combiner, gp::Combiner::Gemm);
  const auto& f = r8.needs.features;
  EXPECT_NE(std::find(f.begin(), f.end(), joseki::measure::Feature::Clusters), f.end());
  EXPECT_EQ(joseki::measure::feature_min_cc(joseki::measure::Feature::Clusters), 90);
  EXPECT_TRUE(r8.precondition(random_problem(10, 2300, 1, 1, 1)).empty());
  EXPECT_FALSE(r8.precondition(random_problem(10, 5000, 1, 1, 1)).empty()) << "Kp > 4096";
  gp::PairsConfig c = r8.config();
  EXPECT_EQ(c.count_kind, "dsmem");
  EXPECT_EQ(c.combiner, gp::Combiner::Gemm);
  EXPECT_EQ(gp::effective_counter(random_problem(10, 2300, 1, 1, 1), c), gp::Counter::Kind);
  EXPECT_EQ(gp::effective_counter(random_problem(10, 5000, 1, 1, 1), c), gp::Counter::Atomic);
  EXPECT_STREQ(gp::counter_name(gp::Counter::Kind), "kind");
  EXPECT_STREQ(gp::counter_name(gp::Counter::Atomic), "atomic");
  EXPECT_STREQ(gp::counter_name(gp::Counter::Partition), "partition");
  EXPECT_EQ(c.dsmem_cluster, 8u);
  // The ladder's spec carries the rung's own need beside its combiner's.
  const joseki::measure::Ladder lad = gp::core_ladder(random_problem(10, 2300, 1, 1, 1), {r8});
  ASSERT_EQ(lad.rungs.size(), 1u);
  const auto& sf = lad.rungs[0].needs.features;
  EXPECT_NE(std::find(sf.begin(), sf.end(), joseki::measure::Feature::Clusters), sf.end());
  EXPECT_NE(std::find(sf.begin(), sf.end(), joseki::measure::Feature::Int8MmaK32), sf.end());
}

TEST(Abc471gHopper, FloorWithoutAGpuIsASkippedRecord) {
  if (joseki::gpu::availability().ok) GTEST_SKIP() << "a GPU is present: the GPU tests time the floor";
  const ab::Problem p = random_problem(1000, 7, 1, 1, 2);
  const joseki::measure::Record r = gp::bench_generation_floor(p, gp::BenchOptions{});
  EXPECT_FALSE(r.summary.has_value());
  EXPECT_EQ(r.variant, "pairs.floor.generate");
  ASSERT_TRUE(r.skipped.has_value());
  EXPECT_FALSE(r.skipped->empty());
}

}  // namespace
