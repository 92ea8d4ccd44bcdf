// r09's wgmma combine emulated on the CPU: the kernel's own index math (r09_wgmma_math.hpp: the stage
// tiles' layout, the circulant's bytes from V, the A fragments, the stream-K segments, the accumulator's
// layout and the epilogue's 32-bit sums) with wgmma's operand semantics as PTX states them (a no-swizzle
// K-major descriptor: element (row, k) at start + (row / 8) SBO + (k / 16) LBO + 16 (row % 8) + k % 16;
// the A fragment of 8-bit k32 in registers; D += A B^T over k), checked exactly against the O(K^3)
// reference on random tables (garbage in the padding) and V, K off the tile sizes, 1-3 planes, grids
// that cut tiles anywhere. What it cannot check is the hardware: the device step does (scale wgmma and
// the GPU tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "experiments/abc471g/gpu_pairs/bench_wgmma.hpp"
#include "experiments/abc471g/gpu_pairs/combine_trace.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_math.hpp"
#include "experiments/abc471g/gpu_pairs/reference.hpp"
#include "experiments/abc471g/gpu_pairs/test_support.hpp"
#include "measure/errors.hpp"

namespace {

namespace ab = joseki::abc471g;
namespace gp = joseki::abc471g::pairs;
namespace r9 = joseki::abc471g::pairs::r09;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
constexpr int LOW_BITS = 7;  // r04's plane 0 (kernels.hpp GEMM_LOW_BITS; that header is CUDA-only)

// The kernel reads V's words up to this index: inside the shared-memory copy or the emulation stops.
void check_words(std::size_t last, std::size_t words) {
  if (last >= words) throw std::out_of_range("r09 reads V word " + std::to_string(last) + " of " + std::to_string(words));
}

std::vector<u64> random_table(u32 k, u32 kp, u64 limit, u64 seed) {
  std::mt19937_64 g(seed);
  std::vector<u64> t(static_cast<std::size_t>(kp) * kp, 0);
  for (u32 a = 0; a < kp; ++a)
    for (u32 b = 0; b < kp; ++b) t[static_cast<std::size_t>(a) * kp + b] = a < k && b < k ? g() % limit : g() % 256;
  return t;
}

// The byte of a no-swizzle K-major operand tile at (row, kk) through a descriptor at `base`.
std::uint8_t desc_byte(const std::vector<std::uint8_t>& smem, u32 base, u32 row, u32 kk) {
  return smem.at(base + (row / 8) * r9::SBO + (kk / 16) * r9::LBO + 16 * (row % 8) + kk % 16);
}

ab::Answer emulate(const std::vector<u64>& table, u32 kp, const ab::Problem& p, bool ss, u32 wgs, u32 bk, u32 grid,
                   bool with_max) {
  const u32 rows = r9::block_rows(wgs), hw = r9::half_bytes(rows);
  const u32 K = p.k;
  int np = 0;
  const std::vector<std::uint8_t> planes = gp::gemm_planes(table, kp, &np);
  u64 mx = 0;
  for (u64 x : table) mx = std::max(mx, x);
  // V twice over, as the kernel's shared memory holds it (words; reads past the end throw).
  const u32 vb = r9::v_bytes(kp);
  std::vector<std::uint8_t> v2(vb);
  for (u32 i = 0; i < vb; ++i) v2[i] = p.v[i % K];
  std::vector<u32> v32(vb / 4);
  for (u32 i = 0; i < vb / 4; ++i) v32[i] = v2[4 * i] | v2[4 * i + 1] << 8 | v2[4 * i + 2] << 16 | static_cast<u32>(v2[4 * i + 3]) << 24;
  // rs: V2 shifted by c bytes (c = 0..3), as the kernel's copies (the last word of each is left 0).
  std::vector<std::vector<u32>> copies(4, std::vector<u32>(vb / 4, 0));
  for (u32 c = 0; c < 4; ++c)
    for (u32 j = 0; j + 1 < vb / 4; ++j) copies[c][j] = r9::window4(v32.data(), 4 * j + c);
  ab::Answer ans(K);
  const u32 a0v = gp::first_element(p);
  for (u32 k = 0; k < K; ++k) ans[k] = p.v[(a0v + k) % K];

  const int run = r9::planes_to_run(np, with_max, mx, LOW_BITS);
  const r9::Units un = r9::units(K, run, wgs, bk);
  std::vector<std::uint8_t> ptile(r9::tile_bytes(r9::BN, bk)), wtile(r9::tile_bytes(rows, bk));
  const u32 chunks = bk / 16;
  for (u32 blk = 0; blk < grid; ++blk) {
    const u64 ub = r9::block_begin(un, blk, grid), ue = r9::block_begin(un, blk + 1, grid);
    for (u64 u = ub; u < ue;) {
      const r9::Segment sg = r9::segment_at(un, u, ue);
      EXPECT_GT(sg.nsteps, 0u);
      if (sg.nsteps == 0) return ans;
      u += sg.nsteps;
      const std::uint8_t* P = planes.data() + static_cast<std::size_t>(sg.plane) * kp * kp;
      std::vector<u32> D(wgs * 64 * 128, 0);  // [wg][m][n]
      for (u32 it = 0; it < sg.nsteps; ++it) {
        const u32 b0 = (sg.s0 + it) * bk;
        EXPECT_LE(b0 + bk, kp);
        for (u32 c = 0; c < r9::BN * chunks; ++c) {
          const u32 r = c / chunks, cc = c % chunks;
          EXPECT_LT(sg.a0 + r, kp);
          for (u32 e = 0; e < 16; ++e)
            ptile.at(r9::tile_offset(r, cc, r9::BN) + e) = P[static_cast<std::size_t>(sg.a0 + r) * kp + b0 + 16 * cc + e];
        }
        if (!ss && b0 + bk > K) {  // rs: P's columns >= K zeroed in the stage tile (the kernel's last-stage pass)
          for (u32 c = 0; c < r9::BN * chunks; ++c) {
            const u32 r = c / chunks, cc = c % chunks;
            const int keep = r9::p_chunk_keep(K, b0 + 16 * cc);
            for (int e = 0; e < 16; ++e)
              if (e >= keep) ptile.at(r9::tile_offset(r, cc, r9::BN) + e) = 0;
          }
        }
        for (u32 c = 0; ss && c < rows * chunks; ++c) {
          const u32 r = c / chunks, cc = c % chunks;
          {
            u32 x[4];
            check_words((sg.k0 + r + b0 + 16 * cc + 12) / 4 + 1, v32.size());
            r9::w_chunk(v32.data(), sg.k0 + r, b0 + 16 * cc, K, x);
            for (u32 e = 0; e < 16; ++e) wtile.at(r9::tile_offset(r, cc, rows) + e) = static_cast<std::uint8_t>(x[e / 4] >> (8 * (e % 4)));
          }
        }
        for (u32 h = 0; h < bk / 32; ++h) {
          for (u32 wg = 0; wg < wgs; ++wg) {
            std::vector<std::uint8_t> A(64 * 32);
            if (ss) {
              for (u32 m = 0; m < 64; ++m)
                for (u32 kk = 0; kk < 32; ++kk) A[m * 32 + kk] = desc_byte(wtile, h * hw + wg * r9::half_bytes(64), m, kk);
            } else {
              for (u32 t = 0; t < 128; ++t) {
                const u32 w = t / 32, g = (t % 32) / 4, q = t % 4, row = sg.k0 + 64 * wg + 16 * w + g;
                u32 fr[4];
                check_words((row + b0 + 32 * h + 4 * q) / 4 + 6, v32.size() - 1);
                r9::a_fragment_rs(copies[row & 3].data(), row, b0 + 32 * h, q, fr);
                for (u32 e = 0; e < 4; ++e) {  // PTX: a0 (g, 4q+e), a1 (g+8, 4q+e), a2 (g, 16+4q+e), a3 (g+8, 16+4q+e)
                  A[(16 * w + g) * 32 + 4 * q + e] = static_cast<std::uint8_t>(fr[0] >> (8 * e));
                  A[(16 * w + g + 8) * 32 + 4 * q + e] = static_cast<std::uint8_t>(fr[1] >> (8 * e));
                  A[(16 * w + g) * 32 + 16 + 4 * q + e] = static_cast<std::uint8_t>(fr[2] >> (8 * e));
                  A[(16 * w + g + 8) * 32 + 16 + 4 * q + e] = static_cast<std::uint8_t>(fr[3] >> (8 * e));
                }
              }
            }
            for (u32 n = 0; n < 128; ++n) {
              std::uint8_t B[32];
              for (u32 kk = 0; kk < 32; ++kk) B[kk] = desc_byte(ptile, h * r9::half_bytes(r9::BN), n, kk);
              for (u32 m = 0; m < 64; ++m) {
                u32 s = 0;
                for (u32 kk = 0; kk < 32; ++kk) s += static_cast<u32>(A[m * 32 + kk]) * B[kk];
                D[(wg * 64 + m) * 128 + n] += s;
              }
            }
          }
        }
      }
      // Epilogue, lane by lane, then the quad's sum and the atomics.
      const int shift = gp::plane_shift(static_cast<int>(sg.plane), LOW_BITS);
      for (u32 wg = 0; wg < wgs; ++wg)
        for (u32 w = 0; w < 4; ++w)
          for (u32 g = 0; g < 8; ++g) {
            u32 lo = 0, hi = 0;
            for (u32 q = 0; q < 4; ++q)
              for (u32 e = 0; e < 64; ++e) {
                const u32 col = sg.a0 + r9::acc_col(q, e), row = sg.k0 + 64 * wg + r9::acc_row(w, g, e);
                const bool keep = col < K && v2.at(row + col) == 0;
                const u32 add = keep ? D[(wg * 64 + r9::acc_row(w, g, e)) * 128 + r9::acc_col(q, e)] : 0u;
                ((e & 3) >> 1 ? hi : lo) += add;
              }
            const u32 row_lo = sg.k0 + 64 * wg + 16 * w + g;
            if (row_lo < K) ans[row_lo] += static_cast<u64>(lo) << shift;
            if (row_lo + 8 < K) ans[row_lo + 8] += static_cast<u64>(hi) << shift;
          }
    }
  }
  return ans;
}

TEST(Abc471gWgmmaEmu, SegmentsCoverEveryUnitOnce) {
  for (const u32 k : {1u, 64u, 65u, 300u, 2300u})
    for (const int planes : {1, 3})
      for (const u32 grid : {1u, 7u, 264u, 100000u})
        for (const u32 wgs : {2u, 4u})
          for (const u32 w : {0u, 1u, 8u, 64u}) {  // r46: the split weighs each segment as w stages
        const r9::Units un = r9::units(k, planes, wgs, wgs == 2 ? 64 : 128);
        u64 covered = 0;
        EXPECT_EQ(r9::block_begin_weighted(un, 0, grid, w), 0u);
        EXPECT_EQ(r9::block_begin_weighted(un, grid, grid, w), un.total);
        for (u32 b = 0; b < grid; ++b) {
          const u64 ub = r9::block_begin_weighted(un, b, grid, w), ue = r9::block_begin_weighted(un, b + 1, grid, w);
          ASSERT_LE(ub, ue) << "block " << b << ", weight " << w;
          for (u64 u = ub; u < ue;) {
            const r9::Segment s = r9::segment_at(un, u, ue);
            ASSERT_GT(s.nsteps, 0u);
            ASSERT_LE(s.s0 + s.nsteps, un.steps);
            ASSERT_LT(s.k0, un.bm * ((k + un.bm - 1) / un.bm));
            ASSERT_LT(s.a0, r9::BN * un.tn);
            ASSERT_LT(s.plane, static_cast<u32>(planes));
            covered += s.nsteps;
            u += s.nsteps;
          }
        }
        EXPECT_EQ(covered, un.total) << "K = " << k << ", planes " << planes << ", grid " << grid << ", weight " << w;
          }
}

// r46's model: a block costs its stages plus w for each segment it runs. At the max case's shape (1150 rows x with
// V[x] = 0, K = 2300, one plane, 132 blocks) the weighted split evens that cost out: its costliest block is within w + 1
// of its cheapest, where the even split's blocks that cross a tile boundary cost w more than the rest.
TEST(Abc471gWgmmaEmu, WeightedSplitEvensTheSegmentsOut) {
  const r9::Units un = r9::units_rows(1150, 2300, 1, 4, 64);
  const u32 grid = 132;
  const auto costs = [&](u32 split_w, u32 true_w) {
    u64 lo = ~u64{0}, hi = 0;
    for (u32 b = 0; b < grid; ++b) {
      const u64 ub = r9::block_begin_weighted(un, b, grid, split_w), ue = r9::block_begin_weighted(un, b + 1, grid, split_w);
      u64 c = ue - ub;
      for (u64 u = ub; u < ue;) {
        const r9::Segment s = r9::segment_at(un, u, ue);
        u += s.nsteps;
        c += true_w;
      }
      if (ue > ub) lo = std::min(lo, c), hi = std::max(hi, c);
    }
    return std::pair{lo, hi};
  };
  for (const u32 w : {4u, 6u, 8u, 12u}) {  // r50, r46, r47
    const auto [lo0, hi0] = costs(0, w);
    const auto [lo, hi] = costs(w, w);
    EXPECT_LE(hi - lo, w + 1) << "weight " << w;
    EXPECT_LT(hi, hi0) << "weight " << w << ": the costliest block is cheaper than the even split's";
    EXPECT_GE(hi0 - lo0, w) << "weight " << w << ": the even split leaves the boundary blocks w behind";
  }
}

// r51, r52: the light split covers every unit once, in order, for any rows, discount, weight and grid; with discount 0
// it is r46's split exactly; the warpgroups with rows are counted from the tile's first row.
TEST(Abc471gWgmmaEmu, LightSplitCoversEveryUnitOnce) {
  EXPECT_EQ(r9::active_warpgroups(1150, 1024, 4), 2u);
  EXPECT_EQ(r9::active_warpgroups(1150, 768, 4), 4u);
  EXPECT_EQ(r9::active_warpgroups(3, 0, 4), 1u);
  EXPECT_EQ(r9::active_warpgroups(129, 0, 2), 2u);
  EXPECT_EQ(r9::active_warpgroups(5, 64, 4), 0u);
  for (const u32 k : {1u, 100u, 300u, 2300u})
    for (const u32 rows : {1u, 3u, 64u, 65u, 200u, 1150u, 2300u})
      for (const int planes : {1, 3})
        for (const u32 wgs : {2u, 4u})
          for (const u32 grid : {1u, 7u, 132u, 1000u})
            for (const u32 w : {0u, 8u, 64u})
              for (const u32 d : {0u, 1u, 2u}) {
                if (rows > k) continue;
                const r9::Units un = r9::units_rows(rows, k, planes, wgs, 64);
                EXPECT_EQ(r9::block_begin_light(un, rows, wgs, 0, grid, w, d), 0u);
                EXPECT_EQ(r9::block_begin_light(un, rows, wgs, grid, grid, w, d), un.total);
                u64 covered = 0;
                for (u32 b = 0; b < grid; ++b) {
                  const u64 ub = r9::block_begin_light(un, rows, wgs, b, grid, w, d),
                            ue = r9::block_begin_light(un, rows, wgs, b + 1, grid, w, d);
                  ASSERT_LE(ub, ue) << "block " << b << ", K " << k << ", rows " << rows << ", d " << d;
                  covered += ue - ub;
                  if (d == 0) {
                    ASSERT_EQ(ub, r9::block_begin_weighted(un, b, grid, w)) << "block " << b << ", weight " << w;
                  }
                }
                EXPECT_EQ(covered, un.total) << "K " << k << ", rows " << rows << ", grid " << grid << ", d " << d;
              }
}

// r54: the 32-bit split and segments are the 64-bit ones wherever range_fits32 holds (the max case's shape among them).
TEST(Abc471gWgmmaEmu, SplitIn32BitsIsTheSame) {
  int checked = 0;
  for (const u32 k : {1u, 37u, 300u, 2300u, 2400u, 8000u})
    for (const u32 rows : {1u, 3u, 64u, 65u, 200u, 1148u, 1172u, 1229u, 2300u, 8000u})
      for (const int planes : {1, 2, 4})
        for (const u32 wgs : {2u, 4u})
          for (const u32 grid : {1u, 7u, 132u, 264u})
            for (const u32 w : {0u, 8u, 64u})
              for (const u32 d : {0u, 1u, 2u}) {
                if (rows > k) continue;
                const r9::Units un = r9::units_rows(rows, k, planes, wgs, 64);
                if (!r9::range_fits32(un, w, grid)) continue;
                ++checked;
                for (u32 b = 0; b <= grid; ++b) {
                  const u64 want = d ? r9::block_begin_light(un, rows, wgs, b, grid, w, d) : r9::block_begin_weighted(un, b, grid, w);
                  ASSERT_EQ(r9::block_begin32(un, rows, wgs, b, grid, w, d), want)
                      << "block " << b << ", K " << k << ", rows " << rows << ", planes " << planes << ", grid " << grid
                      << ", w " << w << ", d " << d;
                  if (b == grid) continue;
                  const u64 ub = want, ue = d ? r9::block_begin_light(un, rows, wgs, b + 1, grid, w, d)
                                              : r9::block_begin_weighted(un, b + 1, grid, w);
                  for (u64 u = ub; u < ue;) {
                    const r9::Segment s64 = r9::segment_at(un, u, ue);
                    const r9::Segment s32 = r9::segment_at32(un, static_cast<u32>(u), static_cast<u32>(ue));
                    ASSERT_EQ(s32.plane, s64.plane);
                    ASSERT_EQ(s32.k0, s64.k0);
                    ASSERT_EQ(s32.a0, s64.a0);
                    ASSERT_EQ(s32.s0, s64.s0);
                    ASSERT_EQ(s32.nsteps, s64.nsteps);
                    u += s64.nsteps;
                  }
                }
              }
  EXPECT_GT(checked, 1000);
  EXPECT_TRUE(r9::range_fits32(r9::units_rows(1172, 2300, 1, 4, 64), 8, 132)) << "the max case's split fits";
  EXPECT_FALSE(r9::range_fits32(r9::units_rows(16384, 16384, 8, 4, 64), 64, 132));
}

// r51, r52's model at the max case's shape (1150 rows, K = 2300, one plane, 132 blocks, a segment 8 stages): when a
// stage of the last row tile (two warpgroups idle) truly costs what the discount says, the light split's costliest
// block is cheaper than r46's split's, which still counts those stages as full ones.
TEST(Abc471gWgmmaEmu, LightSplitEvensTheLightStagesOut) {
  const r9::Units un = r9::units_rows(1150, 2300, 1, 4, 64);
  const u32 grid = 132, w = 8;
  const u64 tm = un.per_plane / (static_cast<u64>(un.tn) * un.steps);
  // The costliest block in eighths of a stage, when a light stage costs `light` eighths.
  const auto costliest = [&](u32 d, u64 light) {
    u64 hi = 0;
    for (u32 b = 0; b < grid; ++b) {
      const u64 ub = d ? r9::block_begin_light(un, 1150, 4, b, grid, w, d) : r9::block_begin_weighted(un, b, grid, w);
      const u64 ue = d ? r9::block_begin_light(un, 1150, 4, b + 1, grid, w, d) : r9::block_begin_weighted(un, b + 1, grid, w);
      u64 c = 0;
      for (u64 u = ub; u < ue;) {
        const r9::Segment s = r9::segment_at(un, u, ue);
        u += s.nsteps;
        c += 8 * w + s.nsteps * (s.k0 == (tm - 1) * un.bm ? light : 8u);
      }
      hi = std::max(hi, c);
    }
    return hi;
  };
  EXPECT_EQ(r9::active_warpgroups(1150, static_cast<u32>((tm - 1) * un.bm), 4), 2u);
  for (const u32 d : {1u, 2u}) {
    const u64 light = 8 - 2 * d;
    EXPECT_LT(costliest(d, light), costliest(0, light)) << "discount " << d;
  }
}

TEST(Abc471gWgmmaEmu, EmulatedKernelMatchesTheDirectCombine) {
  u64 seed = 5;
  for (const u32 k : {1u, 63u, 129u, 200u, 300u})
    for (const u64 limit : {u64{4}, u64{300}, u64{1} << 20}) {
      const u32 kp = gp::padded_k(k);
      const ab::Problem p = gp::testing::random_problem(5, k, 1, 3 + k, 11 + k);
      const std::vector<u64> t = random_table(k, kp, limit, ++seed);
      const ab::Answer want = gp::combine_direct(t, kp, p);
      for (const bool ss : {false, true})
        for (const u32 wgs : {2u, 4u})
          for (const u32 bk : {64u, 128u})
            for (const u32 grid : {1u, 7u, 264u}) {
              EXPECT_EQ(emulate(t, kp, p, ss, wgs, bk, grid, true), want)
                  << "K = " << k << ", counts < " << limit << ", " << (ss ? "ss" : "rs") << ", " << wgs
                  << " warpgroups, " << bk << " bytes per stage, grid " << grid;
            }
      EXPECT_EQ(emulate(t, kp, p, false, 2, 64, 5, false), want) << "K = " << k << ", every plane (no maximum)";
    }
}

TEST(Abc471gWgmmaEmu, PlanesFollowTheGemmLayout) {
  const u32 kp = 128;
  std::vector<u64> t(kp * kp, 0);
  t[5] = 127;
  t[6] = 128;
  t[7] = (u64{1} << 23) - 1;
  int np = 0;
  const std::vector<std::uint8_t> pl = gp::gemm_planes(t, kp, &np);
  ASSERT_EQ(np, 3);
  EXPECT_EQ(pl[5], 127);
  EXPECT_EQ(pl[kp * kp + 5], 0);
  EXPECT_EQ(pl[6], 0);
  EXPECT_EQ(pl[kp * kp + 6], 1);
  EXPECT_EQ(pl[7], 127);
  EXPECT_EQ(pl[kp * kp + 7], 255);
  EXPECT_EQ(pl[2 * kp * kp + 7], 255);
}

}  // namespace

