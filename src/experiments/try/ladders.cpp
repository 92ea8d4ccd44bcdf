// The ladders `joseki try` knows, and the compile-only path (ladders.hpp).
#include "experiments/try/ladders.hpp"

#include <cctype>

#include <fmt/format.h>

#include "experiments/try/reduce_spec.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/nvrtc.hpp"
#endif

namespace joseki::trykernel {

nlohmann::json run_reduce_try(const TryFile& f, const RunOptions& o);  // reduce_run.cpp

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
  v.push_back(std::move(r));
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

#ifdef JOSEKI_HAVE_CUDA
CompileReport compile_only(const TryLadder& l, const TryFile& f, const std::string& arch) {
  l.check(f);
  cuda::nvrtc::CompileRequest req;
  req.source = f.source;
  req.file_name = f.path;
  req.arch = cuda::nvrtc::normalize_arch(arch);
  req.options = l.default_defines(f);
  return compile_report(cuda::nvrtc::compile(req), req.arch, req.options, l.entry);
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
