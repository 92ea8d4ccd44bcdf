// EXTERNAL scope: spawn a command, time it from just before posix_spawn to the
// return of waitpid, and read back the PROGRAM / GPU scopes the child reported
// through JOSEKI_SCOPE_REPORT (see program_scope.hpp). With the child's
// CLOCK_MONOTONIC timestamps of main entry and end, the EXTERNAL time splits into
// pre-main, PROGRAM and post-main.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "measure/scopes.hpp"

namespace joseki::measure {

struct SpawnOptions {
  std::vector<std::string> argv;  // argv[0] is the program (a path, or a name looked up in PATH)
  std::string stdin_path;         // empty: /dev/null
  std::string stdout_path;        // empty: /dev/null
  std::string stderr_path;        // empty: inherit ours
  std::vector<std::pair<std::string, std::string>> env;  // added to (or replacing in) our environment
  double timeout_s = 600;         // the child is killed (SIGKILL) after this long
  bool want_report = true;        // set JOSEKI_SCOPE_REPORT to a fresh temp file and read it back
  bool own_group = false;         // start the child in its own process group and kill the whole group
                                  // at the timeout (a wrapper such as compute-sanitizer and its target)
};

struct ExternalResult {
  int exit_code = -1;    // the child's exit status; -1 when it died from a signal
  int term_signal = 0;   // the signal that ended it, 0 if none
  bool timed_out = false;
  double external_s = 0;
  // From the child's report (empty when it wrote none, e.g. it failed or is not a joseki program):
  std::map<std::string, double> figures;  // "PROGRAM", "GPU_PIPELINE", "GPU_COMPUTE", phases...
  std::optional<double> pre_main_s, post_main_s;
  bool launcher = false;     // timed by the launcher process (launcher.hpp), which never touched CUDA
  std::string device_state;  // "idle" | "held" | "" (unknown): did any process hold a CUDA context at the spawn
  ScopeTimes scopes() const;  // EXTERNAL + whatever the child reported
};

// Throws RunError when the command cannot be started (names the command and errno text).
// Runs in the launcher process when it is active (launcher.hpp), else here.
ExternalResult run_external(const SpawnOptions& opts);
// The spawn itself, in this process (what the launcher calls).
ExternalResult run_external_here(const SpawnOptions& opts);

// A program to run: when $env_var is set, the file it names ("" if that is not an executable
// file); else `name` in a folder of PATH (an empty entry is the current folder); else the first
// executable of `fallbacks` (full paths); else "".
std::string find_program(const std::string& name, const char* env_var = nullptr,
                         const std::vector<std::string>& fallbacks = {});

// The last n non-empty lines of a child's output, joined by `sep` (for one-line error messages).
std::string last_lines(const std::string& text, int n, const std::string& sep = " / ");

}  // namespace joseki::measure
