// joseki try (issue 18), the parts that need no GPU: the file's directives, the reduce ladder's
// settings, ptxas's resource lines, the mismatch explanation, the ranking, the sanitizer log, the
// child's result check, the history; and, in a CUDA build, NVRTC compiling the examples (skipped
// with the reason when NVRTC cannot be loaded).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "experiments/try/ladders.hpp"
#include "experiments/try/reduce_spec.hpp"
#include "experiments/try/result.hpp"
#include "experiments/try/sanitizer.hpp"
#include "measure/errors.hpp"
#include "measure/throughput.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/nvrtc.hpp"
#endif

using namespace joseki;
using namespace joseki::trykernel;

namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

std::string example(const std::string& name) {
  return std::string(JOSEKI_SOURCE_DIR) + "/examples/try/reduce/" + name;
}

}  // namespace

TEST(TrySpec, DirectivesAndSweepsParse) {
  const TryFile f = parse_try_source("k.cu",
                                     "// hello\n"
                                     "// joseki: grid=wave-vector block=512\n"
                                     "__global__ void x() {}\n"
                                     "  // joseki: sweep unroll=1,2,4 block=256,512\n");
  EXPECT_EQ(f.name, "k");
  EXPECT_EQ(f.get("grid", ""), "wave-vector");
  EXPECT_EQ(f.get_int("block", 0), 512);
  EXPECT_EQ(f.settings.at("block").line, 2);
  ASSERT_EQ(f.sweep.count("unroll"), 1u);
  EXPECT_EQ(f.sweep.at("unroll").values, (std::vector<std::int64_t>{1, 2, 4}));
  EXPECT_EQ(f.sweep.at("block").line, 4);
  EXPECT_EQ(variant_of(f), "try_k");
}

TEST(TrySpec, BadDirectivesNameFileAndLine) {
  EXPECT_NE(message_of([] { parse_try_source("a.cu", "\n// joseki: block\n"); }).find("a.cu:2"), std::string::npos);
  EXPECT_NE(message_of([] { parse_try_source("a.cu", "// joseki: block=1\n// joseki: block=2\n"); }).find("set twice"),
            std::string::npos);
  EXPECT_NE(message_of([] { parse_try_source("a.cu", "// joseki: sweep unroll=1,x\n"); }).find("'x' is not an integer"),
            std::string::npos);
  const TryFile f = parse_try_source("b.cu", "// joseki: colour=red\n");
  const std::string m = message_of([&] { require_known_keys(f, find_ladder("reduce").settings, {"block"}, "reduce"); });
  EXPECT_NE(m.find("b.cu:1"), std::string::npos) << m;
  EXPECT_NE(m.find("'colour'"), std::string::npos) << m;
  EXPECT_NE(m.find("blocks_per_sm"), std::string::npos) << m;  // lists the settings
}

TEST(TrySpec, ReduceSettingsBecomeARung) {
  const ReduceSpec s = reduce_spec(parse_try_source(
      "g.cu", "// joseki: grid=wave-vector output=two-slot block=512 unroll=8 like=r10 workspace=8\n"
              "// joseki: sweep unroll=2,4\n#define X UNROLL\n"));
  EXPECT_EQ(s.rung.slug, "try_g");
  EXPECT_EQ(s.rung.grid, reduce::GridPolicy::WaveVector);
  EXPECT_EQ(s.rung.output, reduce::Output::TwoSlot);
  EXPECT_FALSE(s.zero_before);
  EXPECT_EQ(s.rung.defaults.block, 512);
  EXPECT_EQ(s.rung.defaults.unroll, 8);
  EXPECT_EQ(s.rung.predecessor, "r10_two_slot");
  EXPECT_EQ(s.workspace_bytes, 8u);
  EXPECT_TRUE(s.rung.swept);
  EXPECT_EQ(s.rung.space.unroll, (std::vector<std::int64_t>{2, 4}));
  EXPECT_TRUE(s.unroll_macro);
  EXPECT_FALSE(s.block_macro);
  EXPECT_EQ(reduce_defines(s, 256, 4), (std::vector<std::string>{"-DUNROLL=4"}));
  const ReduceSpec d = reduce_spec(parse_try_source("d.cu", "int BLOCKS; int BLOCK_; int x[BLOCK];\n"));
  EXPECT_TRUE(d.zero_before);  // output=atomic by default
  EXPECT_TRUE(d.block_macro);
  EXPECT_EQ(reduce_defines(d, 128, 1), (std::vector<std::string>{"-DBLOCK=128"}));
}

