// measure/launcher: EXTERNAL spawns run by a process forked before anything touched CUDA; the same
// results and errors as spawning in-process, the caller's environment at the time of the request,
// and the device state asked before each spawn.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "measure/errors.hpp"
#include "measure/launcher.hpp"
#include "measure/scopes.hpp"
#include "measure/spawn.hpp"

using namespace joseki::measure;

namespace {
void start_launcher() {
  launcher::start();
  ASSERT_TRUE(launcher::active()) << launcher::why_inactive();
}
}  // namespace

TEST(Launcher, RunsTheChildAndReadsItsScopes) {
  start_launcher();
  const auto dir = std::filesystem::temp_directory_path();
  const std::string in = (dir / "joseki-launcher-in.txt").string(), out = (dir / "joseki-launcher-out.txt").string();
  std::ofstream(in) << "hi\n";
  SpawnOptions o;
  o.argv = {JOSEKI_SCOPE_CHILD, "0", "20"};
  o.stdin_path = in;
  o.stdout_path = out;
  const ExternalResult r = run_external(o);
  EXPECT_TRUE(r.launcher);
  EXPECT_EQ(r.exit_code, 0);
  ASSERT_TRUE(r.figures.count("PROGRAM"));
  EXPECT_GE(r.figures.at("PROGRAM"), 0.020);
  ASSERT_TRUE(r.pre_main_s && r.post_main_s);
  EXPECT_NEAR(*r.pre_main_s + r.figures.at("PROGRAM") + *r.post_main_s, r.external_s, 1e-6);
  EXPECT_TRUE(check_nesting(r.scopes()).empty());
  std::ifstream f(out);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_EQ(ss.str(), "echo:hi\n");
}

TEST(Launcher, ExitCodesSignalsAndTimeoutsPassThrough) {
  start_launcher();
  SpawnOptions o;
  o.argv = {"/bin/sh", "-c", "exit 5"};
  o.want_report = false;
  EXPECT_EQ(run_external(o).exit_code, 5);
  o.argv = {"/bin/sh", "-c", "kill -TERM $$"};
  const ExternalResult k = run_external(o);
  EXPECT_EQ(k.exit_code, -1);
  EXPECT_EQ(k.term_signal, 15);
  o.argv = {"/bin/sleep", "5"};
  o.timeout_s = 0.2;
  const ExternalResult t = run_external(o);
  EXPECT_TRUE(t.timed_out);
  EXPECT_LT(t.external_s, 3.0);
}

TEST(Launcher, UsesTheCallersEnvironmentOfTheMoment) {
  start_launcher();
  ASSERT_EQ(setenv("JOSEKI_LAUNCHER_TEST", "set-after-fork", 1), 0);
  SpawnOptions o;
  o.argv = {"/bin/sh", "-c", "test \"$JOSEKI_LAUNCHER_TEST\" = set-after-fork && test \"$EXTRA\" = 7"};
  o.env = {{"EXTRA", "7"}};
  o.want_report = false;
  EXPECT_EQ(run_external(o).exit_code, 0);
  unsetenv("JOSEKI_LAUNCHER_TEST");
  EXPECT_EQ(run_external(o).exit_code, 1);
}

TEST(Launcher, ErrorsKeepTheirKind) {
  start_launcher();
  SpawnOptions o;
  o.argv = {"/no/such/program-joseki"};
  o.want_report = false;
  EXPECT_THROW(run_external(o), joseki::RunError);
  o.argv = {"/bin/true"};
  o.stdin_path = "/no/such/input-joseki";
  try {
    run_external(o);
    FAIL() << "expected InputError";
  } catch (const joseki::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/no/such/input-joseki"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(launcher::active());  // an error in one request leaves the launcher running
}

TEST(Launcher, DeviceStateIsAskedBeforeEachSpawn) {
  int asked = 0;
  launcher::set_device_state_probe([&] {
    ++asked;
    return std::string(asked == 1 ? "held" : "idle");
  });
  SpawnOptions o;
  o.argv = {"/bin/true"};
  o.want_report = false;
  EXPECT_EQ(run_external(o).device_state, "held");
  EXPECT_EQ(run_external(o).device_state, "idle");
  EXPECT_EQ(asked, 2);
  launcher::set_device_state_probe(nullptr);
  EXPECT_EQ(run_external(o).device_state, "");
}
