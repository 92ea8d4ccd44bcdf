// `joseki try`: the ladders a user's kernel can join, and the runner that compiles it with NVRTC,
// validates it like a rung and times it in the ladder's own harness beside the rungs, CUB and the
// ceiling. The reduce ladder's user kernel is one more reduce::Rung (its launcher calls the NVRTC
// module), run through measure::run_ladder by the reduce harness's CUDA runner like every rung.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/try/spec.hpp"
#include "measure/errors.hpp"
#include "measure/stopping.hpp"

namespace joseki::cuda::nvrtc {
struct CompileResult;
}

namespace joseki::trykernel {

struct RunOptions {
  std::size_t n = 0;                        // 0: the ladder's default size
  std::vector<measure::Mode> modes{measure::Mode::Cold};
  std::vector<std::string> rungs;           // the ladder's rungs to rank against (empty: the ladder's default set)
  measure::StoppingRule rule;
  int device = 0;
  std::uint64_t seed = 0;
  bool validate_only = false;               // validation sizes only, time nothing (--sanitize runs this)
  bool only_n = false;                      // validate at n alone (ncu's run: few launches)
  bool lineinfo = false;                    // compile with -lineinfo (the sanitizer names FILE:LINE)
  std::function<void(const std::string&)> progress;
};

// What --compile-only reports (and the start of every run): the compile of the default
// configuration for `arch`.
struct CompileReport {
  bool ok = false;
  std::string arch, command, log, nvrtc;    // nvrtc: "path (13.0)"
  std::vector<std::string> defines;
  double seconds = 0;
  int registers = -1;
  long smem_bytes = 0, stack_frame_bytes = 0, spill_store_bytes = 0, spill_load_bytes = 0;
  bool has_ptxas = false;                   // sm_XX: ptxas ran and reported
  std::size_t ptx_bytes = 0, cubin_bytes = 0;
};
nlohmann::json to_json(const CompileReport& c);

struct TryLadder {
  std::string name;        // "reduce"
  std::string entry;       // the kernel's extern "C" name
  std::string signature;   // the C signature the file must define
  std::string contract;    // what the kernel must compute, in one or two lines
  std::map<std::string, std::string> settings;  // joseki: key -> meaning (default)
  std::vector<std::string> sweepable;           // axes `joseki: sweep` may vary
  std::size_t default_n = 0;
  std::string default_workload;                 // shown in --list instead of default_n when set
  std::string default_rungs;                    // shown in --list
  // The byte sizes of the kernel's parameters on a 64-bit host, in order: checked against the
  // compiled PTX's .param list (--compile-only and every run), a clear InputError when they differ.
  std::vector<std::size_t> param_sizes;
  // Checks the file's settings (InputError naming FILE:LINE); pure.
  std::function<void(const TryFile&)> check;
  // The defines of the default configuration (-DBLOCK=256 ...), for --compile-only.
  std::function<std::vector<std::string>(const TryFile&)> default_defines;
  // The child's work: compile for the device, validate, time beside the ladder. Returns the result
  // document (records, validations, compile, kernel resources); throws like the ladder's harness.
  std::function<nlohmann::json(const TryFile&, const RunOptions&)> run;
};

const std::vector<TryLadder>& ladders();
// By name; InputError listing the ladders when there is none.
const TryLadder& find_ladder(const std::string& name);

// Compiles the file's default configuration for `arch` (no GPU needed). Throws RunError when
// NVRTC is missing (the message says where it looked and names JOSEKI_NVRTC_LIB).
CompileReport compile_only(const TryLadder& l, const TryFile& f, const std::string& arch);

// The report of one NVRTC compile of `entry` (ptxas's resources when it ran: an sm_XX target).
// CUDA builds only.
CompileReport compile_report(const cuda::nvrtc::CompileResult& res, const std::string& arch,
                             const std::vector<std::string>& defines, const std::string& entry);

// InputError when the PTX's parameter list of l.entry differs from l.param_sizes (names the file,
// the sizes found and the signature); nothing when the PTX is empty or has no such entry.
void check_signature(const TryLadder& l, const std::string& path, const std::string& ptx);
// The error of a kernel whose parameters (`got`, bytes each) differ from l.param_sizes.
InputError signature_mismatch(const TryLadder& l, const std::string& path, const std::vector<std::size_t>& got);

// The variant name of a user's kernel in the records: "try_" + the file's stem, [a-z0-9_].
std::string variant_of(const TryFile& f);

}  // namespace joseki::trykernel