TEST(TrySpec, BadReduceValuesAreInputErrors) {
  auto m = [](const char* src) { return message_of([&] { reduce_spec(parse_try_source("r.cu", src)); }); };
  EXPECT_NE(m("// joseki: grid=diagonal\n").find("r.cu:1: grid=diagonal"), std::string::npos);
  EXPECT_NE(m("// joseki: output=maybe\n").find("output=maybe"), std::string::npos);
  EXPECT_NE(m("// joseki: block=100\n").find("not a multiple of 32"), std::string::npos);
  EXPECT_NE(m("// joseki: unroll=3\n").find("unroll=3"), std::string::npos);
  EXPECT_NE(m("// joseki: grid=wave unroll=2\n").find("wave-vector only"), std::string::npos);
  EXPECT_NE(m("// joseki: sweep block=33\n").find("sweep block: 33"), std::string::npos);
  EXPECT_NE(m("// joseki: like=r99\n").find("'r99'"), std::string::npos);
  EXPECT_NE(m("// joseki: block=lots\n").find("not an integer"), std::string::npos);
}

TEST(TrySpec, EveryExampleFileIsWellFormed) {
  for (const char* name : {"naive.cu", "warp.cu", "good.cu", "wrong_oob.cu", "wrong_race.cu", "hang.cu", "broken.cu",
                           "wrong_signature.cu"}) {
    const TryFile f = read_try_file(example(name));
    const TryLadder& l = find_ladder(f.get("ladder", "reduce"));
    EXPECT_NO_THROW(require_known_keys(f, l.settings, l.sweepable, l.name)) << name;
    EXPECT_NO_THROW(l.check(f)) << name;
    EXPECT_TRUE(uses_identifier(f.source, l.entry)) << name;
    EXPECT_NE(f.source.find("extern \"C\" __global__"), std::string::npos) << name;
  }
}

TEST(TrySpec, MissingFileAndUnknownLadderAreInputErrors) {
  EXPECT_NE(message_of([] { read_try_file("/nonexistent/k.cu"); }).find("/nonexistent/k.cu"), std::string::npos);
  EXPECT_NE(message_of([] { find_ladder("sort"); }).find("'sort'"), std::string::npos);
}

TEST(TryNvrtc, PtxasLinesParse) {
  const std::string log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'other' for 'sm_90'\n"
      "ptxas info    : Used 99 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function 'joseki_reduce' for 'sm_90'\n"
      "ptxas info    : Function properties for joseki_reduce\n"
      "ptxas         .     8 bytes stack frame, 12 bytes spill stores, 16 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 1 barriers, 128 bytes smem, 400 bytes cmem[0]\n"
      "ptxas info    : Compile time = 45.238 ms\n";
#ifdef JOSEKI_HAVE_CUDA
  const auto p = cuda::nvrtc::parse_ptxas_info(log, "joseki_reduce");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->registers, 32);
  EXPECT_EQ(p->smem_bytes, 128);
  EXPECT_EQ(p->cmem_bytes, 400);
  EXPECT_EQ(p->stack_frame_bytes, 8);
  EXPECT_EQ(p->spill_store_bytes, 12);
  EXPECT_EQ(p->spill_load_bytes, 16);
  EXPECT_EQ(cuda::nvrtc::parse_ptxas_info(log, "other")->registers, 99);
  EXPECT_FALSE(cuda::nvrtc::parse_ptxas_info("no ptxas here", "joseki_reduce"));
  EXPECT_EQ(cuda::nvrtc::normalize_arch("90"), "sm_90");
  EXPECT_EQ(cuda::nvrtc::normalize_arch("compute_80"), "compute_80");
  EXPECT_EQ(cuda::nvrtc::normalize_arch("sm_90a"), "sm_90a");
  EXPECT_THROW(cuda::nvrtc::normalize_arch("hopper"), InputError);
