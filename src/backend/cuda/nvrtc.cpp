// NVRTC loaded with dlopen; compiled images loaded with the runtime's library API (nvrtc.hpp).
#include "backend/cuda/nvrtc.hpp"

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cctype>
#include <cstring>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "backend/cuda/check.hpp"
#include "backend/dynlib.hpp"
#include "measure/clock.hpp"
#include "measure/errors.hpp"

namespace joseki::cuda::nvrtc {

namespace {

struct Api {
  decltype(&nvrtcVersion) version = nullptr;
  decltype(&nvrtcGetErrorString) error_string = nullptr;
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  LibraryInfo info;

  void check(nvrtcResult r, const char* call) const {
    if (r == NVRTC_SUCCESS) return;
    throw RunError(fmt::format("NVRTC {} failed: {} ({})", call, error_string ? error_string(r) : "?", info.path));
  }
};

const Api* load(std::string* why) {
  return dynlib::load_once<Api>([](Api& api, std::string& reason) {
    const dynlib::Library l = dynlib::open_first(
        "libnvrtc.so." + std::to_string(CUDART_VERSION / 1000), "JOSEKI_NVRTC_LIB", {"cu13", "cuda_nvrtc"},
        [&api](void* h, std::string* r) {
          using dynlib::symbol;
          if (!symbol(h, "nvrtcVersion", api.version) || !symbol(h, "nvrtcGetErrorString", api.error_string) ||
              !symbol(h, "nvrtcCreateProgram", api.create) || !symbol(h, "nvrtcDestroyProgram", api.destroy) ||
              !symbol(h, "nvrtcCompileProgram", api.compile) || !symbol(h, "nvrtcGetProgramLogSize", api.log_size) ||
              !symbol(h, "nvrtcGetProgramLog", api.log) || !symbol(h, "nvrtcGetPTXSize", api.ptx_size) ||
              !symbol(h, "nvrtcGetPTX", api.ptx) || !symbol(h, "nvrtcGetCUBINSize", api.cubin_size) ||
              !symbol(h, "nvrtcGetCUBIN", api.cubin)) {
            *r = "lacks an NVRTC entry point (is it libnvrtc?)";
            return false;
          }
          int major = 0, minor = 0;
          if (api.version(&major, &minor) != NVRTC_SUCCESS) {
            *r = "nvrtcVersion failed";
            return false;
          }
          // Its cubins must load in this build's runtime: the same major version.
          if (major != CUDART_VERSION / 1000) {
            *r = fmt::format("NVRTC {}.{}, this joseki was built with CUDA {}.x", major, minor, CUDART_VERSION / 1000);
            return false;
          }
          api.info.major = major;
          api.info.minor = minor;
          return true;
        },
        &reason);
    if (!l.handle) return false;
    api.info.path = l.path;
    return true;
  }, why);
}

long number_before(const std::string& text, const std::string& unit) {
  const std::regex re("(\\d+) " + unit);
  std::smatch m;
  return std::regex_search(text, m, re) ? std::stol(m[1].str()) : 0;
}

}  // namespace

std::optional<LibraryInfo> library(std::string* why) {
  const Api* a = load(why);
  if (!a) return std::nullopt;
  return a->info;
}

std::optional<std::vector<std::size_t>> ptx_param_sizes(const std::string& ptx, const std::string& entry) {
  // ".entry NAME(" -- NAME exactly (not a longer name it prefixes), then the list up to ')'.
  std::string name;
  for (char ch : entry) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') name += '\\';
    name += ch;
  }
  const std::regex head("\\.entry\\s+" + name + "\\s*\\(");
  std::smatch h;
  if (!std::regex_search(ptx, h, head)) return std::nullopt;
  const std::size_t begin = static_cast<std::size_t>(h.position(0) + h.length(0));
  const std::size_t end = ptx.find(')', begin);
  if (end == std::string::npos) return std::nullopt;
  const std::string list = ptx.substr(begin, end - begin);
  // Each parameter: ".param [.align A] .TYPE [.ptr .SPACE .align A] NAME[COUNT]?", TYPE one of
  // u/s/b/f 8..64; its size is the TYPE's bytes times COUNT.
  static const std::regex type(R"(\.[usbf](8|16|32|64)\b)");
  static const std::regex count(R"(\[\s*(\d+)\s*\]\s*$)");
  std::vector<std::size_t> sizes;
  std::istringstream ps(list);
  for (std::string one; std::getline(ps, one, ',');) {
    if (one.find(".param") == std::string::npos) continue;
    std::smatch t, c;
    if (!std::regex_search(one, t, type)) return std::nullopt;  // a parameter not understood: say nothing
    const std::size_t bytes = std::stoul(t[1].str()) / 8;
    sizes.push_back(std::regex_search(one, c, count) ? bytes * std::stoul(c[1].str()) : bytes);
  }
  return sizes;
}

