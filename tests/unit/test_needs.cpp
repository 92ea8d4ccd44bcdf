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
