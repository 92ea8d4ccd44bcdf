// The SPIR-V of the Vulkan shaders (shaders/*.comp), compiled by glslc at build time and
// embedded in the binary. Only in a build with Vulkan.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace joseki::reduce_vk {

// Throws std::out_of_range naming an unknown shader.
std::span<const std::uint32_t> spirv(const std::string& name);

}  // namespace joseki::reduce_vk