namespace {

// Shared-memory wavefronts of one warp's 4-byte loads at these byte addresses: per bank, the number of
// distinct words (a word read by several lanes is one broadcast).
int wavefronts(const std::vector<u32>& byte_addr) {
  int worst = 0;
  for (u32 bank = 0; bank < 32; ++bank) {
    std::vector<u32> words;
    for (u32 a : byte_addr)
      if ((a / 4) % 32 == bank && std::find(words.begin(), words.end(), a / 4) == words.end()) words.push_back(a / 4);
    worst = std::max(worst, static_cast<int>(words.size()));
  }
  return worst;
}

}  // namespace

// r11: rs's fragment loads (a_fragment_rs, one word per lane from the copy of its row & 3) are conflict-free
// with the padded copy stride at every kp and row, and 4-way conflicted without it (what ncu measured of r10:
// 3.7-way on average).
TEST(Abc471gWgmmaEmu, PaddedCopiesMakeFragmentLoadsConflictFree) {
  for (u32 kp = 128; kp <= 4096; kp += 128)
    for (const int pad : {0, 1})
      for (u32 row0 = 0; row0 < 64; row0 += 16)  // a warp's first fragment row (16 warp + 64 wg + k0: any multiple of 16)
        for (u32 b = 0; b < 128; b += 32)
          for (u32 word = 0; word < 4; ++word) {  // fr[0..3]: words 0, 2, 4, 6 past o / 4
            std::vector<u32> addr;
            for (u32 lane = 0; lane < 32; ++lane) {
              const u32 g = lane >> 2, q = lane & 3, row = row0 + g, o = row + b + 4 * q;
              addr.push_back((row & 3) * r9::copy_stride(kp, pad) + 4 * ((o >> 2) + 2 * word));
            }
            const int w = wavefronts(addr);
            if (pad) {
              ASSERT_EQ(w, 1) << "kp " << kp << ", row0 " << row0 << ", b " << b;
            } else {
              ASSERT_EQ(w, 4) << "kp " << kp << " (the unpadded stride is a multiple of 32 words)";
            }
          }
  EXPECT_GE(r9::smem_bytes(2304, false, 4, 64), 3 * r9::copy_stride(2304, 1) + r9::v_bytes(2304) + 4 * 128 * 64);
}

