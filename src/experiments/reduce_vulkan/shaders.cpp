// The embedded SPIR-V: each header is glslc's -mfmt=c output ({0x07230203, ...}) of one shader.
#include "experiments/reduce_vulkan/shaders.hpp"

#ifdef JOSEKI_HAVE_VULKAN

#include <map>
#include <stdexcept>

namespace joseki::reduce_vk {
namespace {
#define JOSEKI_SPIRV(name) const std::uint32_t k_##name[] =
JOSEKI_SPIRV(v1_atomic)
#include "v1_atomic.spv.h"
;
JOSEKI_SPIRV(v2_tree)
#include "v2_tree.spv.h"
;
JOSEKI_SPIRV(v3_coarsen)
#include "v3_coarsen.spv.h"
;
JOSEKI_SPIRV(v4_subgroup)
#include "v4_subgroup.spv.h"
;
JOSEKI_SPIRV(v5_vec4)
#include "v5_vec4.spv.h"
;
JOSEKI_SPIRV(v6_single_pass)
#include "v6_single_pass.spv.h"
;
JOSEKI_SPIRV(stream_read)
#include "stream_read.spv.h"
;
JOSEKI_SPIRV(probe_atomic)
#include "probe_atomic.spv.h"
;
JOSEKI_SPIRV(probe_atomic_lone)
#include "probe_atomic_lone.spv.h"
;
JOSEKI_SPIRV(probe_head)
#include "probe_head.spv.h"
;
JOSEKI_SPIRV(probe_barrier)
#include "probe_barrier.spv.h"
;
JOSEKI_SPIRV(probe_strided)
#include "probe_strided.spv.h"
;
#undef JOSEKI_SPIRV
}  // namespace

std::span<const std::uint32_t> spirv(const std::string& name) {
#define JOSEKI_ENTRY(n) {#n, std::span<const std::uint32_t>(k_##n)}
  static const std::map<std::string, std::span<const std::uint32_t>> table = {
      JOSEKI_ENTRY(v1_atomic),   JOSEKI_ENTRY(v2_tree),       JOSEKI_ENTRY(v3_coarsen),    JOSEKI_ENTRY(v4_subgroup),
      JOSEKI_ENTRY(v5_vec4),     JOSEKI_ENTRY(v6_single_pass), JOSEKI_ENTRY(stream_read),  JOSEKI_ENTRY(probe_atomic),
      JOSEKI_ENTRY(probe_atomic_lone), JOSEKI_ENTRY(probe_head), JOSEKI_ENTRY(probe_barrier), JOSEKI_ENTRY(probe_strided)};
#undef JOSEKI_ENTRY
  const auto it = table.find(name);
  if (it == table.end()) throw std::out_of_range("Vulkan: no embedded shader named " + name);
  return it->second;
}

}  // namespace joseki::reduce_vk

#endif