#else
  GTEST_SKIP() << "built without CUDA: the NVRTC backend is not compiled";
#endif
}

TEST(TryNvrtc, ExamplesCompileAndBrokenOneNamesItsLine) {
#ifdef JOSEKI_HAVE_CUDA
  std::string why;
  if (!cuda::nvrtc::library(&why)) GTEST_SKIP() << "NVRTC not available: " << why;
  const TryLadder& l = find_ladder("reduce");
  const CompileReport good = compile_only(l, read_try_file(example("good.cu")), "sm_90");
  ASSERT_TRUE(good.ok) << good.log;
  ASSERT_TRUE(good.has_ptxas) << good.log;
  EXPECT_GT(good.registers, 0);
  EXPECT_LE(good.registers, 32);  // __launch_bounds__(1024, 2), as r10
  EXPECT_EQ(good.spill_store_bytes, 0);
  EXPECT_EQ(good.defines, (std::vector<std::string>{"-DUNROLL=4"}));
  const CompileReport ptx = compile_only(l, read_try_file(example("naive.cu")), "compute_90");
  ASSERT_TRUE(ptx.ok) << ptx.log;
  EXPECT_FALSE(ptx.has_ptxas);
  EXPECT_GT(ptx.ptx_bytes, 100u);
  const CompileReport broken = compile_only(l, read_try_file(example("broken.cu")), "sm_90");
  EXPECT_FALSE(broken.ok);
  EXPECT_NE(broken.log.find("broken.cu(9): error"), std::string::npos) << broken.log;
#else
  GTEST_SKIP() << "built without CUDA: NVRTC is not wired in";
#endif
}

// A cubin compile keeps its PTX, whose .param list is the signature check (Module::param_sizes):
// no cudaFuncGetParamInfo probe past the last parameter, the API error compute-sanitizer reported.
TEST(TryNvrtc, CubinCompileKeepsPtxWithTheSignature) {
#ifdef JOSEKI_HAVE_CUDA
  std::string why;
  if (!cuda::nvrtc::library(&why)) GTEST_SKIP() << "NVRTC not available: " << why;
  auto sizes_of = [](const std::string& name) {
    const TryFile f = read_try_file(example(name));
    cuda::nvrtc::CompileRequest req;
    req.source = f.source;
    req.file_name = f.path;
    req.arch = "sm_90";
    req.options = {"-DBLOCK=256", "-DUNROLL=4", "-lineinfo"};
    const cuda::nvrtc::CompileResult r = cuda::nvrtc::compile(req);
    EXPECT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(r.cubin.empty());
    EXPECT_FALSE(r.ptx.empty()) << "NVRTC " << r.lib.major << "." << r.lib.minor << " kept no PTX of an sm_90 compile";
    return cuda::nvrtc::ptx_param_sizes(r.ptx, "joseki_reduce");
  };
  const auto good = sizes_of("good.cu");
  ASSERT_TRUE(good);
  EXPECT_EQ(*good, (std::vector<std::size_t>{8, 8, 8, 4, 8}));
  const auto sig = sizes_of("wrong_signature.cu");
  ASSERT_TRUE(sig);
  EXPECT_EQ(*sig, (std::vector<std::size_t>{8, 8, 8}));
#else
  GTEST_SKIP() << "built without CUDA: NVRTC is not wired in";
#endif
}