namespace {

// r33's skewed product emulated on the CPU with the kernel's own index math (r09_wgmma_math.hpp "r33": the rows list,
// units_rows, a_fragment_skew from V's byte-shifted copies, skew_slot / skew_span / skew_answer and the windows, one
// copy a quad lane, kept across a block's segments and left zero; the fallback of a tile wider than the window).
// The planes are skewed as the histograms write them (skew_col); rows >= K hold garbage (the kernel reads them and
// drops their sums), columns >= K read as zeros (the TMA map's bounds).
ab::Answer emulate_skew(const std::vector<u64>& table, u32 kp, const ab::Problem& p, u32 grid, bool* fell_back, u32 wgs = 4,
                        u32 weight = 0) {
  const u32 K = p.k, bk = 64, WIN = r9::skew_window(wgs);
  int np = 0;
  const std::vector<std::uint8_t> flat = gp::gemm_planes(table, kp, &np);
  std::vector<std::uint8_t> planes(flat.size(), 0xA5);
  const std::size_t cells = static_cast<std::size_t>(kp) * kp;
  for (int j = 0; j < np; ++j)
    for (u32 a = 0; a < K; ++a)
      for (u32 b = 0; b < K; ++b)
        planes[j * cells + static_cast<std::size_t>(a) * kp + gp::skew_col(a, b, K)] = flat[j * cells + static_cast<std::size_t>(a) * kp + b];
  u64 mx = 0;
  for (u32 a = 0; a < K; ++a)
    for (u32 b = 0; b < K; ++b) mx = std::max(mx, table[static_cast<std::size_t>(a) * kp + b]);
  std::vector<u32> rows;
  for (u32 x = 0; x < K; ++x)
    if (p.v[x] == 0) rows.push_back(x);
  const u32 n = static_cast<u32>(rows.size());
  const u32 vb = r9::v_bytes(kp);
  std::vector<u32> v32(vb / 4);
  for (u32 i = 0; i < vb; ++i) v32[i / 4] |= static_cast<u32>(p.v[i % K]) << (8 * (i % 4));
  std::vector<std::vector<u32>> copies(4, std::vector<u32>(vb / 4, 0));
  for (u32 c = 0; c < 4; ++c)
    for (u32 j = 0; j + 1 < vb / 4; ++j) copies[c][j] = r9::window4(v32.data(), 4 * j + c);
  ab::Answer ans(K);
  const u32 a0v = gp::first_element(p);
  for (u32 k = 0; k < K; ++k) ans[k] = p.v[(a0v + k) % K];
  if (n == 0) return ans;  // the launcher launches nothing
  const int run = r9::planes_to_run(np, true, mx, LOW_BITS);
  const r9::Units un = r9::units_rows(n, K, run, wgs, bk);
  const u32 nc = r9::skew_copies(kp);
  for (u32 blk = 0; blk < grid; ++blk) {
    std::vector<u32> win(nc * WIN, 0);  // the block's windows (zeroed at its start)
    const u64 ub = r9::block_begin_weighted(un, blk, grid, weight), ue = r9::block_begin_weighted(un, blk + 1, grid, weight);
    for (u64 u = ub; u < ue;) {
      const r9::Segment sg = r9::segment_at(un, u, ue);
      EXPECT_GT(sg.nsteps, 0u);
      if (sg.nsteps == 0) return ans;
      u += sg.nsteps;
      EXPECT_LT(sg.k0, n);
      const std::uint8_t* P = planes.data() + static_cast<std::size_t>(sg.plane) * cells;
      std::vector<u32> D(wgs * 64 * 128, 0);  // [m][n] of the tile
      for (u32 it = 0; it < sg.nsteps; ++it)
        for (u32 h = 0; h < bk / 32; ++h) {
          const u32 b = (sg.s0 + it) * bk + 32 * h;
          for (u32 t = 0; t < wgs * 128; ++t) {
            const u32 wg = t / 128, w = (t % 128) / 32, g = (t % 32) / 4, q = t % 4;
            const u32 m_lo = sg.k0 + 64 * wg + 16 * w + g;
            if (m_lo >= n) continue;  // both rows past the list: their sums are dropped (the emulation skips them)
            const u32 x_lo = m_lo < n ? rows[m_lo] : 0, x_hi = m_lo + 8 < n ? rows[m_lo + 8] : 0;
            check_words((std::max(x_lo, x_hi) + b + 4 * q) / 4 + 4, v32.size() - 1);
            u32 fr[4];
            r9::a_fragment_skew(copies[x_lo & 3].data(), x_lo, copies[x_hi & 3].data(), x_hi, b, q, fr);
            const u32 ml = 64 * wg + 16 * w + g, mh = ml + 8;
            for (u32 nn = 0; nn < 128; ++nn) {
              const u32 a = sg.a0 + nn;
              EXPECT_LT(a, kp);
              for (u32 e = 0; e < 4; ++e) {  // a0 (g, 4q+e), a1 (g+8, 4q+e), a2 (g, 16+4q+e), a3 (g+8, 16+4q+e)
                const u32 c0 = b + 4 * q + e, c1 = c0 + 16;
                const u32 p0 = c0 < K ? P[static_cast<std::size_t>(a) * kp + c0] : 0, p1 = c1 < K ? P[static_cast<std::size_t>(a) * kp + c1] : 0;
                D[ml * 128 + nn] += ((fr[0] >> (8 * e)) & 255) * p0 + ((fr[2] >> (8 * e)) & 255) * p1;
                D[mh * 128 + nn] += ((fr[1] >> (8 * e)) & 255) * p0 + ((fr[3] >> (8 * e)) & 255) * p1;
              }
            }
          }
        }
      // skew_sums, thread by thread, then the windows' flush
      const u32 base = rows[sg.k0], last = rows[std::min(sg.k0 + un.bm, n) - 1];
      const u32 span = r9::skew_span(base, last);
      const bool fits = span <= WIN;
      if (!fits) *fell_back = true;
      const int shift = gp::plane_shift(static_cast<int>(sg.plane), LOW_BITS);
      for (u32 m = 0; m < un.bm; ++m)
        for (u32 nn = 0; nn < 128; ++nn) {
          const u32 row = sg.k0 + m, a = sg.a0 + nn, q = (nn % 8) / 2;  // acc_col(q, e) = 8 (e / 4) + 2 q + (e & 1)
          const u32 d = D[m * 128 + nn];
          if (row >= n || a >= K || d == 0) continue;
          const u32 x = rows[row];
          if (fits) {
            const u32 slot = r9::skew_slot(x, base, sg.a0, a);
            EXPECT_LT(slot, span);
            win.at((nc == 4 ? q * WIN : 0) + slot) += d;
          } else {
            ans[x >= a ? x - a : x + K - a] += static_cast<u64>(d) << shift;
          }
        }
      if (fits)
        for (u32 w = 0; w < span; ++w) {
          u64 s = 0;
          for (u32 c = 0; c < nc; ++c) s += std::exchange(win[c * WIN + w], 0u);
          if (s) ans.at(r9::skew_answer(w, base, sg.a0, K)) += s << shift;
        }
      for (u32 v : win) EXPECT_EQ(v, 0u) << "a window entry outside the span";
    }
  }
  return ans;
}

}  // namespace

