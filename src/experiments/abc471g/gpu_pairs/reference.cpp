// CPU references for the gpu-pairs kernels (see reference.hpp).
#include "experiments/abc471g/gpu_pairs/reference.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "backend/cpu/parallel.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"

namespace joseki::abc471g::pairs {

namespace {

// The global pool, or a private one of the size asked for.
struct Pool {
  std::unique_ptr<cpu::ThreadPool> own;
  cpu::ThreadPool* pool;
  explicit Pool(int threads)
      : own(threads > 0 ? std::make_unique<cpu::ThreadPool>(threads) : nullptr),
        pool(threads > 0 ? own.get() : &cpu::ThreadPool::global()) {}
  cpu::ThreadPool* operator->() const { return pool; }
};

}  // namespace

std::uint32_t first_element(const Problem& p) {
  if (!p.b.empty()) return p.b[0];
  return pcg_raw(p.seed) % p.k;
}

std::vector<std::uint64_t> cpu_pair_table(const Problem& p, std::uint32_t kp, std::uint64_t begin,
                                          std::uint64_t end, int threads) {
  if (kp < p.k) throw std::invalid_argument("cpu_pair_table: kp < K");
  std::vector<std::uint64_t> table(static_cast<std::size_t>(kp) * kp, 0);
  if (end <= begin) return table;
  Pool pool(threads);
  const std::int64_t tasks = pool->size();
  std::mutex mu;
  // Passes of at most tasks * (2^32 - 1) pairs, so every task's 32-bit private table stays exact.
  const std::uint64_t per_task_max = 0xFFFFFFFFULL;
  for (std::uint64_t pass_begin = begin; pass_begin < end;) {
    const std::uint64_t left = end - pass_begin;
    const std::uint64_t per_task = std::min<std::uint64_t>(per_task_max, (left + tasks - 1) / tasks);
    const std::uint64_t pass_end = pass_begin + std::min<std::uint64_t>(left, per_task * tasks);
    pool->parallel_for(tasks, [&](std::int64_t t) {
      const std::uint64_t s = pass_begin + static_cast<std::uint64_t>(t) * per_task;
      if (s >= pass_end) return;
      const std::uint64_t e = std::min(pass_end, s + per_task);  // pair starts [s, e): elements s..e
      std::vector<std::uint32_t> local(table.size(), 0);
      constexpr std::uint64_t BLOCK = 1 << 14;
      std::vector<std::uint32_t> a(BLOCK + 1);
      for (std::uint64_t i = s; i < e; i += BLOCK) {
        const std::uint64_t cnt = std::min<std::uint64_t>(BLOCK, e - i);
        generate(p, i, cnt + 1, a.data());
        for (std::uint64_t j = 0; j < cnt; ++j) ++local[static_cast<std::size_t>(a[j]) * kp + a[j + 1]];
      }
      std::lock_guard<std::mutex> lock(mu);
      for (std::size_t c = 0; c < table.size(); ++c) table[c] += local[c];
    });
    pass_begin = pass_end;
  }
  return table;
}

Answer combine_direct(const std::vector<std::uint64_t>& table, std::uint32_t kp, const Problem& p) {
  const std::uint32_t k = p.k, a0 = first_element(p);
  Answer ans(k, 0);
  for (std::uint32_t s = 0; s < k; ++s) {
    std::uint64_t acc = p.v[(a0 + s) % k];
    for (std::uint32_t a = 0; a < k; ++a) {
      if (p.v[(a + s) % k]) continue;
      for (std::uint32_t b = 0; b < k; ++b)
        if (p.v[(b + s) % k]) acc += table[static_cast<std::size_t>(a) * kp + b];
    }
    ans[s] = acc;
  }
  return ans;
}

NttTwiddles make_twiddles(std::uint32_t l) {
  NttTwiddles t;
  const std::uint64_t w = gl_pow(GL_GENERATOR, (GL_P - 1) / l);
  const std::uint64_t wi = gl_pow(w, GL_P - 2);
  t.tw.resize(std::max<std::uint32_t>(1, l / 2));
  t.itw.resize(t.tw.size());
  std::uint64_t x = 1, y = 1;
  for (std::size_t e = 0; e < t.tw.size(); ++e) {
    t.tw[e] = x;
    t.itw[e] = y;
    x = gl_mul(x, w);
    y = gl_mul(y, wi);
  }
  t.l_inv = gl_pow(l, GL_P - 2);
  return t;
}

void ntt_forward_host(std::vector<std::uint64_t>& x, const NttTwiddles& t) {
  const auto l = static_cast<std::uint32_t>(x.size());
  for (std::uint32_t len = l / 2; len >= 1; len >>= 1)
    for (std::uint32_t q = 0; q < l / 2; ++q) ntt_dif_butterfly(x.data(), t.tw.data(), l, len, q);
}

void ntt_inverse_host(std::vector<std::uint64_t>& x, const NttTwiddles& t) {
  const auto l = static_cast<std::uint32_t>(x.size());
  for (std::uint32_t len = 1; len < l; len <<= 1)
    for (std::uint32_t q = 0; q < l / 2; ++q) ntt_dit_butterfly(x.data(), t.itw.data(), l, len, q);
  for (auto& v : x) v = gl_mul(v, t.l_inv);
}

Answer combine_ntt_host(const std::vector<std::uint64_t>& table, std::uint32_t kp, const Problem& p, int threads) {
  const std::uint32_t k = p.k, l = ntt_length(k), a0 = first_element(p);
  const NttTwiddles tw = make_twiddles(l);
  Pool pool(threads);
  const std::int64_t tasks = std::min<std::int64_t>(pool->size(), k);
  std::vector<std::vector<std::uint64_t>> partial(static_cast<std::size_t>(tasks), std::vector<std::uint64_t>(l, 0));
  pool->parallel_for(tasks, [&](std::int64_t t) {
    std::vector<std::uint64_t> x(l), y(l);
    auto& part = partial[static_cast<std::size_t>(t)];
    for (std::uint32_t d = static_cast<std::uint32_t>(t); d < k; d += static_cast<std::uint32_t>(tasks)) {
      for (std::uint32_t i = 0; i < l; ++i) {
        x[i] = 0;
        y[i] = 0;
        if (i < 2 * k) {
          const std::uint32_t r = i % k, row = r ? k - r : 0, col = (row + d) % k;
          x[i] = table[static_cast<std::size_t>(row) * kp + col] % GL_P;
        }
        if (i < k) y[i] = (!p.v[i] && p.v[(i + d) % k]) ? 1 : 0;
      }
      ntt_forward_host(x, tw);
      ntt_forward_host(y, tw);
      for (std::uint32_t f = 0; f < l; ++f) part[f] = gl_add(part[f], gl_mul(x[f], y[f]));
    }
  });
  std::vector<std::uint64_t> sum(l, 0);
  for (const auto& part : partial)
    for (std::uint32_t f = 0; f < l; ++f) sum[f] = gl_add(sum[f], part[f]);
  ntt_inverse_host(sum, tw);
  Answer ans(k);
  for (std::uint32_t s = 0; s < k; ++s) ans[s] = sum[s + k] + p.v[(a0 + s) % k];
  return ans;
}

namespace {

// mma.sync.m16n8k32 u8 x u8 -> s32 on one warp's registers, in PTX's logical layout.
void emulate_mma(std::array<std::array<int, 4>, 32>& acc, const std::array<std::array<std::uint32_t, 4>, 32>& a,
                 const std::array<std::array<std::uint32_t, 2>, 32>& b) {
  int am[16][32] = {}, bm[32][8] = {};
  for (int lane = 0; lane < 32; ++lane) {
    for (int r = 0; r < 4; ++r)
      for (int e = 0; e < 4; ++e)
        am[tc_a_row(lane, r)][tc_a_logical_k(lane, r, e)] = static_cast<int>((a[lane][r] >> (8 * e)) & 255u);
    for (int r = 0; r < 2; ++r)
      for (int e = 0; e < 4; ++e)
        bm[tc_b_logical_k(lane, r, e)][tc_b_col(lane)] = static_cast<int>((b[lane][r] >> (8 * e)) & 255u);
  }
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) {
      const int m = tc_c_row(lane, i), n = tc_c_col(lane, i);
      int s = 0;
      for (int kk = 0; kk < 32; ++kk) s += am[m][kk] * bm[kk][n];
      acc[lane][i] += s;
    }
}

std::uint32_t load_u32(const std::uint8_t* p) {
  std::uint32_t w;
  std::memcpy(&w, p, 4);  // little-endian, as on the GPU
  return w;
}

}  // namespace

