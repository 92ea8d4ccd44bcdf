// libFuzzer target: the CLI's option parsing (every command's options and validators, as
// registered for the joseki binary), with the commands' actions switched off. The bytes are
// split at NUL into up to 24 words after "joseki". Each must parse or be a usage error
// (CLI::ParseError, InputError: exit 2); anything else would reach main() as an internal error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/context.hpp"
#include "measure/errors.hpp"

namespace {
// Thrown when parsing is complete, before any command's action runs (CLI11 runs the top-level
// app's parse-complete callback first). The actions stay registered: they own their options' state.
struct Parsed {};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 2048) return 0;
  std::vector<std::string> words{"joseki"};
  std::string w;
  for (std::size_t i = 0; i < size && words.size() < 25; ++i) {
    if (data[i] == 0) {
      words.push_back(w);
      w.clear();
    } else {
      w += static_cast<char>(data[i]);
    }
  }
  if (words.size() < 25 && (!w.empty() || size == 0)) words.push_back(w);
  std::vector<const char*> argv;
  for (const auto& s : words) argv.push_back(s.c_str());

  joseki::app::Context ctx;
  CLI::App app{"joseki"};
  app.require_subcommand(1);
  app.fallthrough();
  app.set_version_flag("--version", "joseki");
  app.add_option("--json", ctx.json_path, "")->check(joseki::app::writable_file_path());
  app.add_option("--device", ctx.device, "")->check(joseki::app::non_negative_integer())->check(CLI::Range(0, 1023));
  app.add_flag("-q,--quiet", ctx.quiet, "");
  for (auto& [order, add] : joseki::app::CommandRegistry::all()) add(app, ctx);
  app.parse_complete_callback([] { throw Parsed{}; });
  (void)joseki::app::unknown_command(app, static_cast<int>(argv.size()), argv.data());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const Parsed&) {
  } catch (const CLI::ParseError&) {
  } catch (const joseki::InputError&) {
  }
  return 0;
}
