// The child's side every ladder's try shares (child.hpp).
#include "experiments/try/child.hpp"

#include <fmt/format.h>

#include "experiments/try/result.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include <cuda_runtime.h>

#include "backend/cuda/check.hpp"
#include "backend/gpu.hpp"
#endif

namespace joseki::trykernel {

void run_needs_cuda() {
  throw GpuUnavailable("running a kernel needs a GPU, and this joseki was built without CUDA (--compile-only needs "
                       "NVRTC, which a CUDA build loads at run time)");
}

#ifdef JOSEKI_HAVE_CUDA

measure::DeviceFacts open_device(const RunOptions& o) {
  const gpu::Availability av = gpu::availability();
  if (!av.ok)
    throw GpuUnavailable("running a kernel needs a GPU: " + av.reason +
                         " (--compile-only compiles and reports registers and spills without one)");
  const measure::DeviceFacts facts = gpu::device_facts(o.device);
  JOSEKI_CUDA_CHECK(cudaSetDevice(o.device));
  return facts;
}

std::function<void(const std::string&)> progress_of(const RunOptions& o) {
  return [&o](const std::string& s) {
    if (o.progress) o.progress(s);
  };
}

nlohmann::json result_head(const TryLadder& l, const std::string& variant, const TryFile& f,
                           const measure::DeviceFacts& d) {
  nlohmann::json out;
  out["ladder"] = l.name;
  out["variant"] = variant;
  out["file"] = f.path;
  out["device"] = measure::to_json(d);
  return out;
}

UserModules::UserModules(const TryFile& f, const TryLadder& l, const measure::DeviceFacts& d, bool lineinfo)
    : m_file(&f), m_ladder(&l), m_arch(fmt::format("sm_{}{}", d.cc_major, d.cc_minor)) {
  if (lineinfo) m_extra.push_back("-lineinfo");
}

const cuda::nvrtc::Module& UserModules::get(const std::vector<std::string>& defines) {
  std::string key;
  for (const auto& d : defines) key += d + " ";
  if (const auto it = m_modules.find(key); it != m_modules.end()) return *it->second;
  cuda::nvrtc::CompileRequest req;
  req.source = m_file->source;
  req.file_name = m_file->path;
  req.arch = m_arch;
  req.options = defines;
  req.options.insert(req.options.end(), m_extra.begin(), m_extra.end());
  const cuda::nvrtc::CompileResult res = cuda::nvrtc::compile(req);
  m_compile_s += res.seconds;
  m_reports[key] = compile_report(res, m_arch, defines, m_ladder->entry);
  if (m_first.empty()) m_first = key;
  if (!res.ok) throw CompileError(m_file->path, res.log, defines);
  check_signature(*m_ladder, m_file->path, res.ptx);
  auto m = std::make_unique<cuda::nvrtc::Module>(res, m_ladder->entry);
  // Without PTX the loaded kernel's own parameter list is checked.
  if (const auto got = m->param_sizes(m_ladder->param_sizes.size()); got && *got != m_ladder->param_sizes)
    throw signature_mismatch(*m_ladder, m_file->path, *got);
  return *(m_modules[key] = std::move(m));
}

nlohmann::json UserModules::compile_json() const {
  nlohmann::json j = m_reports.empty() ? nlohmann::json::object() : to_json(m_reports.at(m_first));
  j["configurations"] = m_modules.size();
  j["total_seconds"] = m_compile_s;
  return j;
}

void finish(nlohmann::json& out, const std::vector<measure::Record>& records, UserModules& modules) {
  out["records"] = nlohmann::json::array();
  for (const auto& r : records) out["records"].push_back(measure::to_json(r));
  out["compile"]["total_seconds"] = modules.compile_seconds();
  modules.clear();
}

void set_status(nlohmann::json& out, const std::vector<std::string>& failures,
                const std::function<bool(const std::string&)>& mine, nlohmann::json where) {
  out["status"] = "exact";
  for (const auto& msg : failures)
    if (mine(msg)) {
      out["status"] = "wrong";
      where["message"] = msg;
      where["explanation"] = msg;
      out["first_failure"] = where;
      return;
    }
}

nlohmann::json kernel_json(const cuda::nvrtc::Module& m, int block, std::size_t dynamic_smem,
                           const measure::DeviceFacts& d) {
  const cuda::nvrtc::Module::Attributes a = m.attributes();
  const int bps = m.blocks_per_sm(block, dynamic_smem);
  return {{"registers", a.registers},
          {"static_smem_bytes", a.static_smem},
          {"local_bytes", a.local_bytes},
          {"binary_version", a.binary_version},
          {"block", block},
          {"resident_blocks_per_sm", bps},
          {"occupancy_pct", d.max_threads_per_sm ? 100.0 * bps * block / d.max_threads_per_sm : 0.0}};
}

#endif

}  // namespace joseki::trykernel
