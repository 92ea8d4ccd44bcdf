// The arithmetic the gpu-pairs kernels share with their host reference and tests: the
// generator (LCG jump table, PCG output, division-free mod K), Goldilocks-prime NTT
// butterflies, and the index maps of the tensor-core combiner's fragments. Everything here
// is __host__ __device__ (plain inline functions under g++), so the unit tests run the very
// index math the kernels use. Std headers only: nvcc compiles this (no fmt, no json).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/hd.hpp"

namespace joseki::abc471g::pairs {

// ---- generator ------------------------------------------------------------------------
// Same constants as problem.hpp (checked by a unit test); repeated so that .cu files stay light.
inline constexpr std::uint64_t LCG_MUL = 6364136223846793005ULL;
inline constexpr std::uint64_t LCG_INC = 2026081520260815ULL;

// The affine map s -> mul*s + add for 2^j LCG steps, j = 0..63 (maps of one LCG commute,
// so applying the maps of the set bits of d in any order jumps d steps).
struct JumpTable {
  std::uint64_t mul[64];
  std::uint64_t add[64];
};

constexpr JumpTable make_jump_table() {
  JumpTable t{};
  std::uint64_t m = LCG_MUL, c = LCG_INC;
  for (int j = 0; j < 64; ++j) {
    t.mul[j] = m;
    t.add[j] = c;
    c = (m + 1) * c;  // (m, c) composed with itself: s -> m(ms + c) + c
    m = m * m;
  }
  return t;
}

// d steps from s using the first `bits` entries (d < 2^bits). The loop bound is uniform
// across a warp, so every lane reads the same table entry (a constant-cache broadcast).
JOSEKI_HD std::uint64_t jump_with(const JumpTable& t, std::uint64_t s, std::uint64_t d, int bits) {
  for (int j = 0; j < bits; ++j)
    if ((d >> j) & 1u) s = s * t.mul[j] + t.add[j];
  return s;
}

JOSEKI_HD int bit_length(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 64 - __clzll(static_cast<long long>(x));
#else
  return x ? 64 - __builtin_clzll(x) : 0;
#endif
}

JOSEKI_HD std::uint32_t rotr32(std::uint32_t x, std::uint32_t r) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(x, x, r);
#else
  return (x >> r) | (x << ((32u - r) & 31u));
#endif
}

// PCG32 XSH-RR output of a state (before the step), not yet reduced mod K.
JOSEKI_HD std::uint32_t pcg_raw(std::uint64_t state) {
  const std::uint32_t x = static_cast<std::uint32_t>(((state >> 18) ^ state) >> 27);
  return rotr32(x, static_cast<std::uint32_t>(state >> 59));
}

#if !defined(__CUDA_ARCH__)
__extension__ typedef unsigned __int128 u128_t;  // GCC/Clang extension; __extension__ keeps -Wpedantic quiet
#endif

JOSEKI_HD std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<u128_t>(a) * b) >> 64);
#endif
}

// x mod d without a division (Lemire, Kaser, Kurz 2019): exact for every 32-bit x and d >= 1
// with M = floor((2^64 - 1) / d) + 1 (d = 1 gives M = 0 and the right answer 0).
struct FastMod {
  std::uint64_t m = 0;
  std::uint32_t d = 1;
};
constexpr FastMod make_fastmod(std::uint32_t d) { return FastMod{~0ULL / d + 1, d}; }
JOSEKI_HD std::uint32_t umulhi32(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
}
// floor(low * d / 2^64) with 32-bit pieces: for low = H 2^32 + L, it equals
// floor((H d + floor(L d / 2^32)) / 2^32) (a fraction below 1 cannot carry), and H d + that < 2^64:
// two integer multiply-adds on the GPU instead of a 64 x 64 high product.
JOSEKI_HD std::uint32_t fastmod(std::uint32_t x, const FastMod& f) {
  const std::uint64_t low = f.m * x;
  const std::uint32_t t = umulhi32(static_cast<std::uint32_t>(low), f.d);
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(low >> 32)) * f.d + t) >> 32);
}