TEST(TryReduce, MismatchExplanationNamesTheElements) {
  const std::vector<std::uint32_t> in = {10, 20, 30, 40, 50, 60, 70};  // n = 5, then 2 words after the end
  const std::uint32_t expected = 150;
  EXPECT_NE(explain_reduce_mismatch(in.data(), 5, 2, 0xA5A5A5A5u, expected).find("poison"), std::string::npos);
  EXPECT_NE(explain_reduce_mismatch(in.data(), 5, 2, 60, expected).find("in[3..4], the last 2 elements"),
            std::string::npos);
  EXPECT_NE(explain_reduce_mismatch(in.data(), 5, 2, 140, expected).find("in[0..0], the first 1 element"),
            std::string::npos);
  EXPECT_NE(explain_reduce_mismatch(in.data(), 5, 2, 280, expected).find("2 words after in[n - 1] (in[5..6])"),
            std::string::npos);
  EXPECT_NE(explain_reduce_mismatch(in.data(), 5, 2, 300, expected).find("twice"), std::string::npos);
  EXPECT_NE(explain_reduce_mismatch(in.data(), 5, 2, 1, expected).find("out[0] = 0x00000001, expected 0x00000096"),
            std::string::npos);
  const auto sizes = reduce_validation_sizes(1u << 24);
  EXPECT_EQ(sizes.front(), 1u);
  EXPECT_EQ(sizes.back(), 1u << 24);
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
}

namespace {
measure::Record rec(const std::string& v, double median, const char* backend = "cuda") {
  measure::Record r;
  r.experiment = "reduce";
  r.variant = v;
  r.backend = backend;
  r.scope = "GPU_COMPUTE";
  r.mode = "cold";
  r.axes.set("n", std::int64_t{1024});
  r.axes.set("offset", std::int64_t{0});
  measure::Measurement m;  // three equal samples: a record as the harness makes it
  m.samples_s = {median, median, median};
  m.stats = measure::summarize(m.samples_s);
  m.warmup_runs = 2;
  r.set_measurement(m);
  r.throughput = measure::throughput({1024.0, 4096.0}, median);
  r.validation = "exact";
  return r;
}
}  // namespace

TEST(TryRank, UserPlacedAmongRungsWithRatios) {
  std::vector<measure::Record> rs = {rec("r00_cub", 2e-6), rec("r05_vector_loads", 1.5e-6), rec("r10_two_slot", 1e-6),
                                     rec("try_mine", 1.25e-6), rec("stream_read", 0.8e-6)};
  measure::Record failed = rec("r01_atomic", 1);
  failed.summary.reset();
  failed.skipped = "not timed: failed validation";
  rs.push_back(failed);
  const Ranking k = rank(rs, "try_mine", 1024, "cold");
  EXPECT_EQ(k.best_rung, "r10_two_slot");
  EXPECT_EQ(k.timed, 4);
  ASSERT_TRUE(k.user);
  EXPECT_EQ(k.user->rank, 2);
  EXPECT_NEAR(*k.user->x_best_rung, 0.8, 1e-9);
  EXPECT_NEAR(*k.user->x_cub, 1.6, 1e-9);
  EXPECT_NEAR(*k.user->pct_ceiling, 64.0, 1e-9);
  EXPECT_EQ(k.rows.front().variant, "r10_two_slot");
  EXPECT_TRUE(k.rows.back().ceiling);
  EXPECT_EQ(k.rows[4].variant, "r01_atomic");  // untimed rows after the timed ones
  EXPECT_EQ(k.rows[4].rank, 0);
}

TEST(TryResult, ChildDocumentIsCheckedBeforeUse) {
  EXPECT_THROW(check_result_document(nlohmann::json::array()), RunError);
  EXPECT_THROW(check_result_document({{"ladder", "reduce"}, {"variant", "try_x"}}), RunError);
  EXPECT_THROW(check_result_document({{"ladder", "reduce"}, {"variant", "try_x"}, {"status", "hacked"}}), RunError);
  EXPECT_THROW(
      check_result_document({{"ladder", "reduce"}, {"variant", "try_x"}, {"status", "exact"}, {"records", {{{"x", 1}}}}}),
      RunError);
  const nlohmann::json ok = {{"ladder", "reduce"}, {"variant", "try_x"}, {"status", "exact"},
                             {"records", {measure::to_json(rec("try_x", 1e-6))}}};
  EXPECT_EQ(check_result_document(ok).size(), 1u);
}