std::optional<PtxasInfo> parse_ptxas_info(const std::string& log, const std::string& kernel) {
  std::istringstream in(log);
  std::string line, block;
  bool inside = false, found = false;
  while (std::getline(in, line)) {
    if (line.find("Compiling entry function '") != std::string::npos ||
        line.find("Function properties for ") != std::string::npos) {
      const bool mine = line.find("'" + kernel + "'") != std::string::npos ||
                        (line.find("Function properties for ") != std::string::npos &&
                         line.substr(line.find("Function properties for ") + 24) == kernel);
      if (line.find("Compiling entry function '") != std::string::npos) inside = mine;
      if (mine) {
        inside = true;
        found = true;
      }
      continue;
    }
    if (inside) block += line + "\n";
  }
  if (!found || block.find("registers") == std::string::npos) return std::nullopt;
  PtxasInfo p;
  std::smatch m;
  if (std::regex_search(block, m, std::regex("Used (\\d+) registers"))) p.registers = std::stoi(m[1].str());
  p.smem_bytes = number_before(block, "bytes smem");
  p.cmem_bytes = number_before(block, "bytes cmem\\[0\\]");
  p.stack_frame_bytes = number_before(block, "bytes stack frame");
  p.spill_store_bytes = number_before(block, "bytes spill stores");
  p.spill_load_bytes = number_before(block, "bytes spill loads");
  return p;
}

std::string normalize_arch(const std::string& arch) {
  static const std::regex re("^(sm_|compute_)?(\\d{2,3})([af]?)$");
  std::smatch m;
  if (!std::regex_match(arch, m, re))
    throw InputError(fmt::format("--arch: '{}' is not an architecture (expected sm_XX, compute_XX or XX, e.g. sm_90)", arch));
  return (m[1].matched && m[1].str() == "compute_" ? "compute_" : "sm_") + m[2].str() + m[3].str();
}

CompileResult compile(const CompileRequest& req) {
  std::string why;
  const Api* api = load(&why);
  if (!api) throw RunError("NVRTC is not available: " + why);
  CompileResult res;
  res.lib = api->info;
  const double t0 = measure::now_s();
  nvrtcProgram prog = nullptr;
  api->check(api->create(&prog, req.source.c_str(), req.file_name.c_str(), 0, nullptr, nullptr), "CreateProgram");
  struct Guard {
    const Api* a;
    nvrtcProgram* p;
    ~Guard() { a->destroy(p); }
  } guard{api, &prog};
  const bool to_cubin = req.arch.rfind("sm_", 0) == 0;
  std::vector<std::string> opts = {"--gpu-architecture=" + req.arch, "-std=c++17", "--device-int128"};
  if (to_cubin) {
    opts.emplace_back("--ptxas-options=-v");
    // NVRTC 12.9+ keeps a cache of compiled code: a compile served from it runs no ptxas, so its log
    // has no -v report (registers, spills) although the cubin is there. That was the once-seen
    // "PTX only" of a first compile (the same source and options compiled by an earlier process);
    // the report is what an sm_XX compile is for, so it always compiles.
    if (api->info.major > 12 || (api->info.major == 12 && api->info.minor >= 9)) opts.emplace_back("--no-cache");
  }
  opts.insert(opts.end(), req.options.begin(), req.options.end());
  std::vector<const char*> argv;
  for (const std::string& o : opts) {
    argv.push_back(o.c_str());
    res.command += (res.command.empty() ? "" : " ") + o;
  }
  const nvrtcResult cr = api->compile(prog, static_cast<int>(argv.size()), argv.data());
  std::size_t n = 0;
  api->check(api->log_size(prog, &n), "GetProgramLogSize");
  res.log.assign(n, '\0');
  if (n) api->check(api->log(prog, res.log.data()), "GetProgramLog");
  while (!res.log.empty() && (res.log.back() == '\0' || res.log.back() == '\n')) res.log.pop_back();
  if (cr == NVRTC_ERROR_COMPILATION) {
    res.ok = false;
  } else {
    api->check(cr, "CompileProgram");
    if (to_cubin) {
      api->check(api->cubin_size(prog, &n), "GetCUBINSize");
      res.cubin.resize(n);
      api->check(api->cubin(prog, res.cubin.data()), "GetCUBIN");
      // NVRTC keeps the PTX of a cubin compile too (12.x, 13.x): its .param lists give the
      // kernels' signatures. Not an error when absent.
      std::size_t pn = 0;
      if (api->ptx_size(prog, &pn) == NVRTC_SUCCESS && pn > 1) {
        res.ptx.assign(pn, '\0');
        if (api->ptx(prog, res.ptx.data()) != NVRTC_SUCCESS) res.ptx.clear();
        while (!res.ptx.empty() && res.ptx.back() == '\0') res.ptx.pop_back();
      }
    } else {
      api->check(api->ptx_size(prog, &n), "GetPTXSize");
      res.ptx.assign(n, '\0');
      api->check(api->ptx(prog, res.ptx.data()), "GetPTX");
      while (!res.ptx.empty() && res.ptx.back() == '\0') res.ptx.pop_back();
    }
    res.ok = true;
  }
  res.seconds = measure::now_s() - t0;
  return res;
}

