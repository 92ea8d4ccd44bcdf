// `joseki try --ladder abc471g-direct` (issue 18): the count kernel's settings, launch grid and
// examples, without a GPU (the GPU path: tests/cli/test_try.py and the device step `try`).
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "experiments/try/direct_spec.hpp"
#include "experiments/try/ladders.hpp"
#include "measure/errors.hpp"

using namespace joseki;
using namespace joseki::trykernel;

namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

const std::string kSig =
    "extern \"C\" __global__ void joseki_count(const unsigned int* a, unsigned long long n, const unsigned char* v, "
    "unsigned int k, unsigned int* answer) { (void)CHUNK; }\n";

}  // namespace

TEST(TryDirect, LadderIsListedWithItsSignature) {
  const TryLadder& l = find_ladder("abc471g-direct");
  EXPECT_EQ(l.entry, "joseki_count");
  EXPECT_NE(l.signature.find("const unsigned char* v, unsigned int k, unsigned int* answer"), std::string::npos);
  EXPECT_EQ(l.param_sizes, (std::vector<std::size_t>{8, 8, 8, 4, 8}));
  EXPECT_EQ(l.sweepable, (std::vector<std::string>{"block", "chunk"}));
  EXPECT_TRUE(l.settings.count("chunk") && l.settings.count("output") && l.settings.count("block"));
  EXPECT_FALSE(l.settings.count("unroll"));
}

TEST(TryDirect, SettingsBecomeASpec) {
  const TryFile f = parse_try_source("/x/my_count.cu", "// joseki: block=96 chunk=4096 output=atomic like=g02\n"
                                                       "// joseki: sweep chunk=1024,2048 block=64,128\n" + kSig);
  const DirectSpec s = direct_spec(f);
  EXPECT_EQ(s.slug, "try_my_count");
  EXPECT_EQ(s.block, 96);
  EXPECT_EQ(s.chunk, 4096);
  EXPECT_TRUE(s.zero_before);
  EXPECT_EQ(s.like, "g02");
  EXPECT_EQ(s.sweep_chunks, (std::vector<std::int64_t>{1024, 2048}));
  EXPECT_EQ(s.sweep_blocks, (std::vector<std::int64_t>{64, 128}));
  EXPECT_EQ(direct_defines(s, 128, 2048), (std::vector<std::string>{"-DCHUNK=2048ull"}));  // no BLOCK in the source
  const DirectSpec d = direct_spec(parse_try_source("n.cu", "__global__ void k() { int x[BLOCK]; }\n"));
  EXPECT_EQ(d.block, 64);
  EXPECT_EQ(d.chunk, 0);
  EXPECT_FALSE(d.zero_before);
  EXPECT_EQ(direct_defines(d, 64, 0), (std::vector<std::string>{"-DBLOCK=64"}));
}

TEST(TryDirect, BadValuesNameFileAndLine) {
  auto msg = [](const std::string& src) { return message_of([&] { (void)direct_spec(parse_try_source("b.cu", src)); }); };
  EXPECT_NE(msg("// x\n// joseki: block=0\n").find("b.cu:2: block=0"), std::string::npos);
  EXPECT_NE(msg("// joseki: block=2048\n").find("block=2048"), std::string::npos);
  EXPECT_NE(msg("// joseki: chunk=-1\n" + kSig).find("chunk=-1"), std::string::npos);
  EXPECT_NE(msg("// joseki: output=two-slot\n").find("output=two-slot"), std::string::npos);
  EXPECT_NE(msg("// joseki: tie=0.9\n").find("tie=0.9"), std::string::npos);
  EXPECT_NE(msg("// joseki: chunk=64\n__global__ void k() {}\n").find("never uses CHUNK"), std::string::npos);
  EXPECT_NE(msg("// joseki: sweep chunk=64\n" + kSig).find("chunk=<default>"), std::string::npos);
  EXPECT_NE(msg("// joseki: chunk=8\n// joseki: sweep block=0,64\n" + kSig).find("b.cu:2: sweep block: 0"),
            std::string::npos);
}

TEST(TryDirect, GridCoversEveryShiftAndElement) {
  DirectGrid g = direct_grid(7'000'000, 2300, 64, 0);
  EXPECT_EQ(g.x, 36u);  // ceil(2300 / 64)
  EXPECT_EQ(g.y, 1u);
  g = direct_grid(7'000'000, 2300, 64, 8192);
  EXPECT_EQ(g.x, 855u);  // ceil(7e6 / 8192)
  EXPECT_EQ(g.y, 36u);
  g = direct_grid(1, 1, 1024, 7);
  EXPECT_EQ(g.x, 1u);
  EXPECT_EQ(g.y, 1u);
  EXPECT_EQ(direct_grid_check(7'000'000, 2300, 64, 8192), "");
  EXPECT_EQ(direct_grid_check(100, 200'000'000, 1, 0), "");  // chunk 0: grid.x holds the shifts (< 2^31)
  EXPECT_NE(direct_grid_check(100, 200'000, 1, 1).find("grid.y"), std::string::npos);
  EXPECT_NE(direct_grid_check(100, 20, 0, 0).find("block 0"), std::string::npos);
}

TEST(TryDirect, EveryExampleFileIsWellFormed) {
  const TryLadder& l = find_ladder("abc471g-direct");
  const std::string dir = std::string(JOSEKI_SOURCE_DIR) + "/examples/try/abc471g-direct";
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const TryFile f = read_try_file(e.path().string());
    EXPECT_NO_THROW(require_known_keys(f, l.settings, l.sweepable, l.name)) << f.path;
    EXPECT_NO_THROW(l.check(f)) << f.path;
    EXPECT_EQ(f.get("ladder", ""), "abc471g-direct") << f.path;
    ++n;
  }
  EXPECT_EQ(n, 3);
}
