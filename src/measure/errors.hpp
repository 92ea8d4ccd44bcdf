// Errors carry context (what, where, which value) and map to the CLI's exit codes:
//   0 ok, 1 run failure (GPU absent, CUDA error, wrong result), 2 bad usage or bad input,
//   3 a regression found by `joseki compare`.
#pragma once

#include <stdexcept>
#include <string>

namespace joseki {

enum ExitCode : int { kExitOk = 0, kExitRunFailure = 1, kExitBadInput = 2, kExitRegression = 3 };

// Bad command-line value or bad input file: exit code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Something failed while running: exit code 1.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No usable GPU (no device, no driver, built without CUDA): exit code 1.
class GpuUnavailable : public RunError {
 public:
  using RunError::RunError;
};

// A computed result differs from the reference: exit code 1.
class ValidationError : public RunError {
 public:
  using RunError::RunError;
};

// `joseki compare` found a result slower beyond its threshold: exit code 3.
class Regression : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace joseki
