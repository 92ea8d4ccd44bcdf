#include "measure/scopes.hpp"

#include <fmt/format.h>

#include "measure/enum_names.hpp"
#include "measure/table.hpp"

namespace joseki::measure {

const char* to_string(Scope s) {
  static constexpr EnumName<Scope> names[] = {{Scope::External, "EXTERNAL"},
                                              {Scope::Program, "PROGRAM"},
                                              {Scope::GpuPipeline, "GPU_PIPELINE"},
                                              {Scope::GpuCompute, "GPU_COMPUTE"},
                                              {Scope::CpuCompute, "CPU_COMPUTE"}};
  return enum_name(s, names);
}

std::vector<std::string> check_nesting(const ScopeTimes& t) {
  struct Level {
    const char* name;
    std::optional<double> v;
  };
  const Level levels[] = {{"GPU_COMPUTE", t.gpu_compute},
                          {"GPU_PIPELINE", t.gpu_pipeline},
                          {"PROGRAM", t.program},
                          {"EXTERNAL", t.external}};
  std::vector<std::string> bad;
  for (int i = 0; i < 4; ++i) {
    if (!levels[i].v) continue;
    if (*levels[i].v < 0) bad.push_back(fmt::format("{} is negative ({})", levels[i].name, *levels[i].v));
    for (int j = i + 1; j < 4; ++j)
      if (levels[j].v && *levels[i].v > *levels[j].v)
        bad.push_back(fmt::format("{} ({}) exceeds {} ({})", levels[i].name, format_time(*levels[i].v),
                                  levels[j].name, format_time(*levels[j].v)));
  }
  return bad;
}

}  // namespace joseki::measure
