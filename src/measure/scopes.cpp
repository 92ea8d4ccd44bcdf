#include "measure/scopes.hpp"

#include <iterator>

#include <fmt/format.h>

#include "measure/enum_names.hpp"
#include "measure/table.hpp"

namespace joseki::measure {

namespace {
constexpr EnumName<Scope> kScopeNames[] = {{Scope::External, "EXTERNAL"},     {Scope::Program, "PROGRAM"},
                                           {Scope::GpuPipeline, "GPU_PIPELINE"}, {Scope::GpuCompute, "GPU_COMPUTE"},
                                           {Scope::CpuCompute, "CPU_COMPUTE"},  {Scope::Value, "VALUE"}};
constexpr Scope kAllScopes[] = {Scope::External,   Scope::Program,    Scope::GpuPipeline,
                                Scope::GpuCompute, Scope::CpuCompute, Scope::Value};
static_assert(std::size(kAllScopes) == std::size(kScopeNames));
}  // namespace

const char* to_string(Scope s) { return enum_name(s, kScopeNames); }

std::optional<Scope> scope_from_string(std::string_view name) {
  for (const EnumName<Scope>& n : kScopeNames)
    if (name == n.name) return n.value;
  return std::nullopt;
}

std::span<const Scope> all_scopes() { return kAllScopes; }

std::vector<std::string> check_nesting(const ScopeTimes& t) {
  struct Level {
    const char* name;
    std::optional<double> v;
  };
  const Level levels[] = {{to_string(Scope::GpuCompute), t.gpu_compute},
                          {to_string(Scope::GpuPipeline), t.gpu_pipeline},
                          {to_string(Scope::Program), t.program},
                          {to_string(Scope::External), t.external}};
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
