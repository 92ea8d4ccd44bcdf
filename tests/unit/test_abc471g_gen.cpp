// ABC471G generator: jump-ahead against sequential stepping, generate() against a sequential
// run from 0 across the M boundary, the SIMD generation kernels against the scalar definition,
// and the solver registry.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "backend/cpu/cpu_info.hpp"
#include "experiments/abc471g/cpu/kernels.hpp"
#include "experiments/abc471g/problem.hpp"
#include "measure/errors.hpp"

using namespace joseki::abc471g;

namespace {

// The statement's generator, written out again independently (64-bit wrap-around; r = 0 must
// not shift by 32).
std::uint32_t spec_value(std::uint64_t state, std::uint32_t k) {
  const std::uint64_t x64 = (((state >> 18) ^ state) >> 27) % (1ULL << 32);
  const std::uint32_t x = static_cast<std::uint32_t>(x64);
  const unsigned r = static_cast<unsigned>(state >> 59);
  const std::uint32_t y = r == 0 ? x : (x >> r) | (x << (32 - r));
  return y % k;
}

std::vector<std::uint32_t> sequential(const Problem& p, std::uint64_t upto) {
  std::vector<std::uint32_t> a(upto);
  std::uint64_t state = p.seed;
  for (std::uint64_t i = 0; i < upto; ++i) {
    if (i < p.m()) {
      a[i] = p.b[i];
    } else {
      a[i] = spec_value(state, p.k);
      state = state * 6364136223846793005ULL + 2026081520260815ULL;
    }
  }
  return a;
}

Problem random_problem(std::mt19937_64& rng, std::uint64_t n, std::uint32_t k, std::uint64_t m) {
  Problem p;
  p.n = n;
  p.k = k;
  p.seed = rng() & kMaxSeed;
  for (std::uint64_t i = 0; i < m; ++i) p.b.push_back(static_cast<std::uint32_t>(rng() % k));
  for (std::uint32_t j = 0; j < k; ++j) p.v.push_back(static_cast<std::uint8_t>(rng() & 1));
  return p;
}

}  // namespace

TEST(Abc471gGenerator, JumpMatchesSequentialStepping) {
  for (const std::uint64_t seed : std::vector<std::uint64_t>{0, 1, 12345, kMaxSeed, 0xDEADBEEFCAFEULL}) {
    std::uint64_t s = seed;
    std::uint64_t steps = 0;
    for (const std::uint64_t d : std::vector<std::uint64_t>{0, 1, 2, 3, 63, 64, 65, 1000, 1000003}) {
      while (steps < d) {
        s = lcg_step(s);
        ++steps;
      }
      ASSERT_EQ(lcg_jump(seed, d), s) << "seed " << seed << " d " << d;
    }
  }
}

TEST(Abc471gGenerator, JumpComposesForHugeDistances) {
  // 2^40 + 7 and beyond cannot be stepped one by one; jumps must compose: J(a + b) = J(b) o J(a).
  std::mt19937_64 rng(7);
  const std::uint64_t big[] = {(1ULL << 40) + 7, (1ULL << 40), 7, 10'000'000'000ULL, ~0ULL, 1ULL << 63};
  for (const std::uint64_t a : big)
    for (const std::uint64_t b : big) {
      const std::uint64_t s = rng();
      EXPECT_EQ(lcg_jump(lcg_jump(s, a), b), lcg_jump(s, a + b)) << a << " + " << b;
    }
  EXPECT_EQ(lcg_jump(lcg_jump(99, 1ULL << 40), 7), lcg_jump(lcg_jump(99, 7), 1ULL << 40));
  // The LCG has full period 2^64: stepping 2^64 times is the identity.
  EXPECT_EQ(lcg_jump(lcg_jump(5, 1ULL << 63), 1ULL << 63), 5u);
}

TEST(Abc471gGenerator, PcgValueMatchesTheStatementIncludingRotationZero) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100000; ++i) {
    std::uint64_t s = rng();
    if (i % 4 == 0) s &= (1ULL << 59) - 1;  // r = 0
    const std::uint32_t k = 1 + static_cast<std::uint32_t>(rng() % 70000);
    ASSERT_EQ(pcg_value(s, k), spec_value(s, k)) << s << " " << k;
  }
}