// ---- the lean generator (r16_lean_count.cu): the same values in fewer instructions ----------
// pcg_raw from the state's 32-bit halves: the output's 32 bits are bits 27..58 of state ^ (state >> 18),
// i.e. (state >> 27) ^ (state >> 45) truncated, and state >> 45 is hi >> 13: one funnel shift, one shift
// and one XOR instead of the 64-bit shift-XOR-shift (five ALU instructions in the SASS of r03's kernel).
JOSEKI_HD std::uint32_t pcg_raw_halves(std::uint32_t lo, std::uint32_t hi) {
#if defined(__CUDA_ARCH__)
  const std::uint32_t x = __funnelshift_r(lo, hi, 27) ^ (hi >> 13);
#else
  const std::uint32_t x = ((lo >> 27) | (hi << 5)) ^ (hi >> 13);
#endif
  return rotr32(x, hi >> 27);
}

// x mod d with one 32-bit high product (2 multiplies and 2 ALU instructions instead of fastmod's 4
// multiplies): m = floor((2^32 - 1) / d) >= (2^32 - d) / d, so q = floor(x m / 2^32) lies in
// (x/d - 1, x/d]: q is floor(x/d) or one less, r = x - q d is in [0, 2d), and min(r, r - d) (unsigned:
// r - d wraps above r when r < d) is x mod d. Exact for every 32-bit x and 1 <= d < 2^31 (a unit test
// checks edges and random values against %).
struct FastMod32 {
  std::uint32_t m = 0xFFFFFFFFu;
  std::uint32_t d = 1;
};
JOSEKI_HD constexpr FastMod32 make_fastmod32(std::uint32_t d) { return FastMod32{0xFFFFFFFFu / d, d}; }
JOSEKI_HD std::uint32_t fastmod32(std::uint32_t x, const FastMod32& f) {
  const std::uint32_t r = x - umulhi32(x, f.m) * f.d;
  const std::uint32_t r2 = r - f.d;
  return r2 < r ? r2 : r;
}

// One LCG step on the halves: lo' + 2^32 hi' = (lo + 2^32 hi) * LCG_MUL + LCG_INC mod 2^64, as one 32x32->64
// multiply-add and two 32-bit multiply-adds. On the GPU these are PTX instructions, so that the compiler
// cannot fold a run of steps into independent jumps from the tile's first state (it did in r03's kernel:
// each of 16 unrolled steps then needs its own 64-bit constant, two register moves per element).
JOSEKI_HD void lcg_step_halves(std::uint32_t& lo, std::uint32_t& hi) {
#if defined(__CUDA_ARCH__)
  constexpr std::uint32_t MUL_LO = static_cast<std::uint32_t>(LCG_MUL), MUL_HI = static_cast<std::uint32_t>(LCG_MUL >> 32);
  std::uint64_t t;
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(t) : "r"(lo), "n"(MUL_LO), "l"(LCG_INC));
  std::uint32_t h;
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(h) : "r"(hi), "n"(MUL_LO), "r"(static_cast<std::uint32_t>(t >> 32)));
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(h) : "r"(lo), "n"(MUL_HI), "r"(h));
  lo = static_cast<std::uint32_t>(t);
  hi = h;
#else
  const std::uint64_t s = ((static_cast<std::uint64_t>(hi) << 32) | lo) * LCG_MUL + LCG_INC;
  lo = static_cast<std::uint32_t>(s);
  hi = static_cast<std::uint32_t>(s >> 32);
#endif
}

// One thread's run of the sequence A_j, j = j, j + 1, ...: b_j below M, the LCG's outputs from M on.
// `state` is the LCG state of element max(j, M), set by the caller (jump_with) before the first next()
// once the run has any element. (The count kernels of r08 and of the test-only rung t01 read pairs so.)
struct ElementCursor {
  const std::uint32_t* b = nullptr;  // the M given values
  std::uint64_t m = 0;
  FastMod fm;
  std::uint64_t j = 0;  // the next element's index
  std::uint64_t state = 0;
  JOSEKI_HD std::uint32_t next() {
    std::uint32_t v;
    if (j < m) {
      v = b[j];
    } else {
      v = fastmod(pcg_raw(state), fm);
      state = state * LCG_MUL + LCG_INC;
    }
    ++j;
    return v;
  }
};

