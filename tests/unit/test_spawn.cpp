#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "measure/errors.hpp"
#include "measure/scopes.hpp"
#include "measure/spawn.hpp"

using namespace joseki::measure;

TEST(Spawn, ChildReportsScopesThatNestAndSplitPrePostMain) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string in = (dir / "joseki-spawn-in.txt").string(), out = (dir / "joseki-spawn-out.txt").string();
  std::ofstream(in) << "hello\n";
  SpawnOptions o;
  o.argv = {JOSEKI_SCOPE_CHILD, "0", "30"};
  o.stdin_path = in;
  o.stdout_path = out;
  const ExternalResult r = run_external(o);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(r.timed_out);
  ASSERT_TRUE(r.figures.count("PROGRAM"));
  EXPECT_GE(r.figures.at("PROGRAM"), 0.030);
  EXPECT_GE(r.external_s, r.figures.at("PROGRAM"));
  ASSERT_TRUE(r.pre_main_s && r.post_main_s);
  EXPECT_GT(*r.pre_main_s, 0);
  EXPECT_GT(*r.post_main_s, 0);
  EXPECT_NEAR(*r.pre_main_s + r.figures.at("PROGRAM") + *r.post_main_s, r.external_s, 1e-6);
  EXPECT_TRUE(check_nesting(r.scopes()).empty());
  std::ifstream f(out);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_EQ(ss.str(), "echo:hello\n");  // stdin and stdout were redirected
}

TEST(Spawn, ExitCodeIsPassedThrough) {
  SpawnOptions o;
  o.argv = {JOSEKI_SCOPE_CHILD, "3", "1"};
  EXPECT_EQ(run_external(o).exit_code, 3);
}

TEST(Spawn, CommandThatIsNotAJosekiProgramHasNoReport) {
  SpawnOptions o;
  o.argv = {"sh", "-c", "sleep 0.05"};
  const ExternalResult r = run_external(o);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_GE(r.external_s, 0.05);
  EXPECT_TRUE(r.figures.empty());
  EXPECT_FALSE(r.pre_main_s);
}

TEST(Spawn, TimeoutKillsTheChild) {
  SpawnOptions o;
  o.argv = {"sleep", "10"};
  o.timeout_s = 0.2;
  const ExternalResult r = run_external(o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.term_signal, 9);
  EXPECT_LT(r.external_s, 5.0);
}

TEST(Spawn, MissingCommandIsARunErrorNamingIt) {
  SpawnOptions o;
  o.argv = {"/nonexistent/joseki-nothing"};
  try {
    run_external(o);
    FAIL() << "expected RunError";
  } catch (const joseki::RunError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/joseki-nothing"), std::string::npos) << e.what();
  }
  o.argv = {"true"};
  o.stdin_path = "/nonexistent/input";
  EXPECT_THROW(run_external(o), joseki::InputError);
}

TEST(Scopes, NestingCheckNamesViolations) {
  ScopeTimes t;
  t.gpu_compute = 4.5e-3;
  t.gpu_pipeline = 6.9e-3;
  t.program = 86e-3;
  t.external = 123e-3;
  EXPECT_TRUE(check_nesting(t).empty());
  t.gpu_pipeline = 3e-3;
  const auto bad = check_nesting(t);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("GPU_COMPUTE"), std::string::npos);
  EXPECT_NE(bad[0].find("GPU_PIPELINE"), std::string::npos);
  ScopeTimes partial;
  partial.program = 2;
  partial.external = 1;
  EXPECT_EQ(check_nesting(partial).size(), 1u);
}

TEST(Spawn, FindProgramTakesTheEnvironmentThenPathThenFallbacks) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "joseki-find-program";
  fs::create_directories(dir);
  const fs::path tool = dir / "joseki-test-tool", plain = dir / "not-executable";
  std::ofstream(tool) << "#!/bin/sh\n";
  std::ofstream(plain) << "text\n";
  fs::permissions(tool, fs::perms::owner_all);
  fs::permissions(plain, fs::perms::owner_read | fs::perms::owner_write);
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";

  EXPECT_EQ(find_program("joseki-test-tool"), "") << "not on PATH yet";
  EXPECT_EQ(find_program("joseki-test-tool", nullptr, {plain.string(), tool.string()}), tool.string())
      << "the first executable fallback";
  setenv("PATH", (old_path + ":" + dir.string()).c_str(), 1);
  EXPECT_EQ(find_program("joseki-test-tool"), tool.string());
  EXPECT_EQ(find_program("not-executable"), "") << "found but not executable";
  setenv("JOSEKI_TEST_TOOL", plain.string().c_str(), 1);
  EXPECT_EQ(find_program("joseki-test-tool", "JOSEKI_TEST_TOOL"), "") << "a set variable is final, even when wrong";
  setenv("JOSEKI_TEST_TOOL", tool.string().c_str(), 1);
  EXPECT_EQ(find_program("sh", "JOSEKI_TEST_TOOL"), tool.string());
  unsetenv("JOSEKI_TEST_TOOL");
  setenv("PATH", old_path.c_str(), 1);
  fs::remove_all(dir);
}