TEST(Abc471gGenerator, GenerateAnyRangeMatchesASequentialRun) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    const std::uint64_t n = 1 + rng() % 5000;
    const std::uint64_t m = 1 + rng() % n;
    const std::uint32_t k = 1 + static_cast<std::uint32_t>(rng() % 3000);
    const Problem p = random_problem(rng, n, k, m);
    const auto ref = sequential(p, n);
    for (int r = 0; r < 20; ++r) {
      // starts before, at and after M; counts crossing it
      std::uint64_t start = rng() % n;
      if (r == 0) start = 0;
      if (r == 1) start = m - 1;
      if (r == 2) start = m < n ? m : m - 1;
      const std::uint64_t count = rng() % (n - start + 1);
      std::vector<std::uint32_t> out(count + 1, 0xA5A5A5A5u);
      generate(p, start, count, out.data());
      for (std::uint64_t j = 0; j < count; ++j) ASSERT_EQ(out[j], ref[start + j]) << "start " << start << " j " << j;
      EXPECT_EQ(out[count], 0xA5A5A5A5u) << "wrote past the end";
    }
  }
}

TEST(Abc471gGenerator, GenerateRejectsRangesBeyondN) {
  std::mt19937_64 rng(1);
  const Problem p = random_problem(rng, 100, 10, 5);
  std::vector<std::uint32_t> out(200);
  EXPECT_THROW(generate(p, 50, 51, out.data()), std::out_of_range);
  EXPECT_THROW(generate(p, 101, 0, out.data()), std::out_of_range);
  EXPECT_THROW(generate(p, 1, ~0ULL, out.data()), std::out_of_range);
  EXPECT_NO_THROW(generate(p, 100, 0, out.data()));
}

TEST(Abc471gGenerator, SimdGenerationKernelsMatchTheDefinition) {
  namespace c = joseki::abc471g::cpu;
  std::vector<const c::KernelSet*> sets{&c::kernels_scalar()};
  const auto& f = joseki::cpu::cpu_features();
#if defined(__x86_64__)
  if (f.avx2) sets.push_back(&c::kernels_avx2());
  if (f.best() == joseki::cpu::SimdLevel::Avx512) sets.push_back(&c::kernels_avx512());
#endif
#if defined(__aarch64__)
  if (f.neon) sets.push_back(&c::kernels_neon());
#endif
  std::mt19937_64 rng(5);
  for (const auto* ks : sets)
    for (const std::uint32_t k : {2u, 3u, 7u, 64u, 2300u, 65535u, 65536u})
      for (const std::size_t count : {0, 1, 7, 8, 15, 16, 17, 100, 1027}) {
        const std::uint64_t s0 = rng();
        const std::uint32_t stride = (count % 2) ? 0u : 640u;
        std::vector<std::uint32_t> out(count + 1, 0xA5A5A5A5u);
        const std::uint64_t end = ks->gen(s0, count, k, stride, out.data());
        std::uint64_t s = s0;
        for (std::size_t i = 0; i < count; ++i) {
          const std::uint32_t a = spec_value(s, k);
          const std::uint32_t want = stride ? (a & 7) * stride + (a >> 3) : a;
          ASSERT_EQ(out[i], want) << ks->name << " k " << k << " i " << i;
          s = lcg_step(s);
        }
        EXPECT_EQ(end, s) << ks->name << ": returned state";
        EXPECT_EQ(out[count], 0xA5A5A5A5u) << ks->name << ": wrote past the end";
      }
}

TEST(Abc471gRegistry, ListsTheCpuSolversAndRejectsUnknownNames) {
  for (const char* s : {"auto", "brute", "cpu-direct", "cpu-pairs", "editorial"}) EXPECT_EQ(find_solver(s).name, s);
  try {
    find_solver("nope");
    FAIL() << "expected InputError";
  } catch (const joseki::InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("nope"), std::string::npos) << m;
    EXPECT_NE(m.find("cpu-direct"), std::string::npos) << m;
  }
  const auto& all = solver_registry();
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_LE(all[i - 1].order, all[i].order);
}