// The next generated element with the lean pieces: A = fastmod32(pcg_raw_halves(state)), then one LCG step.
JOSEKI_HD std::uint32_t lean_next(std::uint32_t& lo, std::uint32_t& hi, const FastMod32& fm) {
  const std::uint32_t v = fastmod32(pcg_raw_halves(lo, hi), fm);
  lcg_step_halves(lo, hi);
  return v;
}

// ---- Goldilocks prime p = 2^64 - 2^32 + 1 ---------------------------------------------
// p - 1 = 2^32 * 3 * 5 * 17 * 257 * 65537, so power-of-two NTTs up to 2^32 exist; 7 generates
// the multiplicative group. Values are kept canonical (< p).
inline constexpr std::uint64_t GL_P = 0xFFFFFFFF00000001ULL;
inline constexpr std::uint64_t GL_EPS = 0xFFFFFFFFULL;  // 2^64 mod p
inline constexpr std::uint64_t GL_GENERATOR = 7;

JOSEKI_HD std::uint64_t gl_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t s = a + b;
  if (s < a) s += GL_EPS;  // carried out 2^64 == EPS (mod p); cannot overflow again
  if (s >= GL_P) s -= GL_P;
  return s;
}

JOSEKI_HD std::uint64_t gl_sub(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t d = a - b;
  return a >= b ? d : d - GL_EPS;  // borrowed 2^64: add p == subtract EPS (mod 2^64)
}

// hi*2^64 + lo mod p, using 2^64 == 2^32 - 1 and 2^96 == -1 (mod p).
JOSEKI_HD std::uint64_t gl_reduce128(std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t hi_hi = hi >> 32, hi_lo = hi & GL_EPS;
  std::uint64_t t0 = lo - hi_hi;
  if (lo < hi_hi) t0 -= GL_EPS;
  const std::uint64_t t1 = hi_lo * GL_EPS;
  std::uint64_t r = t0 + t1;
  if (r < t1) r += GL_EPS;
  if (r >= GL_P) r -= GL_P;
  return r;
}

JOSEKI_HD std::uint64_t gl_mul(std::uint64_t a, std::uint64_t b) { return gl_reduce128(a * b, mulhi64(a, b)); }

JOSEKI_HD std::uint64_t gl_pow(std::uint64_t b, std::uint64_t e) {
  std::uint64_t r = 1;
  while (e) {
    if (e & 1) r = gl_mul(r, b);
    b = gl_mul(b, b);
    e >>= 1;
  }
  return r;
}

// Smallest power of two L >= 2K - 1: a cyclic correlation of length K read off a length-L
// cyclic convolution of a 2K-long and a K-long array without wrap-around (see r01).
JOSEKI_HD std::uint32_t ntt_length(std::uint32_t k) {
  std::uint32_t l = 1;
  while (l < 2 * k - 1) l <<= 1;
  return l < 2 ? 2 : l;
}

// One butterfly q in [0, L/2) of the stage with half-size `len` (a power of two).
// Forward: decimation in frequency, natural order in, bit-reversed order out; tw[e] = w^e.
JOSEKI_HD void ntt_dif_butterfly(std::uint64_t* x, const std::uint64_t* tw, std::uint32_t l, std::uint32_t len,
                                 std::uint32_t q) {
  const std::uint32_t j = q & (len - 1);
  const std::uint32_t i = ((q - j) << 1) + j;
  const std::uint64_t u = x[i], v = x[i + len];
  x[i] = gl_add(u, v);
  x[i + len] = gl_mul(gl_sub(u, v), tw[j * (l / (2 * len))]);
}

// Inverse: decimation in time, bit-reversed order in, natural order out; itw[e] = w^-e.
// (The result still has to be multiplied by 1/L.)
JOSEKI_HD void ntt_dit_butterfly(std::uint64_t* x, const std::uint64_t* itw, std::uint32_t l, std::uint32_t len,
                                 std::uint32_t q) {
  const std::uint32_t j = q & (len - 1);
  const std::uint32_t i = ((q - j) << 1) + j;
  const std::uint64_t u = x[i], v = gl_mul(x[i + len], itw[j * (l / (2 * len))]);
  x[i] = gl_add(u, v);
  x[i + len] = gl_sub(u, v);
}

