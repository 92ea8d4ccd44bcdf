// The launcher: a small process forked at the very start of main, before any CUDA call, that runs
// the EXTERNAL spawns (issue 17, item 1). A child it starts is timed by a process that has never
// touched CUDA, as from a user's shell; the parent only sends the request over a pipe and reads the
// result back. run_external (spawn.hpp) uses it whenever it is running; without it (not started,
// fork failed, JOSEKI_LAUNCHER=off) spawns happen in the calling process as before.
//
// The device state (idle: no process holds a CUDA context; held: one does, e.g. joseki itself) is
// a separate question: set_device_state_probe() installs a function that answers it before each
// spawn (the app installs NVML's answer), and ExternalResult::device_state carries it.
#pragma once

#include <functional>
#include <string>

#include "measure/spawn.hpp"

namespace joseki::measure::launcher {

// Forks the launcher. Call first thing in main. Idempotent; never throws (a failed fork leaves
// spawns in-process and why_inactive() says why).
void start();
bool active();             // true in the parent while the launcher runs
std::string why_inactive();

// Runs opts in the launcher with the caller's current environment; the same result and errors
// as spawning here (InputError, RunError). Thread-safe (one request at a time).
ExternalResult run(const SpawnOptions& opts);

// "idle" | "held" | "" (unknown), asked before every spawn. Default: unknown.
void set_device_state_probe(std::function<std::string()> probe);
std::string device_state();

}  // namespace joseki::measure::launcher
