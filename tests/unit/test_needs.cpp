#include <gtest/gtest.h>

#include "measure/needs.hpp"

using joseki::measure::DeviceFacts;
using joseki::measure::Feature;
using joseki::measure::Needs;
using joseki::measure::unmet;

namespace {
DeviceFacts gpu(int major, int minor, long long smem_optin = 99 * 1024) {
  DeviceFacts d;
  d.present = true;
  d.cc_major = major;
  d.cc_minor = minor;
  d.smem_per_block_optin = smem_optin;
  return d;
}
}  // namespace

TEST(Needs, NoNeedsRunAnywhereWithAGpu) {
  EXPECT_FALSE(unmet(Needs{}, gpu(7, 5)).has_value());
  EXPECT_EQ(unmet(Needs{}, DeviceFacts{}).value(), "no GPU");
}

TEST(Needs, FeatureNamesTheMissingInstruction) {
  Needs n;
  n.features = {Feature::BulkCopy};
  EXPECT_EQ(n.effective_min_cc(), 90);
  EXPECT_EQ(unmet(n, gpu(8, 6)).value(), "needs sm_90: cp.async.bulk (this GPU is sm_86)");
  EXPECT_FALSE(unmet(n, gpu(9, 0)).has_value());
  EXPECT_FALSE(unmet(n, gpu(12, 0)).has_value());
}

TEST(Needs, WgmmaIsHopperOnly) {
  Needs n;
  n.features = {Feature::Wgmma};
  EXPECT_FALSE(unmet(n, gpu(9, 0)).has_value());
  EXPECT_NE(unmet(n, gpu(10, 0)).value().find("sm_90a"), std::string::npos);
}

TEST(Needs, MinCcAndSharedMemory) {
  Needs n;
  n.min_cc = 80;
  n.smem_per_block = 200 * 1024;
  EXPECT_EQ(unmet(n, gpu(7, 5)).value(), "needs sm_80 (this GPU is sm_75)");
  EXPECT_EQ(unmet(n, gpu(8, 6, 99 * 1024)).value(),
            "needs 200 KiB of shared memory per block (this GPU allows 99 KiB)");
  EXPECT_FALSE(unmet(n, gpu(9, 0, 227 * 1024)).has_value());
}

TEST(Needs, CodeOlderThanTheGpuCounts) {
  // An H200 running a compute_80 PTX build: the sm_90 kernels are traps there.
  DeviceFacts h200 = gpu(9, 0, 227 * 1024);
  h200.code_arch = 80;
  h200.code_jit = true;
  Needs bulk;
  bulk.features = {Feature::BulkCopy};
  EXPECT_EQ(unmet(bulk, h200).value(),
            "needs sm_90: cp.async.bulk (this GPU is sm_90, but runs this build's compute_80 PTX)");
  Needs redux;
  redux.features = {Feature::ReduxSync};
  EXPECT_FALSE(unmet(redux, h200).has_value());
  h200.code_arch = 75;
  EXPECT_EQ(unmet(redux, h200).value(),
            "needs sm_80: redux.sync (this GPU is sm_90, but runs this build's compute_75 PTX)");
  // Native code: code_arch equals the GPU's.
  h200.code_arch = 90;
  EXPECT_FALSE(unmet(bulk, h200).has_value());
}

TEST(Needs, NewFeaturesAreAmpere) {
  for (Feature f : {Feature::Int8MmaK32, Feature::L2CacheHint, Feature::ReduxSync, Feature::CpAsync}) {
    Needs n;
    n.features = {f};
    EXPECT_EQ(n.effective_min_cc(), 80) << joseki::measure::feature_name(f);
    EXPECT_TRUE(unmet(n, gpu(7, 5)).has_value());
    EXPECT_FALSE(unmet(n, gpu(8, 0)).has_value());
  }
}

TEST(Needs, SassForTheGpuOrPtx) {
  using joseki::measure::has_sass_for;
  const std::string fat = "75-real 80-real 86-real 89-real 90-real 100-real 120";
  EXPECT_TRUE(has_sass_for(fat, 7, 5));
  EXPECT_TRUE(has_sass_for(fat, 9, 0));
  EXPECT_TRUE(has_sass_for(fat, 8, 7));    // Orin: sm_86 SASS runs on 8.7
  EXPECT_TRUE(has_sass_for(fat, 10, 3));   // B300: sm_100 SASS
  EXPECT_FALSE(has_sass_for(fat, 11, 0));  // Thor (sm_110): no SASS of major 11 (not shipped)
  EXPECT_FALSE(has_sass_for(fat, 13, 0));  // a future GPU: the driver compiles compute_120 PTX
  EXPECT_FALSE(has_sass_for("80-virtual", 9, 0));
  EXPECT_FALSE(has_sass_for("75-virtual", 7, 5));
  EXPECT_TRUE(has_sass_for("90", 9, 0));
  EXPECT_TRUE(has_sass_for("80;90", 8, 6));
  EXPECT_FALSE(has_sass_for("90a", 10, 0));
  EXPECT_FALSE(has_sass_for("", 9, 0));
}

TEST(Needs, RunningCodeSaysSassOrPtx) {
  using joseki::measure::running_code_text;
  DeviceFacts h200 = gpu(9, 0, 227 * 1024);
  h200.code_arch = 90;
  EXPECT_EQ(running_code_text(h200, "75-real 90-real 120"), "native SASS for sm_90 (this binary: 75-real 90-real 120)");
  h200.code_arch = 80;
  h200.code_jit = true;
  EXPECT_EQ(running_code_text(h200, "80-virtual"),
            "compute_80 PTX, compiled by the driver for sm_90 (this binary: 80-virtual): what needs more than sm_80 is "
            "skipped");
  DeviceFacts future = gpu(13, 0);
  future.code_arch = 120;
  future.code_jit = true;
  EXPECT_EQ(running_code_text(future, "120"),
            "compute_120 PTX, compiled by the driver for sm_130 (this binary: 120): what needs more than sm_120 is "
            "skipped");
}