// ---- tensor-core combiner: fragment index maps ------------------------------------------
// mma.sync.m16n8k32 (u8 x u8 -> s32). PTX fixes which (row, k) each lane's bytes hold:
//   A (16x32): reg r, byte e -> row g + 8*(r&1), logical k = 4t + e + 16*(r>>1)
//   B (32x8):  reg r, byte e -> col g,           logical k = 4t + e + 16*r
//   C (16x8):  reg i         -> row g + 8*(i>>1), col 2t + (i&1)
// with g = lane/4, t = lane%4. A dot product does not care in which order k runs, as long as A
// and B agree: we let logical k = 4t+e(+16) stand for *physical* column 8t+e(+4) of the
// 32-wide step, so each lane reads 8 contiguous bytes (one 64-bit load) for A registers
// {0,2} and {1,3}, and two consecutive words of the pre-shifted V bank for B.
JOSEKI_HD int tc_group(int lane) { return lane >> 2; }
JOSEKI_HD int tc_tig(int lane) { return lane & 3; }
JOSEKI_HD int tc_a_row(int lane, int reg) { return tc_group(lane) + 8 * (reg & 1); }
JOSEKI_HD int tc_a_logical_k(int lane, int reg, int e) { return 4 * tc_tig(lane) + e + 16 * (reg >> 1); }
JOSEKI_HD int tc_a_physical_k(int lane, int reg, int e) { return 8 * tc_tig(lane) + e + 4 * (reg >> 1); }
JOSEKI_HD int tc_b_col(int lane) { return tc_group(lane); }
JOSEKI_HD int tc_b_logical_k(int lane, int reg, int e) { return 4 * tc_tig(lane) + e + 16 * reg; }
JOSEKI_HD int tc_b_physical_k(int lane, int reg, int e) { return 8 * tc_tig(lane) + e + 4 * reg; }
JOSEKI_HD int tc_c_row(int lane, int i) { return tc_group(lane) + 8 * (i >> 1); }
JOSEKI_HD int tc_c_col(int lane, int i) { return 2 * tc_tig(lane) + (i & 1); }

// The V bank: word w of row r holds bytes V2[4w + r .. 4w + r + 3] (little-endian), where
// V2[i] = V[i mod K]. B register `reg` of a lane for the step starting at b0 and the output
// column `col` (a shift k) is the bank word at byte offset b0 + 8t + 4*reg + col: its row is
// col & 3 (b0 + 8t + 4*reg is a multiple of 4). Rows are padded to W == 8 (mod 32) words so
// that a warp's 32 loads hit 32 different banks.
JOSEKI_HD std::uint32_t tc_bank_words(std::uint32_t kp) {
  std::uint32_t w = kp / 2 + 8;  // covers byte offsets up to 2*Kp + 31
  while (w % 32 != 8) ++w;
  return w;
}
// Dynamic shared memory per block of the tensor-core combine (r02's kernel: the V bank and V twice)
// and of the NTT accumulation (two transforms of length ntt_length(k), 64-bit): what the combiners
// need of the GPU (combiner_needs), e.g. 160 KiB at Kp = 16384, more than an RTX 4090's 99 KiB.
JOSEKI_HD std::size_t tc_combine_smem_bytes(std::uint32_t kp) {
  return 4u * static_cast<std::size_t>(tc_bank_words(kp)) * sizeof(std::uint32_t) + (2u * kp + 32u);
}
JOSEKI_HD std::size_t ntt_accumulate_smem_bytes(std::uint32_t k) {
  return 2u * static_cast<std::size_t>(ntt_length(k)) * sizeof(std::uint64_t);
}
JOSEKI_HD std::uint32_t tc_b_word(std::uint32_t bank_words, int lane, std::uint32_t b0, std::uint32_t col,
                                  int reg) {
  const std::uint32_t o = b0 + 8u * static_cast<std::uint32_t>(tc_tig(lane)) + 4u * static_cast<std::uint32_t>(reg) + col;
  return (col & 3u) * bank_words + (o >> 2);
}

