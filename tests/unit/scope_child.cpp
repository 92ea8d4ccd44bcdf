// A child process for the EXTERNAL spawner's tests: reports PROGRAM and GPU scopes like
// joseki does, sleeping known amounts so the nesting and the pre/post-main split can be checked.
//   scope_child EXIT_CODE SLEEP_MS
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "measure/program_scope.hpp"

int main(int argc, char** argv) {
  joseki::measure::ProgramScope::begin();
  const int code = argc > 1 ? std::atoi(argv[1]) : 0;
  const int ms = argc > 2 ? std::atoi(argv[2]) : 20;
  std::string line;
  if (std::getline(std::cin, line)) std::cout << "echo:" << line << "\n";
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  joseki::measure::ProgramScope::add("GPU_PIPELINE", ms * 0.5e-3);
  joseki::measure::ProgramScope::add("GPU_COMPUTE", ms * 0.25e-3);
  std::cout.flush();
  joseki::measure::ProgramScope::end();
  return code;
}