TEST(TryHistory, WrittenAndRankedBack) {
  const std::string dir = history_dir(::testing::TempDir() + "/joseki-try-history", "reduce");
  std::filesystem::remove_all(dir);
  nlohmann::json doc = {{"ladder", "reduce"}, {"variant", "try_mine"}, {"status", "exact"}, {"n", 1024},
                        {"records", {measure::to_json(rec("r10_two_slot", 1e-6)), measure::to_json(rec("try_mine", 2e-6)),
                                     measure::to_json(rec("r00_cub", 4e-6))}}};
  const nlohmann::json entry = {{"joseki_try", 1}, {"name", "mine"}, {"file", "/x/mine.cu"}, {"status", "exact"},
                                {"when", "2026-12-01T15:00:00Z"}, {"result", doc}};
  const std::string p1 = write_history(dir, entry);
  const std::string p2 = write_history(dir, {{"joseki_try", 1}, {"name", "hang"}, {"status", "timeout"}});
  EXPECT_NE(p1, p2);
  std::ofstream(dir + "/junk.json") << "{not json";
  std::vector<std::string> skipped;
  const auto h = read_history(dir, &skipped);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(skipped.size(), 1u);
  const auto& mine = h[0].variant == "try_mine" ? h[0] : h[1];
  EXPECT_EQ(mine.best_rung, "r10_two_slot");
  EXPECT_NEAR(*mine.x_best_rung, 0.5, 1e-9);
  EXPECT_NEAR(*mine.x_cub, 2.0, 1e-9);
  const auto& hang = h[0].variant == "try_mine" ? h[1] : h[0];
  EXPECT_EQ(hang.status, "timeout");
  EXPECT_FALSE(hang.median_s);
}

TEST(TryNvrtc, PtxParamListGivesTheSignature) {
  // NVRTC 13's PTX for the reduce signature, a struct by value and small types (sm_90).
  const std::string ptx =
      "//\n// Generated by NVIDIA NVVM Compiler\n.version 9.0\n.target sm_90\n"
      ".visible .entry joseki_reduce2()\n{\n\tret;\n}\n"
      "\t// .globl\tjoseki_reduce\n"
      ".visible .entry joseki_reduce(\n"
      "\t.param .u64 joseki_reduce_param_0,\n"
      "\t.param .u64 joseki_reduce_param_1,\n"
      "\t.param .u64 joseki_reduce_param_2,\n"
      "\t.param .u32 joseki_reduce_param_3,\n"
      "\t.param .u64 joseki_reduce_param_4\n"
      ")\n{\n\t.reg .pred \t%p<9>;\n\tld.param.u64 \t%rd6, [joseki_reduce_param_0];\n}\n"
      ".visible .entry odd(\n"
      "\t.param .u64 .ptr .global .align 4 odd_param_0,\n"
      "\t.param .align 8 .b8 odd_param_1[24],\n"
      "\t.param .u8 odd_param_2,\n"
      "\t.param .u16 odd_param_3,\n"
      "\t.param .f32 odd_param_4,\n"
      "\t.param .f64 odd_param_5\n"
      ")\n{\n}\n";
#ifdef JOSEKI_HAVE_CUDA
  const auto r = cuda::nvrtc::ptx_param_sizes(ptx, "joseki_reduce");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (std::vector<std::size_t>{8, 8, 8, 4, 8}));
  const auto none = cuda::nvrtc::ptx_param_sizes(ptx, "joseki_reduce2");  // not a prefix match of the above
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  const auto odd = cuda::nvrtc::ptx_param_sizes(ptx, "odd");
  ASSERT_TRUE(odd);
  EXPECT_EQ(*odd, (std::vector<std::size_t>{8, 24, 1, 2, 4, 8}));
  EXPECT_FALSE(cuda::nvrtc::ptx_param_sizes(ptx, "joseki"));
  EXPECT_FALSE(cuda::nvrtc::ptx_param_sizes("", "joseki_reduce"));
