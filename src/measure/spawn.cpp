#include "measure/spawn.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "measure/errors.hpp"
#include "measure/launcher.hpp"
#include "measure/program_scope.hpp"

extern char** environ;

namespace joseki::measure {

ScopeTimes ExternalResult::scopes() const {
  ScopeTimes t;
  t.external = external_s;
  if (auto it = figures.find(to_string(Scope::Program)); it != figures.end()) t.program = it->second;
  if (auto it = figures.find(to_string(Scope::GpuPipeline)); it != figures.end()) t.gpu_pipeline = it->second;
  if (auto it = figures.find(to_string(Scope::GpuCompute)); it != figures.end()) t.gpu_compute = it->second;
  t.pre_main = pre_main_s;
  t.post_main = post_main_s;
  return t;
}

namespace {

std::string make_report_path() {
  char tmpl[] = "/tmp/joseki-scope-XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd < 0) throw RunError(fmt::format("cannot create a temp file for the scope report: {}", std::strerror(errno)));
  close(fd);
  std::remove(tmpl);  // the child creates it; absent file = no report
  return tmpl;
}

}  // namespace

ExternalResult run_external(const SpawnOptions& opts) {
  if (opts.argv.empty()) throw InputError("run_external: empty command");
  std::string state = launcher::device_state();  // asked here, before the child starts
  ExternalResult r = launcher::active() ? launcher::run(opts) : run_external_here(opts);
  r.device_state = std::move(state);
  return r;
}

ExternalResult run_external_here(const SpawnOptions& opts) {
  if (opts.argv.empty()) throw InputError("run_external: empty command");

  // Environment: ours, with opts.env added or replaced, and the report path.
  std::vector<std::pair<std::string, std::string>> add = opts.env;
  std::string report_path;
  if (opts.want_report) {
    report_path = make_report_path();
    add.emplace_back("JOSEKI_SCOPE_REPORT", report_path);
  }
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    const std::string s(*e);
    const std::string key = s.substr(0, s.find('='));
    bool replaced = false;
    for (const auto& [k, v] : add) replaced = replaced || k == key;
    if (!replaced) env_strings.push_back(s);
  }
  for (const auto& [k, v] : add) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  std::vector<std::string> argv_copy = opts.argv;
  std::vector<char*> argv;
  for (auto& s : argv_copy) argv.push_back(s.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  const std::string in = opts.stdin_path.empty() ? "/dev/null" : opts.stdin_path;
  const std::string out = opts.stdout_path.empty() ? "/dev/null" : opts.stdout_path;
  if (access(in.c_str(), R_OK) != 0)
    throw InputError(fmt::format("run_external: cannot read stdin file '{}': {}", in, std::strerror(errno)));
  posix_spawn_file_actions_addopen(&fa, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!opts.stderr_path.empty())
    posix_spawn_file_actions_addopen(&fa, 2, opts.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);

  ExternalResult r;
  pid_t pid = 0;
  const long long t0 = monotonic_ns();
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  if (opts.own_group) {
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
  }
  const int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw RunError(fmt::format("cannot start '{}': {}", opts.argv[0], std::strerror(rc)));

  // Watchdog: kill the child if it outlives the timeout.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::atomic<bool> killed{false};
  std::thread watchdog([&] {
    std::unique_lock lk(mu);
    if (!cv.wait_for(lk, std::chrono::duration<double>(opts.timeout_s), [&] { return done; })) {
      killed = true;
      kill(opts.own_group ? -pid : pid, SIGKILL);
    }
  });
  int status = 0;
  pid_t w;
  do {
    w = waitpid(pid, &status, 0);
  } while (w < 0 && errno == EINTR);
  const long long t1 = monotonic_ns();
  {
    std::lock_guard lk(mu);
    done = true;
  }
  cv.notify_all();
  watchdog.join();

  r.external_s = static_cast<double>(t1 - t0) * 1e-9;
  r.timed_out = killed;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);

  if (!report_path.empty()) {
    std::ifstream f(report_path);
    if (f) {
      try {
        const nlohmann::json j = nlohmann::json::parse(f);
        for (const auto& [k, v] : j.items())
          if (v.is_number() && k != "main_entry_ns" && k != "main_end_ns") r.figures[k] = v.get<double>();
        if (j.contains("main_entry_ns") && j.contains("main_end_ns")) {
          r.pre_main_s = static_cast<double>(j.at("main_entry_ns").get<long long>() - t0) * 1e-9;
          r.post_main_s = static_cast<double>(t1 - j.at("main_end_ns").get<long long>()) * 1e-9;
        }
      } catch (const nlohmann::json::exception&) {
        // A malformed report is treated as no report; the caller sees empty figures.
      }
      f.close();
      std::remove(report_path.c_str());
    }
  }
  return r;
}

std::string find_program(const std::string& name, const char* env_var, const std::vector<std::string>& fallbacks) {
  namespace fs = std::filesystem;
  auto exe = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
  };
  if (const char* e = env_var ? std::getenv(env_var) : nullptr; e && *e) return exe(e) ? e : "";
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (const fs::path p = fs::path(dir.empty() ? "." : dir) / name; exe(p)) return p.string();
  }
  for (const std::string& f : fallbacks)
    if (exe(f)) return f;
  return "";
}

std::string last_lines(const std::string& text, int n, const std::string& sep) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines.push_back(l);
  std::string out;
  for (std::size_t i = lines.size() > static_cast<std::size_t>(n) ? lines.size() - n : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : sep) + lines[i];
  return out;
}

}  // namespace joseki::measure