// ---- partition count: how the table is cut into slices -----------------------------------
// A slice is `size` consecutive cells (a multiple of 4 for 16-byte accesses, at most 2^14 so that
// offsets fit 16 bits and the counters 64 KiB of shared memory); slice(key) = floor(key * magic / 2^32), which
// equals key / size for every key < cells when (cells - 1) * (magic * size - 2^32) < 2^32.
// The size is chosen so that the histogram blocks spread evenly over the SMs: the busiest SM
// counts ceil(slices / sms) slices, so the cost is ceil(slices / sms) * size; a plan with more
// slices (more buckets for the partition to fill) must cost 2% less to be chosen.
struct SlicePlan {
  std::uint32_t size = 1u << 14;
  std::uint32_t magic = 1u << 18;
  std::uint32_t slices = 1;
};
inline constexpr std::uint32_t SLICE_MAX_CELLS = 1u << 14;
inline constexpr std::uint32_t SLICE_MAX_COUNT = 1024;
constexpr bool slice_magic_exact(std::uint64_t cells, std::uint32_t size, std::uint64_t magic) {
  const std::uint64_t e = magic * size - (1ULL << 32);
  return magic * size >= (1ULL << 32) && (cells == 0 || (cells - 1) * e < (1ULL << 32));
}
constexpr SlicePlan plan_slices(std::uint64_t cells, std::uint32_t sms) {
  if (sms == 0) sms = 1;
  auto make = [&](std::uint32_t size) {
    SlicePlan p;
    p.size = size;
    p.magic = static_cast<std::uint32_t>(((1ULL << 32) + size - 1) / size);
    p.slices = static_cast<std::uint32_t>((cells + size - 1) / size);
    return p;
  };
  auto cost = [&](const SlicePlan& p) { return ((p.slices + sms - 1) / sms) * static_cast<std::uint64_t>(p.size); };
  SlicePlan best = make(SLICE_MAX_CELLS);  // a power of two: magic = 2^18 is exact
  for (std::uint32_t per_sm = 1; per_sm <= 8; ++per_sm) {
    const std::uint64_t want = (cells + static_cast<std::uint64_t>(sms) * per_sm - 1) / (static_cast<std::uint64_t>(sms) * per_sm);
    for (std::uint64_t size = (want + 3) / 4 * 4; size <= SLICE_MAX_CELLS && size <= want + 4 * 512; size += 4) {
      const SlicePlan p = make(static_cast<std::uint32_t>(size));
      if (p.slices > SLICE_MAX_COUNT || !slice_magic_exact(cells, p.size, p.magic)) continue;
      if (cost(p) * 50 < cost(best) * 49) best = p;  // > 2% less: worth more buckets for the partition
      break;  // the first exact size for this spread
    }
  }
  return best;
}

// A given spread (PairsConfig::slices_per_sm, session 10's sweep): `per_sm` histogram blocks a SM, i.e.
// about sms * per_sm slices, each of the first exact size >= ceil(cells / (sms * per_sm)), at most
// `max_cells` (what one block's shared memory holds; at most SLICE_SPREAD_MAX_CELLS, so that offsets stay
// 16 bits). Fewer, larger slices: fewer buckets for the partition kernel to rank, scan, reserve and write
// in runs; the histogram blocks hold more counters each. size == 0: no exact size fits.
inline constexpr std::uint32_t SLICE_SPREAD_MAX_CELLS = 1u << 16;
constexpr SlicePlan plan_slices_spread(std::uint64_t cells, std::uint32_t sms, std::uint32_t per_sm,
                                       std::uint32_t max_cells) {
  SlicePlan p;
  p.size = 0;
  if (sms == 0) sms = 1;
  if (per_sm == 0 || cells == 0) return p;
  if (max_cells > SLICE_SPREAD_MAX_CELLS) max_cells = SLICE_SPREAD_MAX_CELLS;
  const std::uint64_t want = (cells + static_cast<std::uint64_t>(sms) * per_sm - 1) / (static_cast<std::uint64_t>(sms) * per_sm);
  for (std::uint64_t size = (want + 3) / 4 * 4; size <= max_cells && size <= want + 4 * 4096; size += 4) {
    const auto magic = static_cast<std::uint32_t>(((1ULL << 32) + size - 1) / size);
    const auto slices = static_cast<std::uint32_t>((cells + size - 1) / size);
    if (slices > SLICE_MAX_COUNT || !slice_magic_exact(cells, size, magic)) continue;
    p.size = static_cast<std::uint32_t>(size);
    p.magic = magic;
    p.slices = slices;
    return p;
  }
  return p;
}