#else
  GTEST_SKIP() << "built without CUDA: the NVRTC backend is not compiled";
#endif
}

TEST(TrySanitizer, SizesAreFewSmallAndOdd) {
  const auto s = reduce_sanitize_sizes();
  EXPECT_EQ(s, (std::vector<std::size_t>{1, 5, 4099, 65537}));
  for (std::size_t n : s) {
    EXPECT_NE(n % 4, 0u) << n;    // not a multiple of the vector width: a read past the end shows
    EXPECT_NE(n % 256, 0u) << n;  // nor of a block
  }
  EXPECT_LE(s.back(), 65537u);  // racecheck is ~100x slower than a plain run
}

TEST(TrySanitizer, CommandLines) {
  const auto m = sanitizer_argv("/cuda/bin/compute-sanitizer", "memcheck", "/tmp/x/memcheck.log");
  EXPECT_EQ(m, (std::vector<std::string>{"/cuda/bin/compute-sanitizer", "--tool", "memcheck", "--log-file",
                                         "/tmp/x/memcheck.log", "--error-exitcode", "9", "--print-limit", "20",
                                         "--report-api-errors", "no"}));
  const auto r = sanitizer_argv("cs", "racecheck", "r.log");
  ASSERT_GE(r.size(), 2u);
  EXPECT_EQ(r[2], "racecheck");
  EXPECT_EQ(std::vector<std::string>(r.end() - 2, r.end()), (std::vector<std::string>{"--racecheck-report", "analysis"}));
  EXPECT_NE(std::find(r.begin(), r.end(), "--report-api-errors"), r.end());
}

TEST(TrySanitizer, ApiErrorsAreNotTheKernels) {
  // The H200 log of 2026-12-01 (an API error of joseki's own signature probe) with the kernel's
  // out-of-bounds reads after it: the kernel's report is the one named, the API error counted apart.
  const std::string log =
      "========= COMPUTE-SANITIZER\n"
      "========= Program hit cudaErrorInvalidValue (error 1) due to \"invalid argument\" on CUDA API call to "
      "cudaFuncGetParamInfo.\n"
      "=========     Saved host backtrace up to driver entry point at error\n"
      "=========         Host Frame: [0x2f] in libcuda.so.1\n"
      "=========\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at joseki_reduce+0x1b0 in examples/try/reduce/wrong_oob.cu:15\n"
      "=========     by thread (0,0,0) in block (0,0,0)\n"
      "=========     Address 0x7f0000000004 is out of bounds\n"
      "=========     and is 1 bytes after the nearest allocation at 0x7f0000000000 of size 4 bytes\n"
      "=========\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at joseki_reduce+0x1c0 in examples/try/reduce/wrong_oob.cu:15\n"
      "=========     by thread (0,0,0) in block (0,0,0)\n"
      "=========\n"
      "========= ERROR SUMMARY: 3 errors\n";
  const SanitizerFindings f = parse_sanitizer_log(log);
  EXPECT_EQ(f.api_errors, 1);
  EXPECT_EQ(f.errors, 2);
  EXPECT_EQ(f.kind, "Invalid __global__ read of size 4 bytes");
  ASSERT_GE(f.first.size(), 2u);
  EXPECT_NE(f.first[1].find("wrong_oob.cu:15"), std::string::npos);
  ASSERT_EQ(f.kinds.size(), 1u);
  EXPECT_EQ(f.kinds.begin()->second, 2);
  // Only an API error: nothing of the kernel's.
  const SanitizerFindings only_api = parse_sanitizer_log(
      "========= Program hit cudaErrorInvalidValue (error 1) due to \"invalid argument\" on CUDA API call to "
      "cudaFuncGetParamInfo.\n=========\n========= ERROR SUMMARY: 1 error\n");
  EXPECT_EQ(only_api.errors, 0);
  EXPECT_TRUE(only_api.first.empty());
  // A log cut off by the time limit (no summary): the reports it holds count.
  const SanitizerFindings cut = parse_sanitizer_log(
      "========= Error: Race reported between Write access at joseki_reduce+0x90 in wrong_race.cu:17\n"
      "=========     and Read access at joseki_reduce+0x80 in wrong_race.cu:17 [8 hazards]\n=========\n");
  EXPECT_FALSE(cut.summary_seen);
  EXPECT_EQ(cut.errors, 1);
}

