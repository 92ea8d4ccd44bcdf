// The register-blocked direct kernel of g10..g15 (lane word W = 32 or 64 bits, WPT words per
// thread, A from global memory or generated in the kernel; g14/g15 set LEAN flags that swap the
// table build and the epilogue for warp-level ones from lean.cuh). The rung files instantiate it
// and say what changed; this file says how it works.
//
// Lanes: W = ceil(K / L) words of L lanes; lane b of word w is shift w + W*b (strided lanes, see
//   g09), so the lane word of word w at element A is row A + w of one table T.
// Streams: 8 threads (G) share one stream of elements; thread t owns words t, t+8, .., t+8(WPT-1)
//   (8 x 9 = 72 words of 32 lanes = 2304 shifts). A warp holds 4 streams.
// Shared memory: T in COPIES interleaved copies (row u, copy c at COPIES*u + c): the 4 streams of
//   a warp read different rows, and copy c = the stream's place in the warp (half-warp for 64-bit
//   words) puts their loads in disjoint banks: conflict-free. Rows [K + SPAN, K + 2 SPAN) are zero:
//   the "sentinel" A value K + SPAN reads all-zero words (no vowel anywhere), used for the element
//   before the very first one and to pad past the block's range, so every group has 32 elements
//   and padding adds no rise.
// Tiles: a block owns elements [b0, b1) and walks them in tiles of 32 elements per stream,
//   double-buffered in shared memory (one barrier per tile); each stream's 33 entries (the element
//   before its group + its 32) sit at a stride of 33 words so the 4 streams of a warp read
//   different banks. The next tile is loaded (or generated) into registers while this one is
//   processed.
// Counting: per word, 33 table loads give 16 fused pair rises (pair_rise), compress16 adds them to
//   the planes ones..eights and the weight-16 carry ripples into NH high planes: at most 16 rises
//   per group, so NH = 6 planes hold 63 tiles. At the end each thread decodes its lanes into
//   shared-memory answers (shared atomics), and the block adds those to the global answers.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "experiments/abc471g/gpu_direct/common.cuh"
#include "experiments/abc471g/gpu_direct/lean.cuh"
#include "experiments/abc471g/gpu_direct/shared_kernels.hpp"