// r60 (PairsConfig::spread_given): the partition's runs when a chunk opens with `given` pairs whose second element is
// a given value (pair p < M - 1) out of `pairs`. Every thread's run is `run` pairs, and the GPU holds `resident`
// threads at once. A thread whose run lies in the given values takes the partition kernel's general path, ~1.7x the
// instructions a pair of a full tile's (session 16), so those threads' blocks end last. Here the threads the generated
// pairs leave free in the wave share the given pairs: `threads` threads of `run` pairs each come first (every given
// pair among them), then threads of the chunk's `run` as before, all in one wave (threads + the others <= resident).
// {0, 0}: no spread (no given pair in the chunk, no free thread, or runs of one pair already).
struct GivenSpread {
  std::uint64_t threads = 0;
  std::uint64_t run = 0;
};
constexpr GivenSpread spread_given_runs(std::uint64_t pairs, std::uint64_t given, std::uint64_t run,
                                        std::uint64_t resident) {
  if (given == 0 || given >= pairs || run <= 1 || resident == 0) return {};
  const std::uint64_t generated = (pairs - given + run - 1) / run;  // threads the other pairs need
  if (generated >= resident) return {};
  const std::uint64_t free = resident - generated;
  if (free <= (given + run - 1) / run) return {};  // no more threads than the runs of `run` give them
  const std::uint64_t short_run = (given + free - 1) / free;
  if (short_run >= run) return {};
  return {(given + short_run - 1) / short_run, short_run};
}