Module::Module(const CompileResult& c, const std::string& entry) {
  if (!c.ok) throw RunError("Module: the compile failed; nothing to load");
  const void* image = c.cubin.empty() ? static_cast<const void*>(c.ptx.c_str()) : static_cast<const void*>(c.cubin.data());
  cudaLibrary_t lib = nullptr;
  const cudaError_t e = cudaLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (e != cudaSuccess)
    throw RunError(fmt::format("cudaLibraryLoadData: the compiled {} does not load on this device: {} ({})",
                               c.cubin.empty() ? "PTX" : "cubin", cudaGetErrorString(e), cudaGetErrorName(e)));
  m_library = lib;
  cudaKernel_t k = nullptr;
  const cudaError_t g = cudaLibraryGetKernel(&k, lib, entry.c_str());
  if (g != cudaSuccess) {
    cudaLibraryUnload(lib);
    m_library = nullptr;
    throw RunError(fmt::format("the file has no kernel named '{}' (cudaLibraryGetKernel: {}); declare it "
                               "extern \"C\" __global__ so that its name is not mangled",
                               entry, cudaGetErrorString(g)));
  }
  m_kernel = reinterpret_cast<const void*>(k);
  if (!c.ptx.empty()) m_ptx_params = ptx_param_sizes(c.ptx, entry);
}

Module::~Module() {
  if (m_library) cudaLibraryUnload(static_cast<cudaLibrary_t>(m_library));
}

Module::Attributes Module::attributes() const {
  cudaFuncAttributes a{};
  JOSEKI_CUDA_CHECK(cudaFuncGetAttributes(&a, m_kernel));
  Attributes r;
  r.registers = a.numRegs;
  r.static_smem = static_cast<long>(a.sharedSizeBytes);
  r.local_bytes = static_cast<long>(a.localSizeBytes);
  r.const_bytes = static_cast<long>(a.constSizeBytes);
  r.max_threads_per_block = a.maxThreadsPerBlock;
  r.binary_version = a.binaryVersion;
  r.ptx_version = a.ptxVersion;
  return r;
}

std::optional<std::vector<std::size_t>> Module::param_sizes(std::size_t max_count) const {
  if (m_ptx_params) return *m_ptx_params;
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i <= max_count; ++i) {
    std::size_t offset = 0, size = 0;
    if (cudaFuncGetParamInfo(m_kernel, i, &offset, &size) != cudaSuccess) break;
    sizes.push_back(size);
  }
  (void)cudaGetLastError();  // the call past the last parameter fails by design; not a sticky error
  if (sizes.empty()) return std::nullopt;
  return sizes;
}

int Module::blocks_per_sm(int block, std::size_t dynamic_smem) const {
  int b = 0;
  JOSEKI_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, m_kernel, block, dynamic_smem));
  return b;
}

}  // namespace joseki::cuda::nvrtc
