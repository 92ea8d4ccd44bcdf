// The measured process's side of the EXTERNAL/PROGRAM scopes. Header-only and
// dependency-free so that even the start-up probes (a plain C++ program) use it.
//
// In main():   joseki::measure::ProgramScope::begin();   // first statement
//              ...                                       // work; GPU scopes via add()
//              joseki::measure::ProgramScope::end();     // at normal completion, output flushed
// If the environment variable JOSEKI_SCOPE_REPORT names a file, end() writes there one
// JSON object: CLOCK_MONOTONIC timestamps of main entry and end (so the parent that spawned
// us can split pre-main and post-main time), PROGRAM seconds, any GPU_PIPELINE /
// GPU_COMPUTE seconds and named phases added during the run.
#pragma once

#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace joseki::measure {

inline long long monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

class ProgramScope {
 public:
  static void begin() { state().entry_ns = monotonic_ns(); }
  // Named figures of this run in seconds: "GPU_PIPELINE", "GPU_COMPUTE", or a phase ("parse", ...).
  static void add(const std::string& name, double seconds) {
    for (auto& [n, v] : state().figures)
      if (n == name) {
        v += seconds;
        return;
      }
    state().figures.emplace_back(name, seconds);
  }
  static double elapsed_s() { return static_cast<double>(monotonic_ns() - state().entry_ns) * 1e-9; }
  // Ends the PROGRAM scope and writes the report if one was asked for. Returns false if the
  // report could not be written (the caller decides whether that matters).
  static bool end() {
    State& s = state();
    s.end_ns = monotonic_ns();
    const char* path = std::getenv("JOSEKI_SCOPE_REPORT");
    if (!path || !*path) return true;
    std::FILE* f = std::fopen(path, "w");
    if (!f) return false;
    std::fprintf(f, "{\"main_entry_ns\": %lld, \"main_end_ns\": %lld, \"PROGRAM\": %.9f", s.entry_ns, s.end_ns,
                 static_cast<double>(s.end_ns - s.entry_ns) * 1e-9);
    for (const auto& [n, v] : s.figures) std::fprintf(f, ", \"%s\": %.9f", n.c_str(), v);
    std::fprintf(f, "}\n");
    return std::fclose(f) == 0;
  }

 private:
  struct State {
    long long entry_ns = monotonic_ns();  // fallback if begin() is never called
    long long end_ns = 0;
    std::vector<std::pair<std::string, double>> figures;
  };
  static State& state() {
    static State s;
    return s;
  }
};

}  // namespace joseki::measure