TEST(Abc471gWgmmaEmu, SkewedProductMatchesTheDirectCombine) {
  u64 seed = 7;
  for (const u32 k : {1u, 2u, 63u, 129u, 300u})
    for (const double ratio : {0.0, 0.3, 0.5, 0.9, 1.0})
      for (const u64 limit : {u64{4}, u64{300}, u64{1} << 20}) {
        const u32 kp = gp::padded_k(k);
        ab::Problem p = gp::testing::random_problem(5, k, 1, 3 + k, 11 + k);
        std::mt19937_64 g(++seed);
        for (auto& v : p.v) v = (g() % 1000) < ratio * 1000 ? 1 : 0;
        const std::vector<u64> t = random_table(k, kp, limit, ++seed);
        const ab::Answer want = gp::combine_direct(t, kp, p);
        for (const u32 wgs : {2u, 4u})
          for (const u32 grid : {1u, 7u, 132u}) {
            bool fell = false;
            const u32 weight = grid == 7 ? 8 : 0;  // r46's weighted split
            EXPECT_EQ(emulate_skew(t, kp, p, grid, &fell, wgs, weight), want)
                << "K = " << k << ", vowel ratio " << ratio << ", counts < " << limit << ", grid " << grid << ", " << wgs
                << " warpgroups, weight " << weight;
            EXPECT_FALSE(fell) << "K = " << k << ": a tile wider than the window";
          }
      }
}

