// joseki: measure which GPU kernel optimization patterns hold on the hardware in front of you.
//
// Exit codes: 0 ok, 1 run failure (no GPU, CUDA error, wrong result), 2 bad usage or bad input.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "app/context.hpp"
#include "backend/nvml.hpp"
#include "measure/errors.hpp"
#include "measure/launcher.hpp"
#include "measure/program_scope.hpp"

namespace {

std::string self_exe_path(const char* argv0) {
  char buf[PATH_MAX] = {};
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string(argv0);
}

// The EXTERNAL launcher (measure/launcher.hpp) is forked before anything can touch CUDA, for the
// commands that spawn measured children; a measured child (JOSEKI_SCOPE_REPORT set) and the one-shot
// commands do not fork it, so a user's `joseki abc471g solve` pays nothing for it.
bool wants_launcher(int argc, char** argv) {
  if (std::getenv("JOSEKI_SCOPE_REPORT")) return false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    for (const char* one_shot : {"solve", "gen", "check", "table", "report", "compare", "child", "--help", "-h",
                                 "--version"})
      if (a == one_shot) return false;
  }
  return true;
}

int finish(joseki::app::Context& ctx, int code) {
  try {
    ctx.write_json();
  } catch (const std::exception& e) {
    std::cerr << "joseki: error: " << e.what() << std::endl;
    if (code == 0) code = joseki::kExitRunFailure;
  }
  // Output lost (stdout on a full disk, /dev/full, a closed pipe) is a failure, not a success.
  std::cout.flush();
  errno = 0;
  const bool flush_failed = std::fflush(stdout) != 0;
  const int err = errno;
  if (flush_failed || std::ferror(stdout) || !std::cout) {
    std::cerr << "joseki: error: cannot write standard output" << (err ? std::string(": ") + std::strerror(err) : "")
              << std::endl;
    if (code == 0) code = joseki::kExitRunFailure;
  }
  joseki::measure::ProgramScope::end();
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  joseki::measure::ProgramScope::begin();
  if (wants_launcher(argc, argv)) joseki::measure::launcher::start();
  joseki::measure::launcher::set_device_state_probe([]() -> std::string {
    const auto n = joseki::nvml::contexts_anywhere();
    return !n ? std::string() : *n > 0 ? std::string("held") : std::string("idle");
  });
  using joseki::app::Context;

  CLI::App app{
      "joseki: which GPU kernel optimization patterns (\"joseki\") hold on this hardware, and why, by measurement.\n"
      "Exit codes: 0 ok, 1 run failure (no GPU, CUDA error, wrong result), 2 bad usage or bad input,\n"
      "3 a regression found by `joseki compare`."};
  app.require_subcommand(1);
  app.fallthrough();
  app.set_version_flag("--version", "joseki 0.1.0");

  Context ctx;
  ctx.self_exe = self_exe_path(argv[0]);
  for (int i = 0; i < argc; ++i) ctx.command_line += (i ? " " : "") + std::string(argv[i]);
  app.add_option("--json", ctx.json_path, "write the records of this run to PATH (JSON, docs/records.schema.json)")
      ->check(joseki::app::writable_file_path());
  app.add_option("--device", ctx.device, "GPU to use (index, as CUDA numbers them)")
      ->check(joseki::app::non_negative_integer())
      ->check(CLI::Range(0, 1023));
  app.add_flag("-q,--quiet", ctx.quiet, "no progress lines on stderr");

  auto& adders = joseki::app::CommandRegistry::all();
  std::stable_sort(adders.begin(), adders.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, add] : adders) add(app, ctx);

  // Name an unknown command or subcommand plainly (CLI11 would only say that one is required).
  if (const std::string unknown = joseki::app::unknown_command(app, argc, argv); !unknown.empty()) {
    std::cerr << "joseki: error: " << unknown << std::endl;
    return finish(ctx, joseki::kExitBadInput);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    app.exit(e);
    return finish(ctx, 0);
  } catch (const CLI::CallForAllHelp& e) {
    app.exit(e);
    return finish(ctx, 0);
  } catch (const CLI::CallForVersion& e) {
    app.exit(e);
    return finish(ctx, 0);
  } catch (const CLI::ParseError& e) {
    std::cerr << "joseki: error: " << e.what() << "\nRun 'joseki --help' (or 'joseki COMMAND --help') for usage."
              << std::endl;
    return finish(ctx, joseki::kExitBadInput);
  } catch (const joseki::InputError& e) {
    std::cerr << "joseki: error: " << e.what() << std::endl;
    return finish(ctx, joseki::kExitBadInput);
  } catch (const joseki::Regression& e) {
    std::cerr << "joseki: " << e.what() << std::endl;
    return finish(ctx, joseki::kExitRegression);
  } catch (const joseki::GpuUnavailable& e) {
    std::cerr << "joseki: no GPU: " << e.what() << std::endl;
    return finish(ctx, joseki::kExitRunFailure);
  } catch (const joseki::RunError& e) {
    std::cerr << "joseki: error: " << e.what() << std::endl;
    return finish(ctx, joseki::kExitRunFailure);
  } catch (const std::bad_alloc&) {
    std::cerr << "joseki: error: out of host memory" << std::endl;
    return finish(ctx, joseki::kExitRunFailure);
  } catch (const std::exception& e) {
    std::cerr << "joseki: internal error: " << e.what() << std::endl;
    return finish(ctx, joseki::kExitRunFailure);
  }
  return finish(ctx, joseki::kExitOk);
}