TEST(TrySanitizer, LogsParse) {
  const std::string memcheck =
      "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at joseki_reduce+0x1b0 in /w/examples/try/reduce/wrong_oob.cu:16\n"
      "=========     by thread (2,0,0) in block (0,0,0)\n"
      "=========     Address 0x7f0000000010 is out of bounds\n"
      "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
      "=========         Host Frame: [0x2f] in libcuda.so.1\n"
      "=========\n"
      "========= ERROR SUMMARY: 3 errors\n";
  const SanitizerFindings m = parse_sanitizer_log(memcheck);
  EXPECT_EQ(m.errors, 3);
  EXPECT_EQ(m.kind, "Invalid __global__ read of size 4 bytes");
  ASSERT_GE(m.first.size(), 3u);
  EXPECT_NE(m.first[1].find("wrong_oob.cu:16"), std::string::npos);
  const SanitizerFindings r = parse_sanitizer_log(
      "========= Error: Race reported between Write access at joseki_reduce+0x90 in wrong_race.cu:19\n"
      "=========     and Read access at joseki_reduce+0x80 in wrong_race.cu:19 [8 hazards]\n"
      "=========\n"
      "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n");
  EXPECT_EQ(r.errors, 1);
  EXPECT_NE(r.kind.find("Race reported"), std::string::npos);
  const SanitizerFindings clean = parse_sanitizer_log("========= ERROR SUMMARY: 0 errors\n");
  EXPECT_TRUE(clean.summary_seen);
  EXPECT_EQ(clean.errors, 0);
}

TEST(TryDiagnosis, SymptomRowsCompareYoursWithTheBestRung) {
  auto row = [](const std::string& kernel, const std::string& metric, double v) {
    probes::NcuRow r;
    r.kernel = kernel;
    r.metric = metric;
    r.value = v;
    return r;
  };
  const std::string mine = "joseki_reduce", theirs = "void joseki::reduce::r10_two_slot_kernel<4>(...)";
  const std::vector<probes::NcuRow> rows = {
      row(mine, "lts__t_sectors_op_red.sum", 524288), row(mine, "lts__t_sectors_op_red.sum", 524288),
      row(theirs, "lts__t_sectors_op_red.sum", 1056),
      row(mine, "dram__throughput.avg.pct_of_peak_sustained_elapsed", 20),
      row(theirs, "dram__throughput.avg.pct_of_peak_sustained_elapsed", 90),
      row(mine, "sm__warps_active.avg.pct_of_peak_sustained_active", 85),
      row(theirs, "sm__warps_active.avg.pct_of_peak_sustained_active", 90),
      row(mine, "gpu__time_duration.sum", 400000), row(theirs, "gpu__time_duration.sum", 19000)};
  const nlohmann::json d = symptom_rows(rows, "try_naive", "r10_two_slot");
  EXPECT_EQ(d["against"], "r10_two_slot");
  std::map<std::string, bool> match;
  for (const auto& r : d["rows"]) match[r["symptom"]] = r["matches"];
  EXPECT_TRUE(match.at("atomic bottleneck"));
  EXPECT_TRUE(match.at("low DRAM throughput"));
  EXPECT_FALSE(match.at("low occupancy"));
  EXPECT_EQ(match.count("shared-load stalls"), 0u);  // no rows for it: no row in the table
  EXPECT_EQ(match.count("(kernel time under ncu, ns)"), 1u);
}
