// combine_fft: see fft_combine.hpp for the formula and the exactness argument.
#include "experiments/abc471g/cpu/fft_combine.hpp"

#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <memory>
#include <new>
#include <string>

#include "measure/errors.hpp"

namespace joseki::abc471g::cpu {
namespace {

__extension__ typedef unsigned __int128 u128;
using cd = std::complex<double>;

struct Plan {
  fftw_plan p = nullptr;
  explicit Plan(fftw_plan q) : p(q) {
    if (!p) throw RunError("cpu-pairs: FFTW could not make a plan");
  }
  ~Plan() { fftw_destroy_plan(p); }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
};

struct FftwBuffer {
  double* p = nullptr;
  explicit FftwBuffer(std::size_t doubles) : p(static_cast<double*>(fftw_malloc(doubles * sizeof(double)))) {
    if (!p) throw std::bad_alloc();
  }
  ~FftwBuffer() { fftw_free(p); }
  FftwBuffer(const FftwBuffer&) = delete;
  FftwBuffer& operator=(const FftwBuffer&) = delete;
};

// 1-D complex DFT of a real 0/1 sequence (sign: FFTW_FORWARD = e^{-2 pi i px/K}).
std::vector<cd> dft_of(const std::vector<double>& x) {
  const int n = static_cast<int>(x.size());
  FftwBuffer in(2 * x.size()), out(2 * x.size());
  for (int i = 0; i < n; ++i) {
    in.p[2 * i] = x[static_cast<std::size_t>(i)];
    in.p[2 * i + 1] = 0;
  }
  Plan plan(fftw_plan_dft_1d(n, reinterpret_cast<fftw_complex*>(in.p), reinterpret_cast<fftw_complex*>(out.p),
                             FFTW_FORWARD, FFTW_ESTIMATE));
  fftw_execute(plan.p);
  std::vector<cd> r(x.size());
  for (int i = 0; i < n; ++i) r[static_cast<std::size_t>(i)] = cd(out.p[2 * i], out.p[2 * i + 1]);
  return r;
}

// In-place 2-D real FFT of buf (K rows, row stride 2H doubles): rows r2c, then H columns c2c.
void fft2d(double* buf, std::uint32_t k, joseki::cpu::ThreadPool& pool) {
  const int n = static_cast<int>(k), h = static_cast<int>(k / 2 + 1);
  const std::size_t rs = 2 * static_cast<std::size_t>(h);
  Plan row(fftw_plan_many_dft_r2c(1, &n, 1, buf, nullptr, 1, static_cast<int>(rs), reinterpret_cast<fftw_complex*>(buf),
                                  nullptr, 1, h, FFTW_ESTIMATE | FFTW_UNALIGNED));
  const std::int64_t tasks = std::min<std::int64_t>(n, static_cast<std::int64_t>(pool.size()) * 4);
  pool.parallel_for(tasks, [&](std::int64_t t) {
    for (std::int64_t a = n * t / tasks; a < n * (t + 1) / tasks; ++a) {
      double* r = buf + static_cast<std::size_t>(a) * rs;
      fftw_execute_dft_r2c(row.p, r, reinterpret_cast<fftw_complex*>(r));
    }
  });
  // Columns in blocks of CB adjacent ones (two cache lines of complex values per row).
  constexpr int CB = 8;
  fftw_complex* c = reinterpret_cast<fftw_complex*>(buf);
  const int full = h / CB, tail = h % CB;
  auto col_plan = [&](int howmany) {
    return fftw_plan_many_dft(1, &n, howmany, c, nullptr, h, 1, c, nullptr, h, 1, FFTW_FORWARD,
                              FFTW_ESTIMATE | FFTW_UNALIGNED);
  };
  std::unique_ptr<Plan> pfull, ptail;
  if (full) pfull = std::make_unique<Plan>(col_plan(CB));
  if (tail) ptail = std::make_unique<Plan>(col_plan(tail));
  pool.parallel_for(full + (tail ? 1 : 0), [&](std::int64_t b) {
    fftw_complex* start = c + b * CB;
    fftw_execute_dft(b < full ? pfull->p : ptail->p, start, start);
  });
}

}  // namespace

double fft_error_bound(double norm2, std::uint32_t k) {
  const double e = 0x1p-53, kd = k;
  return e * norm2 * (kd / 2) * (kd + 10 * std::log2(std::max(2.0, kd * kd)));
}

std::string CombineReport::summary() const {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%d limb%s, error bound %.2e, largest distance to an integer %.2e; checksum %.1f ms, 2-D FFT %.1f ms, "
                "diagonal + inverse %.1f ms",
                limbs, limbs == 1 ? "" : "s", bound, max_frac, checksum_s * 1e3, fft_s * 1e3, diagonal_s * 1e3);
  return buf;
}

