// The ladders `joseki try` knows, and the compile-only path (ladders.hpp).
#include "experiments/try/ladders.hpp"

#include <cctype>
#include <optional>

#include <fmt/format.h>

#include "experiments/try/direct_spec.hpp"
#include "experiments/try/reduce_spec.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/nvrtc.hpp"
#endif

namespace joseki::trykernel {

nlohmann::json run_reduce_try(const TryFile& f, const RunOptions& o);  // reduce_run.cpp
nlohmann::json run_direct_try(const TryFile& f, const RunOptions& o);  // direct_run.cpp

namespace {

std::vector<TryLadder> make_ladders() {
  std::vector<TryLadder> v;
  TryLadder r;
  r.name = "reduce";
  r.entry = REDUCE_ENTRY;
  r.signature = "extern \"C\" __global__ void joseki_reduce(const unsigned int* in, unsigned long long n, "
                "unsigned int* out, unsigned int slot, void* work)";
  r.contract = "the u32 sum (mod 2^32) of in[0..n) into out per the output contract; `in` is 4-byte aligned, not "
               "always 16-byte aligned (offsets 0..3 are checked); n >= 1 may be any size";
  r.settings = {
      {"grid", "per-element, wave or wave-vector (default wave-vector): how joseki sizes the grid (as the ladder's rungs)"},
      {"block", "threads per block, a multiple of 32 (default 256); -DBLOCK=<value> when the source uses BLOCK"},
      {"blocks_per_sm", "wave grids: blocks per SM (default 0: as many as fit by threads)"},
      {"unroll", "wave-vector: 16-byte words in flight per thread, 1, 2, 4 or 8 (default 4); -DUNROLL=<value> when "
                 "the source uses UNROLL"},
      {"output", "atomic (default: joseki zeroes out[0] before each launch, timed, like r05's memset), word (the "
                 "kernel writes out[0]) or two-slot (r10's contract: add into out[slot], zero out[slot ^ 1])"},
      {"workspace", "bytes of workspace at `work`, zeroed once before the first launch (default 0)"},
      {"ladder", "the ladder the file is for (checked against --ladder)"},
      {"like", "the rung to compare with (x previous), e.g. r10"},
      {"name", "display name (default: the file's stem)"},
      {"technique", "one line for the table"},
      {"tie", "the sweep's tie band, a fraction (default 0.01, as the ladder's bandwidth rungs)"},
  };
  r.sweepable = {"block", "blocks_per_sm", "unroll"};
  r.default_n = std::size_t{1} << 24;
  r.default_rungs = "every GPU rung (r00_cub ... r11), the stream-read ceiling";
  r.check = [](const TryFile& f) { (void)reduce_spec(f); };
  r.default_defines = [](const TryFile& f) {
    const ReduceSpec s = reduce_spec(f);
    return reduce_defines(s, s.rung.defaults.block, s.rung.defaults.unroll);
  };
  r.run = run_reduce_try;
  r.param_sizes = {8, 8, 8, 4, 8};
  v.push_back(std::move(r));

  TryLadder d;
  d.name = "abc471g-direct";
  d.entry = DIRECT_ENTRY;
  d.signature = "extern \"C\" __global__ void joseki_count(const unsigned int* a, unsigned long long n, "
                "const unsigned char* v, unsigned int k, unsigned int* answer)";
  d.contract = "for every shift s < k: answer[s] = the number of i < n with v[(a[i] + s) % k] == 1 and (i == 0 or "
               "v[(a[i - 1] + s) % k] == 0) (ABC471G's syllable count); a[i] < k, v[j] is 0 or 1, n >= 1, k >= 1 "
               "any size; answer[0..k) is poisoned before each run (0xA5A5A5A5)";
  d.settings = {
      {"block", "threads per block, 1..1024 (default 64); -DBLOCK=<value> when the source uses BLOCK"},
      {"chunk", "0 (default): a grid of ceil(k / block) blocks, one thread per shift; > 0: a grid of (ceil(n / chunk), "
                "ceil(k / block)) blocks, blockIdx.x the chunk of `chunk` elements of a, blockIdx.y the group of "
                "`block` shifts; -DCHUNK=<value>ull when the source uses CHUNK"},
      {"output", "write (default: the kernel writes every answer[s]) or atomic (joseki zeroes answer[0..k) before "
                 "each launch, timed, and the kernel adds into it)"},
      {"ladder", "the ladder the file is for (checked against --ladder)"},
      {"like", "the rung to compare with (x previous), e.g. g02"},
      {"name", "display name (default: the file's stem)"},
      {"technique", "one line for the table"},
      {"tie", "the sweep's tie band, a fraction (default 0.02, as the direct ladder's rungs)"},
  };
  d.sweepable = {"block", "chunk"};
  d.default_workload = "the max case (N = K = 2 x 10^5 class, `joseki abc471g gen`), validated first on the test "
                       "vectors and the edge cases";
  d.default_rungs = "every rung of the direct ladder (g01 ... g15)";
  d.check = [](const TryFile& f) { (void)direct_spec(f); };
  d.default_defines = [](const TryFile& f) {
    const DirectSpec s = direct_spec(f);
    return direct_defines(s, s.block, s.chunk);
  };
  d.run = run_direct_try;
  d.param_sizes = {8, 8, 8, 4, 8};
  v.push_back(std::move(d));
  return v;
}

}  // namespace

const std::vector<TryLadder>& ladders() {
  static const std::vector<TryLadder> v = make_ladders();
  return v;
}

const TryLadder& find_ladder(const std::string& name) {
  std::string names;
  for (const TryLadder& l : ladders()) {
    if (l.name == name) return l;
    names += (names.empty() ? "" : ", ") + l.name;
  }
  throw InputError(fmt::format("--ladder: '{}' is not a ladder joseki try knows (ladders: {}; see --list)", name, names));
}

std::string variant_of(const TryFile& f) {
  std::string s = "try_";
  for (char c : f.name) s += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  return s;
}

nlohmann::json to_json(const CompileReport& c) {
  nlohmann::json j = {{"ok", c.ok},           {"arch", c.arch},       {"command", c.command},
                      {"log", c.log},         {"nvrtc", c.nvrtc},     {"defines", c.defines},
                      {"seconds", c.seconds}, {"ptx_bytes", c.ptx_bytes}, {"cubin_bytes", c.cubin_bytes}};
  if (c.has_ptxas)
    j["ptxas"] = {{"registers", c.registers},
                  {"smem_bytes", c.smem_bytes},
                  {"stack_frame_bytes", c.stack_frame_bytes},
                  {"spill_store_bytes", c.spill_store_bytes},
                  {"spill_load_bytes", c.spill_load_bytes}};
  return j;
}

InputError signature_mismatch(const TryLadder& l, const std::string& path, const std::vector<std::size_t>& got) {
  const auto list = [](const std::vector<std::size_t>& v) {
    std::string s;
    for (std::size_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
  };
  return InputError(fmt::format("{}: {} takes {} parameter(s) of {} bytes; the {} ladder's signature is {}: {} "
                                "parameters of {} bytes (joseki try --list)",
                                path, l.entry, got.size(), list(got), l.name, l.signature, l.param_sizes.size(),
                                list(l.param_sizes)));
}

void check_signature(const TryLadder& l, const std::string& path, const std::string& ptx) {
#ifdef JOSEKI_HAVE_CUDA
  if (ptx.empty() || l.param_sizes.empty()) return;
  const std::optional<std::vector<std::size_t>> got = cuda::nvrtc::ptx_param_sizes(ptx, l.entry);
  if (!got)
    throw InputError(fmt::format("{}: no kernel named {} (extern \"C\" __global__) in the compiled file; the {} "
                                 "ladder's signature is {} (joseki try --list)",
                                 path, l.entry, l.name, l.signature));
  if (*got != l.param_sizes) throw signature_mismatch(l, path, *got);
#else
  (void)l, (void)path, (void)ptx;
#endif
}

#ifdef JOSEKI_HAVE_CUDA
CompileReport compile_only(const TryLadder& l, const TryFile& f, const std::string& arch) {
  l.check(f);
  cuda::nvrtc::CompileRequest req;
  req.source = f.source;
  req.file_name = f.path;
  req.arch = cuda::nvrtc::normalize_arch(arch);
  req.options = l.default_defines(f);
  const cuda::nvrtc::CompileResult res = cuda::nvrtc::compile(req);
  if (res.ok) check_signature(l, f.path, res.ptx);
  return compile_report(res, req.arch, req.options, l.entry);
}

CompileReport compile_report(const cuda::nvrtc::CompileResult& res, const std::string& arch,
                             const std::vector<std::string>& defines, const std::string& entry) {
  CompileReport c;
  c.ok = res.ok;
  c.arch = arch;
  c.command = res.command;
  c.log = res.log;
  c.nvrtc = fmt::format("{} ({}.{})", res.lib.path, res.lib.major, res.lib.minor);
  c.defines = defines;
  c.seconds = res.seconds;
  c.ptx_bytes = res.ptx.size();
  c.cubin_bytes = res.cubin.size();
  if (const auto p = cuda::nvrtc::parse_ptxas_info(res.log, entry)) {
    c.has_ptxas = true;
    c.registers = p->registers;
    c.smem_bytes = p->smem_bytes;
    c.stack_frame_bytes = p->stack_frame_bytes;
    c.spill_store_bytes = p->spill_store_bytes;
    c.spill_load_bytes = p->spill_load_bytes;
  }
  return c;
}
#else
CompileReport compile_only(const TryLadder& l, const TryFile& f, const std::string&) {
  l.check(f);
  throw RunError("this joseki was built without CUDA: NVRTC (the CUDA toolkit's run-time compiler) is not wired in; "
                 "build with the release preset on a machine with the CUDA toolkit");
}
#endif

}  // namespace joseki::trykernel