namespace joseki::abc471g::JK_GPU_NS::blocked {

constexpr int G = 8;                   // threads per element stream
constexpr int GROUP = 32;              // elements per stream per tile (16 fused pairs)
constexpr int GSTRIDE = GROUP + 1;     // a stream's tile entries: the element before + its 32
constexpr int NH = 6;                  // high planes: count / 16 <= tiles <= 63
constexpr int PLANES = 4 + NH;
constexpr std::uint64_t MAX_TILES = (1u << NH) - 1;
constexpr int MAX_THREADS = 256;
// LEAN flags (lean.cuh): 0 for g10..g13; g14 builds the table by warp transposes, g15 also sums the
// four streams of a warp before decoding.
constexpr int LEAN_TRANSPOSE = 1;
constexpr int LEAN_WARP_SUM = 2;

template <class W>
struct Lanes {
  static constexpr int L = 8 * sizeof(W);           // lanes per word
  static constexpr int COPIES = 16 / sizeof(W);     // table copies: 4 (u32), 2 (u64)
};

struct Params {
  u64 n, m, seed, per_block;
  const u32* a;  // A (GlobalA) or null
  const u32* b;
  const u8* v;
  u32* answer;
  u32 k, words, sentinel;
};

template <class W, int WPT>
struct Layout {
  static constexpr u32 SPAN = G * WPT;  // words one stream covers
  static JOSEKI_HD u32 strided_rows(u32 k) { return k + SPAN; }  // rows A + w, A < K, w < SPAN
  static JOSEKI_HD u32 rows(u32 k) { return k + 2 * SPAN; }      // + the sentinel's zero rows
  static JOSEKI_HD u32 sentinel(u32 k) { return k + SPAN; }
  static JOSEKI_HD std::size_t table_bytes(u32 k) {
    return (static_cast<std::size_t>(rows(k)) * Lanes<W>::COPIES * sizeof(W) + 15) / 16 * 16;
  }
  static JOSEKI_HD u32 tile_entries(int threads) { return static_cast<u32>(threads / G) * GSTRIDE; }
  static JOSEKI_HD u32 tile_elems(int threads) { return static_cast<u32>(threads / G) * GROUP; }  // = 4 x threads
  static JOSEKI_HD std::size_t smem_bytes(u32 k, int threads, int lean = 0) {
    return table_bytes(k) + 2ull * tile_entries(threads) * 4 + static_cast<std::size_t>(k) * 4 +
           ((lean & LEAN_TRANSPOSE) ? lean::vrep_words(k) * 4ull : 0ull);  // the V bit string last
  }
};

// ---- where A comes from ------------------------------------------------------------------
// A source gives a thread the values of tile elements tid, tid + nt, tid + 2nt, tid + 3nt (the
// tile has 4 nt elements), tile after tile, and the element before the block.

struct GlobalA {  // A generated on the host, read from global memory
  const u32* a;
  u64 i, b1;
  u32 sentinel;
  u32 nt;
  JK_DEV GlobalA(const Params& p, u64 b0, u64 b1_, int tid, int nt_)
      : a(p.a), i(b0 + static_cast<u64>(tid)), b1(b1_), sentinel(p.sentinel), nt(static_cast<u32>(nt_)) {}
  static JK_DEV u32 before(const Params& p, u64 b0) { return b0 == 0 ? p.sentinel : p.a[b0 - 1]; }
  JK_DEV void next(u32 (&v)[4]) {
    JK_UNROLL
    for (int r = 0; r < 4; ++r) {
      v[r] = i < b1 ? __ldg(a + i) : sentinel;
      i += nt;
    }
  }
};

struct GeneratedA {  // A generated here: LCG state of element i, stepped nt elements at a time
  const u32* b;
  u64 m, i, b1, s, mul, inc;
  u32 k, sentinel;
  u32 nt;
  JK_DEV GeneratedA(const Params& p, u64 b0, u64 b1_, int tid, int nt_)
      : b(p.b), m(p.m), i(b0 + static_cast<u64>(tid)), b1(b1_), k(p.k), sentinel(p.sentinel),
        nt(static_cast<u32>(nt_)) {
    s = lcg_jump(p.seed, i - m);  // mod 2^64: for i < M the value is unused (b_i is taken)
    const Affine st = lcg_power(nt);
    mul = st.mul;
    inc = st.inc;
  }
  static JK_DEV u32 before(const Params& p, u64 b0) {
    if (b0 == 0) return p.sentinel;
    const u64 j = b0 - 1;
    return j < p.m ? p.b[j] : pcg_mod(lcg_jump(p.seed, j - p.m), p.k);
  }
  JK_DEV void next(u32 (&v)[4]) {
    JK_UNROLL
    for (int r = 0; r < 4; ++r) {
      v[r] = i >= b1 ? sentinel : (i < m ? __ldg(b + i) : pcg_mod(s, k));
      s = mul * s + inc;
      i += nt;
    }
  }
};

// ---- device pieces ------------------------------------------------------------------------

template <class W, int WPT>
JK_DEV void build_table(W* table, const Params& p, int tid, int nt) {
  constexpr int L = Lanes<W>::L, C = Lanes<W>::COPIES;
  using LO = Layout<W, WPT>;
  const u32 srows = LO::strided_rows(p.k), rows = LO::rows(p.k);
  for (u32 u = static_cast<u32>(tid); u < rows; u += static_cast<u32>(nt)) {
    W word = 0;
    if (u < srows) {
      u32 j = u % p.k;
      for (int b = 0; b < L; ++b) {
        word |= static_cast<W>(p.v[j] & 1u) << b;
        j += p.words;  // words <= K: one subtraction is the mod
        if (j >= p.k) j -= p.k;
      }
    }
    JK_UNROLL
    for (int c = 0; c < C; ++c) table[C * u + c] = word;
  }
}

// Tile element x (0 <= x < 32 S) belongs to stream x / 32 at entry x % 32 + 1; the last one of a
// stream is also the "element before" (entry 0) of the next stream.
JK_DEV void store_tile(u32* buf, const u32 (&v)[4], int tid, int nt, u32 streams) {
  JK_UNROLL
  for (int r = 0; r < 4; ++r) {
    const u32 x = static_cast<u32>(tid + r * nt);
    const u32 s = x / GROUP, e = x % GROUP + 1;
    buf[s * GSTRIDE + e] = v[r];
    if (e == GROUP && s + 1 < streams) buf[(s + 1) * GSTRIDE] = v[r];
  }
}

// One group of this thread's stream: g[0] is the element before, g[1..32] the group.
template <class W, int WPT>
JK_DEV void process_group(const W* __restrict__ table, const u32* __restrict__ g, u32 t, u32 c,
                          W (&planes)[WPT][PLANES]) {
  constexpr u32 C = Lanes<W>::COPIES;
  u32 base[GROUP + 1];  // row g[e] + t, copy c; word j adds C * G * j (an immediate offset)
  JK_UNROLL
  for (int e = 0; e <= GROUP; ++e) base[e] = C * (g[e] + t) + c;
  JK_UNROLL
  for (int j = 0; j < WPT; ++j) {
    const W* tj = table + C * G * j;
    W d[16];
    W prev = tj[base[0]];
    JK_UNROLL
    for (int m = 0; m < 16; ++m) {
      const W c1 = tj[base[2 * m + 1]], c2 = tj[base[2 * m + 2]];
      d[m] = pair_rise(prev, c1, c2);
      prev = c2;
    }
    const W sixteens = compress16(planes[j][0], planes[j][1], planes[j][2], planes[j][3], d);
    ripple_add_full<4>(planes[j], sixteens);
  }
}

template <class W, int WPT, class Source, int LEAN>
__global__ void __launch_bounds__(MAX_THREADS) kernel(Params p) {
  using LO = Layout<W, WPT>;
  constexpr int L = Lanes<W>::L, C = Lanes<W>::COPIES;
  JK_DYNAMIC_SMEM(unsigned char, smem);
  const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
  const u32 streams = static_cast<u32>(nt / G);
  const u32 tile_n = LO::tile_entries(nt), elems = LO::tile_elems(nt);
  W* s_table = reinterpret_cast<W*>(smem);
  u32* s_tile = reinterpret_cast<u32*>(smem + LO::table_bytes(p.k));  // 2 buffers of tile_n
  u32* s_ans = s_tile + 2 * tile_n;                                    // K block answers
  const u64 b0 = static_cast<u64>(blockIdx.x) * p.per_block;
  const u64 b1 = min_u64(p.n, b0 + p.per_block);
  const u64 tiles = (b1 - b0 + elems - 1) / elems;

  for (u32 kk = static_cast<u32>(tid); kk < p.k; kk += static_cast<u32>(nt)) s_ans[kk] = 0;
  if constexpr ((LEAN & LEAN_TRANSPOSE) != 0) {
    static_assert(sizeof(W) == 4, "the transposed build makes 32-bit rows");
    u32* s_vrep = s_ans + p.k;
    lean::build_vrep(s_vrep, p.v, p.k, tid, nt);
    __syncthreads();  // the V bit string is complete before any warp reads its windows
    lean::build_table_transposed(s_table, C, s_vrep, p.k, p.words, LO::strided_rows(p.k), LO::rows(p.k), tid, nt);
  } else {
    build_table<W, WPT>(s_table, p, tid, nt);
  }
  Source src(p, b0, b1, tid, nt);
  u32 v[4];
  src.next(v);
  store_tile(s_tile, v, tid, nt, streams);
  if (tid == 0) s_tile[0] = Source::before(p, b0);
  if (tiles > 1) src.next(v);
  __syncthreads();  // table, zeroed answers and tile 0 are ready

  const u32 stream = static_cast<u32>(tid / G), t = static_cast<u32>(tid % G);
  const u32 c = static_cast<u32>((tid % 32) / G) % C;  // copy: the stream's place in its (half-)warp
  W planes[WPT][PLANES];
  JK_UNROLL
  for (int j = 0; j < WPT; ++j) {
    JK_UNROLL
    for (int q = 0; q < PLANES; ++q) planes[j][q] = 0;
  }
  for (u64 tile = 0; tile < tiles; ++tile) {
    const u32* cur = s_tile + (tile & 1) * tile_n;
    process_group<W, WPT>(s_table, cur + stream * GSTRIDE, t, c, planes);
    if (tile + 1 < tiles) {  // fill the other buffer (nobody reads it since the last barrier)
      u32* nxt = s_tile + ((tile + 1) & 1) * tile_n;
      store_tile(nxt, v, tid, nt, streams);
      if (tid == 0) nxt[0] = cur[(streams - 1) * GSTRIDE + GROUP];  // this tile's last element
      if (tile + 2 < tiles) src.next(v);
    }
    __syncthreads();  // the next tile is complete; this one is no longer read
  }

  if constexpr ((LEAN & LEAN_WARP_SUM) != 0) {
    JK_UNROLL
    for (int j = 0; j < WPT; ++j)
      lean::warp_sum_decode(planes[j], static_cast<u32>(tid) & 31u, t + G * static_cast<u32>(j), p.words, p.k, s_ans);
  } else {
    JK_UNROLL
    for (int j = 0; j < WPT; ++j) {
      const u32 w = t + G * static_cast<u32>(j);
      if (w < p.words)
        for (int b = 0; b < L; ++b) {
          const u32 kk = w + p.words * static_cast<u32>(b);
          if (kk >= p.k) break;
          const u32 val = lane_value(planes[j], b);
          if (val) atomicAdd(&s_ans[kk], val);
        }
    }
  }
  __syncthreads();  // every stream's counts are in the block's answers
  for (u32 kk = static_cast<u32>(tid); kk < p.k; kk += static_cast<u32>(nt))
    if (s_ans[kk]) atomicAdd(&p.answer[kk], s_ans[kk]);
}

// ---- host side ----------------------------------------------------------------------------

template <class W>
constexpr u32 max_words() {
  return sizeof(W) == 4 ? 72u : 40u;  // 8 threads x 9 words of 32 lanes, 8 x 5 of 64
}
template <class W>
inline u32 words_of(u32 k) {
  return (k + Lanes<W>::L - 1) / Lanes<W>::L;
}

// Calls f.template operator()<WPT>() with the smallest instantiated WPT that covers K.
template <class W, class F>
void with_wpt(u32 k, F&& f) {
  const u32 words = words_of<W>(k);
  if constexpr (sizeof(W) == 4) {
    if (words <= 8) f.template operator()<1>();
    else if (words <= 24) f.template operator()<3>();
    else f.template operator()<9>();
  } else {
    if (words <= 8) f.template operator()<1>();
    else if (words <= 16) f.template operator()<2>();
    else f.template operator()<5>();
  }
}

inline std::string check_block(int block) {
  if (block < 32 || block > MAX_THREADS || block % 32 != 0)
    return "block " + std::to_string(block) + " is not a multiple of 32 in 32..256";
  return "";
}

template <class W>
std::string check_shape(const Shape& sh) {
  if (words_of<W>(sh.k) > max_words<W>())
    return "K = " + std::to_string(sh.k) + " above " + std::to_string(max_words<W>() * Lanes<W>::L) +
           " (8 threads x the largest words-per-thread instantiated)";
  return "";
}

// Elements per block such that a block has at most MAX_TILES tiles.
inline u64 max_per_block(int block) { return MAX_TILES * 4ull * static_cast<u64>(block); }

template <class W>
std::string check_chunked(const Shape& sh, const Config& c) {
  if (std::string why = check_block(c.block); !why.empty()) return why;
  if (std::string why = check_shape<W>(sh); !why.empty()) return why;
  if (c.chunk < 1 || static_cast<u64>(c.chunk) > max_per_block(c.block))
    return "chunk " + std::to_string(c.chunk) + " outside 1.." + std::to_string(max_per_block(c.block)) +
           " (at most 63 tiles of 4 x block elements per block: 6 high counter planes)";
  if ((sh.n + static_cast<u64>(c.chunk) - 1) / static_cast<u64>(c.chunk) > 0x7fffffffull)
    return "chunk " + std::to_string(c.chunk) + ": too many blocks for one grid";
  return "";
}

template <class W, int WPT, class Source, int LEAN>
auto kernel_ptr() {
  return &kernel<W, WPT, Source, LEAN>;
}

template <class W, class Source, int LEAN = 0>
void launch(const DeviceProblem& dp, int block, u64 per_block, CUstream_st* s) {
  with_wpt<W>(dp.shape.k, [&]<int WPT>() {
    using LO = Layout<W, WPT>;
    auto kfn = kernel_ptr<W, WPT, Source, LEAN>();
    const std::size_t smem = LO::smem_bytes(dp.shape.k, block, LEAN);
    JK_CHECK(cudaFuncSetAttribute(kfn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    Params p{};
    p.n = dp.shape.n;
    p.m = dp.shape.m;
    p.seed = dp.seed;
    p.per_block = per_block;
    p.a = dp.d_a;
    p.b = dp.d_b;
    p.v = dp.d_v;
    p.answer = dp.d_answer;
    p.k = dp.shape.k;
    p.words = words_of<W>(dp.shape.k);
    p.sentinel = LO::sentinel(dp.shape.k);
    const u64 blocks = (dp.shape.n + per_block - 1) / per_block;
    JK_CHECK(cudaMemsetAsync(dp.d_answer, 0, dp.shape.k * sizeof(u32), s));  // blocks add into it
    JK_LAUNCH(kfn, static_cast<unsigned>(blocks), block, smem, s, p);
  });
}

// Loads the kernel (lazy module loading) and sets its shared-memory limit.
template <class W, class Source, int LEAN = 0>
void prepare(const Shape& sh, int block) {
  with_wpt<W>(sh.k, [&]<int WPT>() {
    auto kfn = kernel_ptr<W, WPT, Source, LEAN>();
    JK_CHECK(cudaFuncSetAttribute(kfn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(Layout<W, WPT>::smem_bytes(sh.k, block, LEAN))));
    cudaFuncAttributes fa;
    JK_CHECK(cudaFuncGetAttributes(&fa, kfn));
  });
}

// Resident blocks per SM for this K and block size (the one-wave grid of g13).
template <class W, class Source, int LEAN = 0>
int blocks_per_sm(const Shape& sh, int block) {
  int n = 0;
  with_wpt<W>(sh.k, [&]<int WPT>() {
    auto kfn = kernel_ptr<W, WPT, Source, LEAN>();
    const std::size_t smem = Layout<W, WPT>::smem_bytes(sh.k, block, LEAN);
    JK_CHECK(cudaFuncSetAttribute(kfn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    JK_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kfn, block, smem));
  });
  return n;
}

// The one-wave grid of g13, for g14 and g15: elements per block such that SMs x resident blocks
// cover N in equal ranges (more blocks only where a range would exceed MAX_TILES tiles).
template <class W, class Source, int LEAN>
u64 one_wave_per_block(const Shape& sh, int block) {
  int device = 0, sms = 1;
  JK_CHECK(cudaGetDevice(&device));
  JK_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int resident = blocks_per_sm<W, Source, LEAN>(sh, block);
  const u64 wave = static_cast<u64>(sms) * static_cast<u64>(resident < 1 ? 1 : resident);
  const u64 even = (sh.n + wave - 1) / wave;
  return even < max_per_block(block) ? even : max_per_block(block);
}

template <class W>
std::string check_one_wave(const Shape& sh, const Config& c) {
  if (std::string why = check_block(c.block); !why.empty()) return why;
  if (std::string why = check_shape<W>(sh); !why.empty()) return why;
  if ((sh.n + max_per_block(c.block) - 1) / max_per_block(c.block) > 0x7fffffffull)
    return "N = " + std::to_string(sh.n) + ": too many blocks for one grid";
  return "";
}

// The RungOps of a blocked rung, so that its file holds only what it changes (W, the source of A,
// the LEAN options, its sweep). Chunked: `chunk` elements per block (g10..g12); one wave: the grid
// sized to the machine, `chunk` unused (g13..g15). with_prepare: load the kernels ahead of a timed
// pipeline (the rungs the solver or the one-wave sizing launch).
inline std::size_t no_scratch(const Shape&, const Config&) { return 0; }

template <class W, class Source, int LEAN = 0>
RungOps chunked_ops(bool with_prepare) {
  RungOps o;
  o.check = [](const Shape& sh, const Config& c) { return check_chunked<W>(sh, c); };
  o.scratch_bytes = no_scratch;
  o.launch = [](const DeviceProblem& p, const Config& c, CUstream_st* s) {
    launch<W, Source, LEAN>(p, c.block, static_cast<u64>(c.chunk), s);
  };
  if (with_prepare) o.prepare = [](const Shape& sh, const Config& c) { prepare<W, Source, LEAN>(sh, c.block); };
  return o;
}

template <class W, class Source, int LEAN = 0>
RungOps one_wave_ops(std::string sweep_name = {}, std::vector<int> sweep_blocks = {}) {
  RungOps o;
  o.check = [](const Shape& sh, const Config& c) { return check_one_wave<W>(sh, c); };
  o.scratch_bytes = no_scratch;
  o.launch = [](const DeviceProblem& p, const Config& c, CUstream_st* s) {
    launch<W, Source, LEAN>(p, c.block, one_wave_per_block<W, Source, LEAN>(p.shape, c.block), s);
  };
  o.prepare = [](const Shape& sh, const Config& c) { prepare<W, Source, LEAN>(sh, c.block); };
  o.sweep_name = std::move(sweep_name);
  o.sweep_blocks = std::move(sweep_blocks);
  return o;
}

}  // namespace joseki::abc471g::JK_GPU_NS::blocked