// A K where the rows with V[x] = 0 lie far apart: a tile's span exceeds the window, and its entries go to the answer
// one by one (the fallback), exact as well.
TEST(Abc471gWgmmaEmu, SkewedProductFallsBackWhereTheRowsSpanMoreThanTheWindow) {
  const u32 k = 2300, kp = gp::padded_k(k);
  ab::Problem p = gp::testing::random_problem(5, k, 1, 3, 4);
  for (auto& v : p.v) v = 1;
  p.v[0] = p.v[1001] = p.v[2299] = 0;
  std::vector<u64> t(static_cast<std::size_t>(kp) * kp, 0);
  std::mt19937_64 g(99);
  for (u32 a = 0; a < k; ++a)
    for (u32 b = 0; b < k; ++b) t[static_cast<std::size_t>(a) * kp + b] = g() % 3;
  t[5 * kp + 7] = 1000;  // two planes
  for (const u32 wgs : {2u, 4u}) {
    bool fell = false;
    EXPECT_EQ(emulate_skew(t, kp, p, 132, &fell, wgs), gp::combine_direct(t, kp, p)) << wgs << " warpgroups";
    EXPECT_TRUE(fell);
  }
}

TEST(Abc471gWgmmaEmu, SkewColumnsAreARotationOfEachRow) {
  for (const u32 k : {1u, 5u, 2300u}) {
    for (u32 a = 0; a < k; a += (k > 100 ? 37 : 1)) {
      std::vector<int> seen(k, 0);
      for (u32 b = 0; b < k; ++b) {
        const u32 d = gp::skew_col(a, b, k);
        ASSERT_LT(d, k);
        EXPECT_EQ((a + d) % k, b);
        ++seen[d];
      }
      for (u32 d = 0; d < k; ++d) EXPECT_EQ(seen[d], 1) << "K " << k << ", row " << a;
    }
  }
}

