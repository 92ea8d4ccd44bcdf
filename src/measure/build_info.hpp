// Facts about this build, recorded with every result (generated at build time).
#pragma once

#include <string>

namespace joseki::measure {

struct BuildInfo {
  std::string git_commit;   // "unknown" outside a git checkout
  bool git_dirty = false;   // tracked files differed from the commit when this was built
  std::string cxx_compiler;
  std::string cuda_compiler;  // "none" in a CPU-only build
  std::string build_type;
  std::string cxx_flags;
  std::string cuda_flags;
  std::string cuda_architectures;
  bool have_cuda = false;
};

const BuildInfo& build_info();

}  // namespace joseki::measure