std::vector<std::uint64_t> combine_fft(PairTable& table, const std::vector<std::uint8_t>& v,
                                       joseki::cpu::ThreadPool& pool, CombineReport& rep) {
  const std::uint32_t k = table.k;
  const std::size_t rs = table.row_stride;
  const std::uint32_t h = k / 2 + 1;
  const std::int64_t tasks = std::min<std::int64_t>(k, static_cast<std::int64_t>(pool.size()) * 4);
  using Clock = std::chrono::steady_clock;
  auto secs = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  const auto c0 = Clock::now();

  // The exact checksum, before the table is transformed: sum_{a,b} C[a][b] G[(b - a) mod K].
  std::vector<std::uint64_t> g(k, 0);
  {
    std::vector<std::uint8_t> v2(2 * static_cast<std::size_t>(k));
    for (std::uint32_t x = 0; x < 2 * k; ++x) v2[x] = v[x % k];
    pool.parallel_for(tasks, [&](std::int64_t t) {
      for (std::int64_t d = k * t / tasks; d < k * (t + 1) / tasks; ++d) {
        std::uint32_t s = 0;
        for (std::uint32_t x = 0; x < k; ++x) s += static_cast<std::uint32_t>((v[x] ^ 1u) & v2[x + d]);
        g[static_cast<std::size_t>(d)] = s;
      }
    });
  }
  std::vector<u128> part(static_cast<std::size_t>(tasks), 0);
  pool.parallel_for(tasks, [&](std::int64_t t) {
    u128 s = 0;
    for (std::int64_t a = k * t / tasks; a < k * (t + 1) / tasks; ++a) {
      const double* row = table.data + static_cast<std::size_t>(a) * rs;
      for (std::uint32_t b = 0; b < k; ++b) {
        const std::uint32_t d = b >= a ? b - static_cast<std::uint32_t>(a) : b + k - static_cast<std::uint32_t>(a);
        s += static_cast<u128>(static_cast<std::uint64_t>(row[b])) * g[d];
      }
    }
    part[static_cast<std::size_t>(t)] = s;
  });
  u128 checksum = 0;
  for (const u128 s : part) checksum += s;
  rep.checksum_s = secs(c0, Clock::now());

  // Limbs: one unless the a-priori bound exceeds 1/4.
  const double norm = std::sqrt(table.sum_sq * (1 + 1e-6));  // margin for sum_sq's rounding (pairs.hpp)
  rep.bound = fft_error_bound(norm, k);
  int limb_bits = 53;
  rep.limbs = 1;
  if (rep.bound > 0.25) {
    // A limb has entries < 2^L, so its norm is below 2^L * K.
    limb_bits = static_cast<int>(std::floor(std::log2(0.25 / fft_error_bound(k, k))));
    if (limb_bits < 1) throw RunError("cpu-pairs: K too large for an exact double-precision FFT");
    const int bits = static_cast<int>(std::ceil(std::log2(table.max_count + 1)));
    rep.limbs = (bits + limb_bits - 1) / limb_bits;
    rep.bound = fft_error_bound(std::ldexp(1.0, limb_bits) * k, k);
  }

  std::vector<double> uu(k), vv(k);
  for (std::uint32_t x = 0; x < k; ++x) {
    vv[x] = v[x];
    uu[x] = 1.0 - v[x];
  }
  const std::vector<cd> uh = dft_of(uu), vh = dft_of(vv);

  std::unique_ptr<FftwBuffer> work;
  if (rep.limbs > 1) work = std::make_unique<FftwBuffer>(static_cast<std::size_t>(k) * rs);
  std::vector<u128> total(k, 0);
  rep.max_frac = 0;
  for (int j = 0; j < rep.limbs; ++j) {
    double* buf = table.data;
    if (rep.limbs > 1) {
      buf = work->p;
      const double scale = std::ldexp(1.0, -j * limb_bits), base = std::ldexp(1.0, limb_bits);
      pool.parallel_for(tasks, [&](std::int64_t t) {
        for (std::int64_t a = k * t / tasks; a < k * (t + 1) / tasks; ++a)
          for (std::uint32_t b = 0; b < k; ++b) {
            const std::size_t e = static_cast<std::size_t>(a) * rs + b;
            buf[e] = std::fmod(std::floor(table.data[e] * scale), base);  // exact: powers of two
          }
      });
    }
    const auto f0 = Clock::now();
    fft2d(buf, k, pool);
    const auto f1 = Clock::now();
    rep.fft_s += secs(f0, f1);
    // Y[r] = Z[r] + conj(Z2[-r]): Z sums the stored half q in [0, H), Z2 the part q in [1, K - H]
    // whose mirror (-p, -q) is not stored (C real: C^[-p][-q] = conj(C^[p][q])).
    const cd* ch = reinterpret_cast<const cd*>(buf);
    std::vector<std::vector<cd>> zs(static_cast<std::size_t>(tasks)), z2s(static_cast<std::size_t>(tasks));
    pool.parallel_for(tasks, [&](std::int64_t t) {
      std::vector<double> zr(k, 0), zi(k, 0), z2r(k, 0), z2i(k, 0);
      const std::uint32_t qmir = k - h;  // mirrored part: q in [1, qmir]
      for (std::int64_t pi = k * t / tasks; pi < k * (t + 1) / tasks; ++pi) {
        const std::uint32_t p = static_cast<std::uint32_t>(pi);
        const double ur = uh[p].real(), ui = uh[p].imag();
        const cd* row = ch + static_cast<std::size_t>(p) * h;
        for (std::uint32_t q = 0; q < h; ++q) {
          const double mr = ur * vh[q].real() - ui * vh[q].imag(), mi = ur * vh[q].imag() + ui * vh[q].real();
          const double cr = row[q].real(), ci = -row[q].imag();  // conj
          const double tr = cr * mr - ci * mi, ti = cr * mi + ci * mr;
          const std::uint32_t r = p + q < k ? p + q : p + q - k;
          zr[r] += tr;
          zi[r] += ti;
          if (q >= 1 && q <= qmir) {
            z2r[r] += tr;
            z2i[r] += ti;
          }
        }
      }
      auto& z = zs[static_cast<std::size_t>(t)];
      auto& z2 = z2s[static_cast<std::size_t>(t)];
      z.resize(k);
      z2.resize(k);
      for (std::uint32_t r = 0; r < k; ++r) {
        z[r] = cd(zr[r], zi[r]);
        z2[r] = cd(z2r[r], z2i[r]);
      }
    });
    FftwBuffer y(2 * static_cast<std::size_t>(k)), out(2 * static_cast<std::size_t>(k));
    for (std::uint32_t r = 0; r < k; ++r) {
      cd s = 0, s2 = 0;
      const std::uint32_t mr = r == 0 ? 0 : k - r;
      for (std::size_t t = 0; t < zs.size(); ++t) {
        s += zs[t][r];
        s2 += z2s[t][mr];
      }
      const cd yr = s + std::conj(s2);
      y.p[2 * r] = yr.real();
      y.p[2 * r + 1] = yr.imag();
    }
    Plan inv(fftw_plan_dft_1d(static_cast<int>(k), reinterpret_cast<fftw_complex*>(y.p),
                              reinterpret_cast<fftw_complex*>(out.p), FFTW_BACKWARD, FFTW_ESTIMATE));
    fftw_execute(inv.p);
    const double norm_k2 = 1.0 / (static_cast<double>(k) * k);
    for (std::uint32_t x = 0; x < k; ++x) {
      const double val = out.p[2 * x] * norm_k2;
      const double rounded = std::nearbyint(val);
      rep.max_frac = std::max(rep.max_frac, std::fabs(val - rounded));
      if (!(std::fabs(val - rounded) <= 0.25) || rounded < 0)
        throw RunError("cpu-pairs: FFT value " + std::to_string(val) + " for shift " + std::to_string(x) +
                       " is not within 1/4 of a non-negative integer (bound " + std::to_string(rep.bound) + ")");
      total[x] += static_cast<u128>(static_cast<std::uint64_t>(rounded)) << (j * limb_bits);
    }
    rep.diagonal_s += secs(f1, Clock::now());
  }
  u128 sum = 0;
  for (const u128 x : total) sum += x;
  if (sum != checksum) throw RunError("cpu-pairs: the FFT result failed its exact checksum (a wrong answer was caught)");
  std::vector<std::uint64_t> res(k);
  for (std::uint32_t x = 0; x < k; ++x) res[x] = static_cast<std::uint64_t>(total[x]);
  return res;
}

}  // namespace joseki::abc471g::cpu
