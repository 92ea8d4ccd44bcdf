// Start-up probe PLAIN: a plain C++ program that does nothing. Its EXTERNAL time is the
// floor every other start-up variant is compared with (exec, dynamic loader, libc start-up).
#include "measure/program_scope.hpp"

int main() {
  joseki::measure::ProgramScope::begin();
  return joseki::measure::ProgramScope::end() ? 0 : 4;
}