// r64 (PairsConfig::tail_runs): the partition's runs in whole warps. A thread whose run is not `run` generated pairs (the
// given values, or the chunk's last, partial run) takes the kernel's general path, and a warp holding such a thread
// beside full ones runs both paths; the block waits for it at every tile's barriers (session 22's count trace: the block
// holding the last, partial run ended ~3 us after every other block). Here `given` leading pairs go to `given_threads`
// threads of `given_run` pairs, then `full_threads` threads take runs of `run`, then `tail_threads` threads runs of
// `tail_run`, the rest; each group a whole number of warps (`warp` threads), all within `resident` threads (one wave), and
// given_run, tail_run < run (so the kernel's tiles, counted from `run`, hold every run). The threads the full runs leave
// free are shared by the given pairs and the tail in proportion to their pairs. {} (all zero): no such plan fits (the
// kernel then takes r60's or the plain layout).
// The full runs grow by up to 1/64, and not past the tile `run` ends in (`run` in the plan: the kernel's run), until the
// short runs are under 4/7 of a full one:
// a few pairs more a thread free whole warps (10^9 on the H200: one free warp at 7399 pairs a thread, five at 7403).
// Where none is, the plan at the shortest run that fits.
struct RunPlan {
  std::uint64_t given_threads = 0, given_run = 0, full_threads = 0, tail_threads = 0, tail_run = 0;
  std::uint64_t run = 0;  // the full runs' length (the kernel's PartitionArgs::run)
};
constexpr RunPlan plan_runs_at(std::uint64_t pairs, std::uint64_t given, std::uint64_t run, std::uint64_t resident,
                               std::uint64_t warp) {
  if (pairs == 0 || run <= 1 || warp == 0 || resident < warp || given >= pairs) return {};
  const std::uint64_t full0 = (pairs - given) / (warp * run) * warp;  // full runs if the given pairs took none of them
  const std::uint64_t free_warps = resident > full0 ? (resident - full0) / warp : 0;
  const std::uint64_t tail0 = pairs - given - full0 * run;  // < warp * run
  const std::uint64_t short_pairs = given + tail0;
  if (free_warps == 0 || short_pairs == 0) return {};
  // The free warps split between the given pairs and the tail, in proportion, each side at least one warp when it has
  // pairs.
  std::uint64_t given_warps = given == 0 ? 0 : (free_warps * given + short_pairs / 2) / short_pairs;
  if (given > 0 && given_warps == 0) given_warps = 1;
  if (tail0 > 0 && given_warps == free_warps) --given_warps;
  if (given > 0 && given_warps == 0) return {};
  RunPlan p;
  p.given_threads = given_warps * warp;
  p.given_run = given == 0 ? 0 : (given + p.given_threads - 1) / p.given_threads;
  const std::uint64_t covered = p.given_threads * p.given_run;  // >= given: the last given runs may reach past it
  if (covered >= pairs) return {};
  p.full_threads = (pairs - covered) / (warp * run) * warp;  // full0, or a warp less where the given runs reach past
  const std::uint64_t tail = pairs - covered - p.full_threads * run;
  const std::uint64_t used = p.given_threads + p.full_threads;
  const std::uint64_t tail_warps = resident > used ? (resident - used) / warp : 0;
  if (tail > 0) {
    if (tail_warps == 0) return {};
    p.tail_run = (tail + tail_warps * warp - 1) / (tail_warps * warp);
    p.tail_threads = (tail + p.tail_run - 1) / p.tail_run;
  }
  if (p.given_run >= run || p.tail_run >= run || p.full_threads == 0) return {};
  p.run = run;
  return p;
}
constexpr RunPlan plan_runs(std::uint64_t pairs, std::uint64_t given, std::uint64_t run, std::uint64_t resident,
                            std::uint64_t warp = 32, std::uint64_t tile = 0) {
  RunPlan first{};
  // tile > 0 (the kernel's pairs a thread and tile): never past the tile that `run` ends in, so no thread gets a tile more.
  const std::uint64_t longest = run + run / 64, tile_end = tile > 0 ? (run + tile - 1) / tile * tile : longest;
  const std::uint64_t last = tile_end < longest ? tile_end : longest;
  for (std::uint64_t r = run; r <= last; ++r) {
    const RunPlan p = plan_runs_at(pairs, given, r, resident, warp);
    if (p.full_threads == 0) continue;
    if (first.full_threads == 0) first = p;
    // The short runs take the general path (~1.7x a full tile's time a pair): under 4/7 of a full run, they end first.
    if (7 * p.given_run <= 4 * r && 7 * p.tail_run <= 4 * r) return p;
  }
  return first;  // the shortest runs that fit, the short ones not short enough; {} when none fits
}

// The run of partition thread `t` of a chunk starting at pair `begin` (what lean_partition_kernel computes, and the host's
// thread count below): r60's given threads (given_threads runs of given_run), r64's full runs (full_threads of `run`,
// then tail runs of tail_run; full_threads 0: every thread after the given ones a run of `run`). first: the run's first
// pair; len: its length (the run is [first, min(first + len, end))).
struct ThreadRun {
  std::uint64_t first = 0, len = 0;
};
JOSEKI_HD ThreadRun thread_run(std::uint64_t t, std::uint64_t begin, std::uint64_t run, std::uint64_t given_threads,
                               std::uint64_t given_run, std::uint64_t full_threads, std::uint64_t tail_run) {
  std::uint64_t first = begin, i = t, len = run;
  if (i < given_threads) {
    len = given_run;
  } else {
    first += given_threads * given_run;
    i -= given_threads;
    if (full_threads > 0 && i >= full_threads) {
      first += full_threads * run;
      i -= full_threads;
      len = tail_run;
    }
  }
  return {first + i * len, len};
}
// The threads a chunk of `pairs` needs under that layout (the launch's count; every later thread's run is empty).
constexpr std::uint64_t layout_threads(std::uint64_t pairs, std::uint64_t run, std::uint64_t given_threads,
                                       std::uint64_t given_run, std::uint64_t full_threads, std::uint64_t tail_run) {
  const std::uint64_t spread = given_threads * given_run;
  if (full_threads == 0) return given_threads + (pairs > spread ? (pairs - spread + run - 1) / run : 0);
  const std::uint64_t covered = spread + full_threads * run;
  return given_threads + full_threads + (pairs > covered && tail_run > 0 ? (pairs - covered + tail_run - 1) / tail_run : 0);
}

