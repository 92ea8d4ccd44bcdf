// The Vulkan ladder's pure parts: the rung table and the cost model's prediction.
#include <gtest/gtest.h>

#include "experiments/reduce_vulkan/ladder.hpp"
#include "experiments/reduce_vulkan/probes.hpp"
#include "measure/errors.hpp"

namespace joseki::reduce_vk {
namespace {

TEST(VulkanRungs, SeedNamesAndLookup) {
  ASSERT_EQ(vk_rungs().size(), 6u);
  EXPECT_EQ(find_vk_rung("v3").slug, "vk_v3_coarsen");
  EXPECT_EQ(find_vk_rung("vk_v6_single_pass").rung, 6);
  EXPECT_EQ(find_vk_rung("2").seed_name, "v2");
  EXPECT_THROW(find_vk_rung("v9"), InputError);
  EXPECT_FALSE(find_vk_rung("v6").fills_output);  // single pass: no fill before the dispatch
}

TEST(VulkanModel, TreeLastWhenBarriersAreDear) {
  // lavapipe-like costs: a barrier ~180 loads, an atomic ~3 loads.
  VkUnitCosts c{6.7e-9, 19.2e-9, 23.8e-9, 1.2e-6};
  const VkPrediction p = predict_ladder(c, 1 << 20, 16);
  EXPECT_EQ(p.ranking, "v3 < v1 < v2");
  EXPECT_NEAR(p.times[0].second, (1 << 20) * 19.2e-9, 1e-12);
  // v2: n loads + 4096 groups x (9 barriers + 1 lone atomic)
  EXPECT_NEAR(p.times[1].second, (1 << 20) * 6.7e-9 + 4096 * (9 * 1.2e-6 + 23.8e-9), 1e-9);
}

TEST(VulkanModel, AtomicsLastWhenTheyAreDear) {
  // H200-like (CUDA figures): same-address atomic per element 25 ps x 32 (warp-aggregated) vs a
  // barrier 13.5 ns spread over 132 SMs x 8 blocks.
  VkUnitCosts c{0.9e-12 * 4, 25e-12, 0.73e-9, 13.5e-9 / (132 * 8)};
  const VkPrediction p = predict_ladder(c, 1 << 28, 1056);
  EXPECT_EQ(p.ranking, "v3 < v2 < v1");
}

TEST(VulkanModel, RankingText) {
  EXPECT_EQ(ranking_text({{"v1", 3}, {"v2", 1}, {"v3", 2}}), "v2 < v3 < v1");
}

}  // namespace
}  // namespace joseki::reduce_vk