Answer combine_tc_emulated(const std::vector<std::uint64_t>& table, std::uint32_t kp, const Problem& p, int warps_m,
                           int warps_n, int fm, int fn) {
  const std::uint32_t k = p.k, a0 = first_element(p);
  const std::uint32_t bm = static_cast<std::uint32_t>(warps_m * fm * 16), bn = static_cast<std::uint32_t>(warps_n * fn * 8);
  if (kp % bm || kp % bn || kp % 32) throw std::invalid_argument("combine_tc_emulated: tile does not divide kp");
  const std::size_t plane = static_cast<std::size_t>(kp) * kp;
  std::uint64_t mx = 0;
  for (auto c : table) mx = std::max(mx, c);
  const int slices = slices_for(mx);
  std::vector<std::uint8_t> planes(static_cast<std::size_t>(std::max(slices, 1)) * plane);
  for (int j = 0; j < slices; ++j)
    for (std::size_t i = 0; i < plane; ++i) planes[j * plane + i] = static_cast<std::uint8_t>((table[i] >> (8 * j)) & 255u);
  const std::uint32_t bank_words = tc_bank_words(kp);
  std::vector<std::uint32_t> bank(4 * bank_words);
  for (std::uint32_t w = 0; w < 4 * bank_words; ++w) {
    const std::uint32_t r = w / bank_words, o = 4 * (w % bank_words) + r;
    std::uint32_t x = 0;
    for (std::uint32_t e = 0; e < 4; ++e) x |= static_cast<std::uint32_t>(p.v[(o + e) % k]) << (8 * e);
    bank[w] = x;
  }
  std::vector<std::uint8_t> v2(2 * kp + 32);
  for (std::size_t i = 0; i < v2.size(); ++i) v2[i] = p.v[i % k];

  Answer ans(k);
  for (std::uint32_t s = 0; s < k; ++s) ans[s] = p.v[(a0 + s) % k];
  using AccLane = std::array<std::array<int, 4>, 32>;
  for (int slice = 0; slice < slices; ++slice)
    for (std::uint32_t by = 0; by < kp / bm; ++by)
      for (std::uint32_t bx = 0; bx < kp / bn; ++bx)
        for (int warp = 0; warp < warps_m * warps_n; ++warp) {
          const int wm = warp / warps_n, wn = warp % warps_n;
          const std::uint32_t a_base = by * bm + static_cast<std::uint32_t>(wm * fm * 16);
          const std::uint32_t k_base = bx * bn + static_cast<std::uint32_t>(wn * fn * 8);
          std::vector<AccLane> acc(static_cast<std::size_t>(fm * fn), AccLane{});
          for (std::uint32_t b0 = 0; b0 < kp; b0 += 32) {
            std::vector<std::array<std::array<std::uint32_t, 4>, 32>> af(static_cast<std::size_t>(fm));
            std::vector<std::array<std::array<std::uint32_t, 2>, 32>> bf(static_cast<std::size_t>(fn));
            for (int lane = 0; lane < 32; ++lane) {
              for (int mf = 0; mf < fm; ++mf)
                for (int h = 0; h < 2; ++h) {
                  const std::uint8_t* row = planes.data() + slice * plane +
                                            static_cast<std::size_t>(a_base + mf * 16 + tc_a_row(lane, h)) * kp +
                                            tc_a_physical_k(lane, 0, 0) + b0;
                  af[mf][lane][h] = load_u32(row);          // registers 0 / 1: bytes 8t..8t+3
                  af[mf][lane][2 + h] = load_u32(row + 4);  // registers 2 / 3: bytes 8t+4..8t+7
                }
              for (int nf = 0; nf < fn; ++nf) {
                const std::uint32_t col = k_base + static_cast<std::uint32_t>(nf * 8 + tc_b_col(lane));
                for (int r = 0; r < 2; ++r) bf[nf][lane][r] = bank[tc_b_word(bank_words, lane, b0, col, r)];
              }
            }
            for (int mf = 0; mf < fm; ++mf)
              for (int nf = 0; nf < fn; ++nf) emulate_mma(acc[mf * fn + nf], af[mf], bf[nf]);
          }
          // Epilogue, as the kernel: per lane masked row sums, then the sum over the 8 lanes of a group column.
          for (int nf = 0; nf < fn; ++nf)
            for (int c = 0; c < 2; ++c) {
              std::int64_t lane_sum[32] = {};
              for (int lane = 0; lane < 32; ++lane) {
                const std::uint32_t kk = k_base + static_cast<std::uint32_t>(nf * 8 + tc_c_col(lane, c));
                for (int mf = 0; mf < fm; ++mf)
                  for (int h = 0; h < 2; ++h) {
                    const std::uint32_t row = a_base + static_cast<std::uint32_t>(mf * 16 + tc_c_row(lane, 2 * h));
                    lane_sum[lane] += v2[row + kk] ? 0 : acc[mf * fn + nf][lane][2 * h + c];
                  }
              }
              for (int lane = 0; lane < 4; ++lane) {  // lanes 0..3 hold the reduced sums
                std::int64_t s = 0;
                for (int g = 0; g < 8; ++g) s += lane_sum[g * 4 + lane];
                const std::uint32_t kk = k_base + static_cast<std::uint32_t>(nf * 8 + tc_c_col(lane, c));
                if (kk < k) ans[kk] += static_cast<std::uint64_t>(s) << (8 * slice);
              }
            }
        }
  return ans;
}

Answer solve_pairs_reference(const Problem& p, int threads) {
  const std::uint32_t kp = p.k;
  return combine_ntt_host(cpu_pair_table(p, kp, threads), kp, p, threads);
}

}  // namespace joseki::abc471g::pairs