// One chunk's layout, as PairsDevice::enqueue_round chooses it: pairs [begin, end), the given values' pairs those with
// p < m - 1, `run` pairs a thread (partition_run), `resident` threads in one wave, the kernel's pairs a tile. tail_runs
// (r64): plan_runs where it fits; else spread_given (r60): spread_given_runs; else every thread a run of `run`.
struct ChunkLayout {
  std::uint64_t run = 0, given_threads = 0, given_run = 0, full_threads = 0, tail_run = 0;
};
constexpr ChunkLayout chunk_layout(std::uint64_t begin, std::uint64_t end, std::uint64_t m, std::uint64_t run,
                                   std::uint64_t resident, std::uint64_t tile, bool spread_given, bool tail_runs) {
  ChunkLayout l;
  l.run = run;
  const std::uint64_t pairs = end > begin ? end - begin : 0;
  const std::uint64_t given_end = m > 1 ? (end < m - 1 ? end : m - 1) : 0;
  const std::uint64_t given = given_end > begin ? given_end - begin : 0;
  const RunPlan plan = tail_runs ? plan_runs(pairs, given, run, resident, 32, tile) : RunPlan{};
  if (plan.full_threads > 0) {
    l.run = plan.run;
    l.given_threads = plan.given_threads;
    l.given_run = plan.given_run;
    l.full_threads = plan.full_threads;
    l.tail_run = plan.tail_run;
  } else if (spread_given) {
    const GivenSpread g = spread_given_runs(pairs, given, run, resident);
    l.given_threads = g.threads;
    l.given_run = g.run;
  }
  return l;
}

// Padded side of the count table and the slices: a multiple of 128 (every tile shape divides it).
JOSEKI_HD std::uint32_t padded_k(std::uint32_t k) { return (k + 127u) / 128u * 128u; }

// Byte slices needed for counts up to `max_count` (C = sum_j 2^(8j) C_j, C_j in [0, 255]).
JOSEKI_HD int slices_for(std::uint64_t max_count) { return (bit_length(max_count) + 7) / 8; }

// Planes when the lowest holds `low` bits and every other one 8 (C = C_0 + sum_j 2^(low + 8(j-1)) C_j):
// low = 8 is slices_for; low = 7 keeps plane 0 in [0, 127] (signed int8, the GEMM combiner's).
JOSEKI_HD int planes_for(std::uint64_t max_count, int low) {
  return max_count == 0 ? 0 : 1 + slices_for(max_count >> low);
}
JOSEKI_HD int plane_shift(int plane, int low) { return plane == 0 ? 0 : low + 8 * (plane - 1); }

// r33 (the skewed combine): the planes it reads hold C's row a rotated left by a, P[a][(b - a) mod K] =
// C[a][b] (a, b < K), so that answer[k] = sum_{x: V[x] = 0} sum_a D'[x][a] with x = (a + k) mod K and
// D'[x][a] = sum_d P[a][d] V[(x + d) mod K] (r33_skewed_combine.cpp derives it). The column of cell (a, b).
JOSEKI_HD std::uint32_t skew_col(std::uint32_t a, std::uint32_t b, std::uint32_t k) { return b >= a ? b - a : b + k - a; }

// r37 (partition_lean 13): the cell the partition kernel counts pair (a, b) at, a kp + skew_col(a, b, K), in one
// multiply-add and a conditional add: a (kp - 1) + b, plus K when b < a. kp_minus_1 = kp - 1 (kp >= K >= 1).
JOSEKI_HD std::uint32_t rotated_cell(std::uint32_t a, std::uint32_t b, std::uint32_t k, std::uint32_t kp_minus_1) {
  return a * kp_minus_1 + b + (b < a ? k : 0u);
}

}  // namespace joseki::abc471g::pairs