// r37: the partition kernel's rotated cell is row a's cell at the skewed column, for every pair of a few K (kp: K
// rounded up to 128, and kp = K where K is a multiple of 128).
TEST(Abc471gWgmmaEmu, RotatedCellIsTheSkewedColumn) {
  for (const u32 k : {1u, 2u, 5u, 37u, 128u, 2300u, 4096u}) {
    const u32 kp = gp::padded_k(k);
    for (u32 a = 0; a < k; a += (k > 300 ? 13 : 1))
      for (u32 b = 0; b < k; ++b) {
        const u32 cell = gp::rotated_cell(a, b, k, kp - 1);
        ASSERT_EQ(cell, a * kp + gp::skew_col(a, b, k)) << "K " << k << ", a " << a << ", b " << b;
        ASSERT_EQ(cell / kp, a);
      }
  }
}

// r35: H written as the kernel writes it (hankel_entry from V2's words), read as the tensor cores read a no-swizzle
// K-major A descriptor with r35's offsets (hankel_offset), at the entry the kernel's running index reaches
// (hankel_start per segment, hankel_advance per stage): every element of every warpgroup's 64 x 32 operand of every
// stage is W[k][b] = V[(k + b) mod K], and no read leaves H. K off the tile sizes, small (steps of 64 wrap more than
// once per K) and the max case's.
TEST(Abc471gWgmmaEmu, HankelViewIsTheCirculant) {
  std::mt19937_64 g(35);
  for (const u32 k : {1u, 2u, 5u, 63u, 64u, 65u, 127u, 129u, 300u, 2300u, 2301u}) {
    const u32 kp = gp::padded_k(k);
    std::vector<unsigned char> v(k);
    for (auto& x : v) x = static_cast<unsigned char>(g() & 1);
    std::vector<u32> v2((r9::v_bytes(kp) + 3) / 4, 0);
    auto* v2b = reinterpret_cast<unsigned char*>(v2.data());
    for (u32 i = 0; i < r9::v_bytes(kp); ++i) v2b[i] = v[i % k];
    std::vector<unsigned char> h(r9::hankel_bytes(kp));
    for (u32 p = 0; p < r9::hankel_rows(kp); ++p) {
      ASSERT_LT((p + 12) / 4 + 1, v2.size()) << "hankel_entry reads past V2";
      u32 e[4];
      r9::hankel_entry(v2.data(), p, e);
      for (u32 w = 0; w < 4; ++w)
        for (u32 b = 0; b < 4; ++b) h[16 * p + 4 * w + b] = static_cast<unsigned char>(e[w] >> (8 * b));
    }
    const u32 stages = (k + 63) / 64, row_tiles = (k + 255) / 256 * 4;  // 256-row blocks may overhang kp
    std::size_t bad = 0;
    for (u32 wt = 0; wt < row_tiles; ++wt) {
      const u32 k0 = 64 * wt;
      for (u32 s0 : {0u, stages / 2}) {  // a segment that starts at the tile's start, one in its middle
        u32 t = r9::hankel_start(k0, 64 * s0, k);
        for (u32 st = s0; st < stages; ++st) {
          for (u32 half = 0; half < 2; ++half)
            for (u32 i = 0; i < 64; ++i)
              for (u32 j = 0; j < 32; ++j) {
                const u32 off = r9::hankel_offset(t + 32 * half, i, j);
                ASSERT_LT(off, h.size()) << "K " << k << ": the descriptor reads past H";
                const u32 b = 64 * st + 32 * half + j;
                if (h[off] != v[(k0 + i + b) % k] && bad++ < 5)
                  ADD_FAILURE() << "K " << k << ", rows from " << k0 << ", stage " << st << ": element (" << i << ", " << j
                                << ")";
              }
          t = r9::hankel_advance(t, 64 % k, k);
          ASSERT_LT(t, k);
        }
      }
    }
    EXPECT_EQ(bad, 0u) << "K " << k;
  }
  // The shared memory: H beside the ring fits 227 KiB up to HANKEL_MAX_KP and not one kp step beyond.
  EXPECT_LE(r9::tma_hankel_smem_bytes(r9::HANKEL_MAX_KP, r9::TMA_DEEPER_STAGES), 232'448u);
  EXPECT_GT(r9::tma_hankel_smem_bytes(r9::HANKEL_MAX_KP + 128, r9::TMA_DEEPER_STAGES), 232'448u);
  EXPECT_EQ(r9::tma_hankel_smem_bytes(2304, r9::TMA_DEEPER_STAGES), 69'888u + 18u * 2304u);
  EXPECT_EQ(r9::HANKEL_MAX_KP, 8960u);
  for (const std::uint32_t nst : r9::HANKEL_SLOTS) {  // r36's groups in flight: the copies six stages ahead, slots to spare
    const std::uint32_t most = r9::hankel_max_kp(nst);
    EXPECT_LE(r9::tma_hankel_smem_bytes(most, nst), 232'448u) << nst;
    EXPECT_GT(r9::tma_hankel_smem_bytes(most + 128, nst), 232'448u) << nst;
    EXPECT_EQ(r9::hankel_ahead(nst), 6u) << nst;
    EXPECT_EQ(nst - r9::hankel_ahead(nst), r9::hankel_in_flight(nst) + 1) << nst;
  }
  EXPECT_EQ(r9::hankel_in_flight(8), 1u);
  EXPECT_EQ(r9::hankel_in_flight(10), 3u);
  EXPECT_EQ(r9::hankel_in_flight(14), 7u);
}

// The combine's trace as the host reads it (combine_trace.cpp): two blocks written as the kernel writes them, one block
// that did not run (zeros), and a block whose clocks run backwards (refused).
TEST(Abc471gCombineTrace, ParsesAndSummarisesTheBlocksWords) {
  namespace gp2 = joseki::abc471g::pairs;
  using r9::COMBINE_TRACE_SLOTS;
  std::vector<u64> w(3 * COMBINE_TRACE_SLOTS, 0);
  const auto put = [&](u32 b, u64 gt0, u64 gt1, u64 c0, u64 ready, u64 go, u64 c1, u64 loops, u64 epis, u64 sm, u64 segs,
                       u64 stages) {
    u64* t = w.data() + b * COMBINE_TRACE_SLOTS;
    t[r9::TRACE_GT_ENTRY] = gt0;
    t[r9::TRACE_GT_END] = gt1;
    t[r9::TRACE_CLK_ENTRY] = c0;
    t[r9::TRACE_CLK_READY] = ready;
    t[r9::TRACE_CLK_GO] = go;
    t[r9::TRACE_CLK_END] = c1;
    t[r9::TRACE_CLK_LOOPS] = loops;
    t[r9::TRACE_CLK_EPILOGUES] = epis;
    t[r9::TRACE_WHERE] = sm | segs << 16 | stages << 32;
  };
  // 2 GHz: 20 us = 40,000 cycles
  put(0, 1'000'000, 1'020'000, 500, 2'500, 10'500, 40'500, 30'000, 8'000, 7, 2, 24);
  put(2, 1'004'000, 1'020'000, 9'000, 11'000, 11'000, 41'000, 24'000, 4'000, 9, 1, 25);  // block 1 did not run
  const std::vector<gp2::TraceBlock> b = gp2::parse_combine_trace(w);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].block, 0u);
  EXPECT_EQ(b[1].block, 2u);
  EXPECT_EQ(b[0].sm, 7u);
  EXPECT_EQ(b[0].segments, 2u);
  EXPECT_EQ(b[0].stages, 24u);
  EXPECT_NEAR(b[0].entry, 0.0, 1e-9);
  EXPECT_NEAR(b[1].entry, 4.0, 1e-9);
  EXPECT_NEAR(b[0].ready, 1.0, 1e-9);  // 2,000 cycles at 2 GHz
  EXPECT_NEAR(b[0].go, 5.0, 1e-9);
  EXPECT_NEAR(b[0].end, 20.0, 1e-9);
  EXPECT_NEAR(b[1].go, 5.0, 1e-9);
  EXPECT_NEAR(b[0].loops, 15.0, 1e-9);
  EXPECT_NEAR(b[0].epilogues, 4.0, 1e-9);
  const gp2::TraceSummary s = gp2::summarize_trace(b);
  EXPECT_EQ(s.blocks, 2u);
  EXPECT_NEAR(s.entry_spread, 4.0, 1e-9);
  EXPECT_NEAR(s.last_go, 5.0, 1e-9);
  EXPECT_NEAR(s.end_max, 20.0, 1e-9);
  EXPECT_NEAR(s.end_one_segment, 20.0, 1e-9);
  EXPECT_NEAR(s.end_two_segments, 20.0, 1e-9);
  EXPECT_NEAR(s.stage, (15.0 / 24 + 12.0 / 25) / 2, 1e-9);
  EXPECT_NEAR(s.epilogue, (2.0 + 2.0) / 2, 1e-9);
  EXPECT_NE(gp2::describe_trace(s).find("2 blocks"), std::string::npos);
  EXPECT_EQ(gp2::trace_csv_rows("r46", b).substr(0, 9), "r46,0,7,2");
  w[2 * COMBINE_TRACE_SLOTS + r9::TRACE_CLK_GO] = 1;  // before its entry: backwards
  EXPECT_THROW(gp2::parse_combine_trace(w), joseki::RunError);
  EXPECT_TRUE(gp2::parse_combine_trace(std::vector<u64>(COMBINE_TRACE_SLOTS, 0)).empty());
  // From a mark on the global timer: the first entry and the last end over the blocks that wrote both.
  const std::optional<gp2::TraceFromMark> f = gp2::trace_from_mark(w, 970'000);
  ASSERT_TRUE(f.has_value());
  EXPECT_NEAR(f->first_entry, 30.0, 1e-9);
  EXPECT_NEAR(f->last_end, 50.0, 1e-9);
  EXPECT_FALSE(gp2::trace_from_mark(w, 1'002'000).has_value()) << "an entry before the mark: not this solve's";
  EXPECT_FALSE(gp2::trace_from_mark(std::vector<u64>(COMBINE_TRACE_SLOTS, 0), 0).has_value()) << "no block wrote";
  EXPECT_FALSE(gp2::trace_from_mark(std::vector<u64>(COMBINE_TRACE_SLOTS - 1, 5), 0).has_value()) << "a partial block";
  std::vector<u64> no_end(COMBINE_TRACE_SLOTS, 0);
  no_end[r9::TRACE_GT_ENTRY] = 1'000'000;  // entered, never wrote its end: left out
  EXPECT_FALSE(gp2::trace_from_mark(no_end, 0).has_value());
  no_end.insert(no_end.end(), w.begin(), w.begin() + COMBINE_TRACE_SLOTS);  // beside block 0 of w: only block 0 counts
  const std::optional<gp2::TraceFromMark> g = gp2::trace_from_mark(no_end, 970'000);
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR(g->first_entry, 30.0, 1e-9);
  EXPECT_NEAR(g->last_end, 50.0, 1e-9);
}

// The count's trace (PairsConfig::trace_count): partition blocks' (entry, end, SM) words, then histogram blocks' (entry,
// counted, end, SM), read from a mark; blocks that did not run are left out; the summary's spreads, its SMs' last ends
// and the latest SMs; words that contradict each other are refused.
TEST(Abc471gWgmmaEmu, CountTraceParsesAndSummarises) {
  namespace gp2 = joseki::abc471g::pairs;
  const u32 part = 4;  // room for four partition blocks; block 2 did not run
  std::vector<u64> w(part * gp2::COUNT_TRACE_PARTITION_WORDS + 3 * gp2::COUNT_TRACE_HIST_WORDS, 0);
  const u64 mark = 1'000'000;
  const auto put_part = [&](u32 b, u64 entry, u64 end, u64 sm) {
    w[b * 3] = mark + entry;
    w[b * 3 + 1] = mark + end;
    w[b * 3 + 2] = sm;
  };
  put_part(0, 1'000, 20'000, 7);
  put_part(1, 2'000, 25'000, 7);  // SM 7's last end: 25 us
  put_part(3, 1'500, 18'000, 3);
  const auto put_hist = [&](u32 b, u64 entry, u64 counted, u64 end, u64 sm) {
    u64* h = w.data() + part * 3 + b * 4;
    h[0] = mark + entry;
    h[1] = mark + counted;
    h[2] = mark + end;
    h[3] = sm;
  };
  put_hist(0, 19'000, 27'000, 30'000, 3);
  put_hist(2, 21'000, 28'000, 33'000, 7);  // histogram block 1 did not run
  const std::vector<gp2::CountTraceBlock> blocks = gp2::parse_count_trace(w, part, mark);
  ASSERT_EQ(blocks.size(), 5u);
  EXPECT_FALSE(blocks[0].histogram);
  EXPECT_EQ(blocks[2].block, 3u);
  EXPECT_TRUE(blocks[3].histogram);
  EXPECT_EQ(blocks[4].block, 2u);
  EXPECT_NEAR(blocks[4].counted, 28.0, 1e-9);
  const gp2::CountTraceSummary s = gp2::summarize_count_trace(blocks);
  EXPECT_EQ(s.partition_blocks, 3u);
  EXPECT_EQ(s.hist_blocks, 2u);
  EXPECT_EQ(s.sms, 2u);
  EXPECT_NEAR(s.part_entry_first, 1.0, 1e-9);
  EXPECT_NEAR(s.part_entry_last, 2.0, 1e-9);
  EXPECT_NEAR(s.part_end_min, 18.0, 1e-9);
  EXPECT_NEAR(s.part_end_median, 20.0, 1e-9);
  EXPECT_NEAR(s.part_end_max, 25.0, 1e-9);
  EXPECT_NEAR(s.part_run_median, 19.0, 1e-9);  // 19, 23, 16.5
  EXPECT_NEAR(s.sm_end_min, 18.0, 1e-9);
  EXPECT_NEAR(s.sm_end_max, 25.0, 1e-9);
  EXPECT_EQ(s.late_sms, (std::vector<u32>{7, 3}));
  EXPECT_NEAR(s.hist_counted_max, 28.0, 1e-9);
  EXPECT_NEAR(s.hist_end_median, 31.5, 1e-9);
  EXPECT_NE(gp2::describe_count_trace(s).find("latest SMs 7 3"), std::string::npos) << gp2::describe_count_trace(s);
  EXPECT_EQ(gp2::count_trace_csv_rows("r", {blocks[0]}), "r,partition,0,7,1.000,20.000,20.000\n");
  EXPECT_EQ(gp2::describe_count_trace(gp2::summarize_count_trace({})), "no block traced");
  // Refused: an end before its entry, an entry before the mark, a histogram counted after its end, too few words.
  std::vector<u64> bad = w;
  bad[1] = mark + 500;  // block 0 ends before it entered
  EXPECT_THROW(gp2::parse_count_trace(bad, part, mark), joseki::RunError);
  EXPECT_THROW(gp2::parse_count_trace(w, part, mark + 5'000), joseki::RunError);
  bad = w;
  bad[part * 3 + 1] = mark + 31'000;  // histogram block 0 counted after its end
  EXPECT_THROW(gp2::parse_count_trace(bad, part, mark), joseki::RunError);
  EXPECT_THROW(gp2::parse_count_trace(std::vector<u64>(5, 0), part, mark), joseki::RunError);
}

// r49: the host's image of V's four copies is, byte for byte, what load_v builds in shared memory (the emulation's
// copies: V2 = V twice over, then V2 shifted by 1, 2, 3 bytes, copy_stride(kp, 1) apart), at K off and on the tiles.
TEST(Abc471gWgmmaEmu, VCopiesImageIsWhatThePrologueBuilds) {
  std::mt19937_64 g(3);
  for (const u32 k : {1u, 3u, 37u, 128u, 130u, 1000u, 2300u}) {
    const u32 kp = gp::padded_k(k);
    std::vector<std::uint8_t> v(k);
    for (auto& x : v) x = static_cast<std::uint8_t>(g() & 1);
    const std::vector<std::uint8_t> img = gp::v_copies_image(v, kp);
    const u32 vb = r9::v_bytes(kp), stride = r9::copy_stride(kp, 1);
    ASSERT_EQ(img.size(), 3u * stride + vb);
    ASSERT_EQ(img.size() % 16, 0u) << "copied in 16-byte loads";
    std::vector<u32> v32(vb / 4, 0);
    for (u32 i = 0; i < vb; ++i) v32[i / 4] |= static_cast<u32>(v[i % k]) << (8 * (i % 4));
    for (u32 c = 0; c < 4; ++c)
      for (u32 j = 0; j + 1 < vb / 4; ++j) {  // load_v's words (the last word of a shifted copy is never read)
        const u32 want = r9::window4(v32.data(), 4 * j + c);
        u32 got = 0;
        for (u32 t = 0; t < 4; ++t) got |= static_cast<u32>(img[c * stride + 4 * j + t]) << (8 * t);
        ASSERT_EQ(got, want) << "K = " << k << ", copy " << c << ", word " << j;
      }
  }
  EXPECT_THROW(gp::v_copies_image({}, 128), std::invalid_argument);
  EXPECT_THROW(gp::v_copies_image(std::vector<std::uint8_t>(200, 1), 128), std::invalid_argument);
}
