// The launcher process (launcher.hpp). Protocol: one JSON object per line each way.
#include "measure/launcher.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <nlohmann/json.hpp>

#include "measure/errors.hpp"

extern char** environ;

namespace joseki::measure::launcher {
namespace {

using json = nlohmann::json;

std::mutex g_mu;
int g_req = -1, g_resp = -1;  // parent's ends
pid_t g_pid = 0;
std::string g_why = "not started";
std::function<std::string()> g_state;

bool write_line(int fd, const std::string& s) {
  std::string line = s + "\n";
  std::size_t off = 0;
  while (off < line.size()) {
    const ssize_t n = ::write(fd, line.data() + off, line.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<std::size_t>(n);
  }
  return true;
}

bool read_line(int fd, std::string* out) {
  out->clear();
  char c;
  for (;;) {
    const ssize_t n = ::read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    if (c == '\n') return true;
    out->push_back(c);
  }
}

json to_json(const ExternalResult& r) {
  json j = {{"ok", true},          {"exit_code", r.exit_code}, {"term_signal", r.term_signal},
            {"timed_out", r.timed_out}, {"external_s", r.external_s}, {"figures", r.figures}};
  j["pre_main_s"] = r.pre_main_s ? json(*r.pre_main_s) : json(nullptr);
  j["post_main_s"] = r.post_main_s ? json(*r.post_main_s) : json(nullptr);
  return j;
}

[[noreturn]] void serve(int req, int resp) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive joseki
  if (getppid() == 1) _exit(0);
  std::string line;
  while (read_line(req, &line)) {
    json out;
    try {
      const json j = json::parse(line);
      clearenv();
      for (const auto& e : j.at("environ")) putenv(strdup(e.get<std::string>().c_str()));
      SpawnOptions o;
      o.argv = j.at("argv").get<std::vector<std::string>>();
      o.stdin_path = j.at("stdin").get<std::string>();
      o.stdout_path = j.at("stdout").get<std::string>();
      o.stderr_path = j.at("stderr").get<std::string>();
      o.env = j.at("env").get<std::vector<std::pair<std::string, std::string>>>();
      o.timeout_s = j.at("timeout_s").get<double>();
      o.want_report = j.at("want_report").get<bool>();
      out = to_json(run_external_here(o));
    } catch (const InputError& e) {
      out = {{"ok", false}, {"kind", "input"}, {"what", e.what()}};
    } catch (const std::exception& e) {
      out = {{"ok", false}, {"kind", "run"}, {"what", e.what()}};
    }
    if (!write_line(resp, out.dump())) break;
  }
  _exit(0);
}

}  // namespace

void start() {
  std::lock_guard lk(g_mu);
  if (g_pid > 0) return;
  if (const char* e = std::getenv("JOSEKI_LAUNCHER"); e && std::strcmp(e, "off") == 0) {
    g_why = "JOSEKI_LAUNCHER=off";
    return;
  }
  int req[2], resp[2];
  if (pipe2(req, O_CLOEXEC) != 0) {
    g_why = std::string("pipe: ") + std::strerror(errno);
    return;
  }
  if (pipe2(resp, O_CLOEXEC) != 0) {
    g_why = std::string("pipe: ") + std::strerror(errno);
    ::close(req[0]);
    ::close(req[1]);
    return;
  }
  std::fflush(nullptr);  // no buffered output duplicated into the launcher
  const pid_t pid = fork();
  if (pid < 0) {
    g_why = std::string("fork: ") + std::strerror(errno);
    for (int fd : {req[0], req[1], resp[0], resp[1]}) ::close(fd);
    return;
  }
  if (pid == 0) {
    ::close(req[1]);
    ::close(resp[0]);
    serve(req[0], resp[1]);
  }
  ::close(req[0]);
  ::close(resp[1]);
  g_req = req[1];
  g_resp = resp[0];
  g_pid = pid;
  g_why.clear();
  std::atexit([] {
    // Closing the request pipe ends the launcher; reap it so no zombie is left behind.
    if (g_pid > 0) {
      ::close(g_req);
      ::close(g_resp);
      int st = 0;
      waitpid(g_pid, &st, 0);
      g_pid = 0;
    }
  });
}

bool active() {
  std::lock_guard lk(g_mu);
  return g_pid > 0;
}

std::string why_inactive() {
  std::lock_guard lk(g_mu);
  return g_why;
}

ExternalResult run(const SpawnOptions& opts) {
  json env = json::array();
  for (char** e = environ; *e; ++e) env.push_back(*e);
  const json req = {{"argv", opts.argv},           {"stdin", opts.stdin_path},     {"stdout", opts.stdout_path},
                    {"stderr", opts.stderr_path},  {"env", opts.env},              {"timeout_s", opts.timeout_s},
                    {"want_report", opts.want_report}, {"environ", env}};
  std::lock_guard lk(g_mu);
  std::string line;
  if (g_pid <= 0 || !write_line(g_req, req.dump()) || !read_line(g_resp, &line)) {
    g_why = "the launcher process ended";
    if (g_pid > 0) {
      int st = 0;
      waitpid(g_pid, &st, WNOHANG);
    }
    g_pid = 0;
    throw RunError("EXTERNAL launcher: " + g_why);
  }
  const json j = json::parse(line);
  if (!j.at("ok").get<bool>()) {
    if (j.at("kind") == "input") throw InputError(j.at("what").get<std::string>());
    throw RunError(j.at("what").get<std::string>());
  }
  ExternalResult r;
  r.exit_code = j.at("exit_code").get<int>();
  r.term_signal = j.at("term_signal").get<int>();
  r.timed_out = j.at("timed_out").get<bool>();
  r.external_s = j.at("external_s").get<double>();
  r.figures = j.at("figures").get<std::map<std::string, double>>();
  if (!j.at("pre_main_s").is_null()) r.pre_main_s = j.at("pre_main_s").get<double>();
  if (!j.at("post_main_s").is_null()) r.post_main_s = j.at("post_main_s").get<double>();
  r.launcher = true;
  return r;
}

void set_device_state_probe(std::function<std::string()> probe) {
  std::lock_guard lk(g_mu);
  g_state = std::move(probe);
}

std::string device_state() {
  std::function<std::string()> f;
  {
    std::lock_guard lk(g_mu);
    f = g_state;
  }
  return f ? f() : std::string();
}

}  // namespace joseki::measure::launcher
