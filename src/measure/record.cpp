#include "measure/record.hpp"

#include <unistd.h>
#include <sys/utsname.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "measure/errors.hpp"

namespace joseki::measure {

using nlohmann::json;

double DeviceFacts::clock_bw_Bps() const {
  return 2.0 * static_cast<double>(mem_clock_khz) * 1e3 * static_cast<double>(bus_width_bits) / 8.0;
}

namespace {
struct KnownPart {
  const char* name_prefix;
  double bw_Bps;
};
// Vendor datasheet memory bandwidth of parts we have measured or expect to meet.
constexpr KnownPart kKnownParts[] = {
    {"NVIDIA H200", 4.8e12},
    {"NVIDIA H100 80GB HBM3", 3.35e12},
    {"NVIDIA H100 PCIe", 2.0e12},
    {"NVIDIA A100-SXM4-80GB", 2.039e12},
    {"NVIDIA A100-SXM4-40GB", 1.555e12},
};
const KnownPart* known_part(const std::string& name) {
  for (const KnownPart& k : kKnownParts)
    if (name.rfind(k.name_prefix, 0) == 0) return &k;
  return nullptr;
}
}  // namespace

double DeviceFacts::datasheet_bw_Bps() const {
  if (const KnownPart* k = known_part(name)) return k->bw_Bps;
  return clock_bw_Bps();
}

std::string DeviceFacts::datasheet_source() const {
  return known_part(name) ? "vendor datasheet" : "memory clock x bus width";
}

HostFacts query_host() {
  HostFacts h;
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) == 0) h.hostname = buf;
  h.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      if (auto p = line.find(':'); p != std::string::npos) h.cpu_model = line.substr(p + 2);
      break;
    }
  utsname u{};
  if (uname(&u) == 0) h.os = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
  return h;
}

std::string utc_now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

json to_json(const DeviceFacts& d) {
  json j = {{"present", d.present}};
  if (!d.present) return j;
  j.update({{"index", d.index},
            {"name", d.name},
            {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
            {"sm_count", d.sm_count},
            {"warp_size", d.warp_size},
            {"l2_bytes", d.l2_bytes},
            {"global_mem_bytes", d.global_mem_bytes},
            {"smem_per_sm", d.smem_per_sm},
            {"smem_per_block_optin", d.smem_per_block_optin},
            {"regs_per_sm", d.regs_per_sm},
            {"max_threads_per_sm", d.max_threads_per_sm},
            {"sm_clock_khz", d.sm_clock_khz},
            {"mem_clock_khz", d.mem_clock_khz},
            {"bus_width_bits", d.bus_width_bits},
            {"driver_version", d.driver_version},
            {"runtime_version", d.runtime_version},
            {"pci_bus_id", d.pci_bus_id},
            {"clock_bw_Bps", d.clock_bw_Bps()},
            {"datasheet_bw_Bps", d.datasheet_bw_Bps()},
            {"datasheet_source", d.datasheet_source()}});
  if (d.code_arch > 0) j.update({{"code_arch", d.code_arch}, {"code", d.code_jit ? "ptx-jit" : "sass"}});
  return j;
}

DeviceFacts device_from_json(const json& j) {
  DeviceFacts d;
  d.present = j.at("present").get<bool>();
  if (!d.present) return d;
  d.index = j.at("index").get<int>();
  d.name = j.at("name").get<std::string>();
  const std::string cc = j.at("compute_capability").get<std::string>();
  if (std::sscanf(cc.c_str(), "%d.%d", &d.cc_major, &d.cc_minor) != 2)
    throw std::runtime_error("device.compute_capability '" + cc + "' is not MAJOR.MINOR");
  d.sm_count = j.at("sm_count").get<int>();
  d.warp_size = j.at("warp_size").get<int>();
  d.l2_bytes = j.at("l2_bytes").get<std::int64_t>();
  d.global_mem_bytes = j.at("global_mem_bytes").get<std::int64_t>();
  d.smem_per_sm = j.at("smem_per_sm").get<std::int64_t>();
  d.smem_per_block_optin = j.at("smem_per_block_optin").get<std::int64_t>();
  d.regs_per_sm = j.at("regs_per_sm").get<int>();
  d.max_threads_per_sm = j.at("max_threads_per_sm").get<int>();
  d.sm_clock_khz = j.at("sm_clock_khz").get<int>();
  d.mem_clock_khz = j.at("mem_clock_khz").get<int>();
  d.bus_width_bits = j.at("bus_width_bits").get<int>();
  d.driver_version = j.at("driver_version").get<int>();
  d.runtime_version = j.at("runtime_version").get<int>();
  d.pci_bus_id = j.at("pci_bus_id").get<std::string>();
  if (j.contains("code_arch")) {
    d.code_arch = j.at("code_arch").get<int>();
    d.code_jit = j.value("code", std::string("sass")) == "ptx-jit";
  }
  return d;
}

json to_json(const HostFacts& h) {
  return {{"hostname", h.hostname}, {"cpu_model", h.cpu_model}, {"logical_cpus", h.logical_cpus}, {"os", h.os}};
}

HostFacts host_from_json(const json& j) {
  return {j.at("hostname").get<std::string>(), j.at("cpu_model").get<std::string>(),
          j.at("logical_cpus").get<int>(), j.at("os").get<std::string>()};
}

json to_json(const BuildInfo& b) {
  return {{"git_commit", b.git_commit},     {"git_dirty", b.git_dirty},   {"cxx_compiler", b.cxx_compiler},
          {"cuda_compiler", b.cuda_compiler}, {"build_type", b.build_type}, {"cxx_flags", b.cxx_flags},
          {"cuda_flags", b.cuda_flags},     {"cuda_architectures", b.cuda_architectures},
          {"have_cuda", b.have_cuda}};
}

BuildInfo build_from_json(const json& j) {
  BuildInfo b;
  b.git_commit = j.at("git_commit").get<std::string>();
  b.git_dirty = j.at("git_dirty").get<bool>();
  b.cxx_compiler = j.at("cxx_compiler").get<std::string>();
  b.cuda_compiler = j.at("cuda_compiler").get<std::string>();
  b.build_type = j.at("build_type").get<std::string>();
  b.cxx_flags = j.at("cxx_flags").get<std::string>();
  b.cuda_flags = j.at("cuda_flags").get<std::string>();
  b.cuda_architectures = j.at("cuda_architectures").get<std::string>();
  b.have_cuda = j.at("have_cuda").get<bool>();
  return b;
}

json to_json(const Stats& s) {
  return {{"n", s.n},       {"min", s.min},         {"median", s.median}, {"max", s.max},
          {"mean", s.mean}, {"stdev", s.stdev},     {"rel_stdev", s.rel_stdev},
          {"mad", s.mad},   {"rel_mad", s.rel_mad}};
}

Stats stats_from_json(const json& j) {
  Stats s;
  s.n = j.at("n").get<std::size_t>();
  s.min = j.at("min").get<double>();
  s.median = j.at("median").get<double>();
  s.max = j.at("max").get<double>();
  s.mean = j.at("mean").get<double>();
  s.stdev = j.at("stdev").get<double>();
  s.rel_stdev = j.at("rel_stdev").get<double>();
  s.mad = j.at("mad").get<double>();
  s.rel_mad = j.at("rel_mad").get<double>();
  return s;
}

void Record::set_measurement(const Measurement& m) {
  samples = m.samples_s;
  summary = m.stats;
  stop_reason = to_string(m.reason);
  warmup_runs = m.warmup_runs;
}

json to_json(const Record& r) {
  json j = {{"schema", kRecordSchema},
            {"experiment", r.experiment},
            {"variant", r.variant},
            {"rung", r.rung},
            {"technique", r.technique},
            {"backend", r.backend},
            {"axes", r.axes.to_json()},
            {"scope", r.scope},
            {"mode", r.mode},
            {"unit", r.unit},
            {"samples", r.samples},
            {"summary", r.summary ? to_json(*r.summary) : json(nullptr)},
            {"stop_reason", r.stop_reason},
            {"warmup_runs", r.warmup_runs},
            {"throughput", r.throughput ? to_json(*r.throughput) : json(nullptr)},
            {"validation", r.validation},
            {"skipped", r.skipped ? json(*r.skipped) : json(nullptr)},
            {"extra", r.extra},
            {"device", to_json(r.device)},
            {"host", to_json(r.host)},
            {"build", to_json(r.build)},
            {"timestamp", r.timestamp}};
  return j;
}

Record record_from_json(const json& j) {
  try {
    if (j.at("schema").get<std::string>() != kRecordSchema)
      throw std::runtime_error("schema is '" + j.at("schema").get<std::string>() + "', expected " + kRecordSchema);
    Record r;
    r.experiment = j.at("experiment").get<std::string>();
    r.variant = j.at("variant").get<std::string>();
    r.rung = j.at("rung").get<int>();
    r.technique = j.at("technique").get<std::string>();
    r.backend = j.at("backend").get<std::string>();
    for (const auto& [k, v] : j.at("axes").items()) {
      if (v.is_number_integer()) r.axes.set(k, v.get<std::int64_t>());
      else if (v.is_number()) r.axes.set(k, v.get<double>());
      else r.axes.set(k, v.get<std::string>());
    }
    r.scope = j.at("scope").get<std::string>();
    r.mode = j.at("mode").get<std::string>();
    r.unit = j.at("unit").get<std::string>();
    r.samples = j.at("samples").get<std::vector<double>>();
    if (!j.at("summary").is_null()) r.summary = stats_from_json(j.at("summary"));
    r.stop_reason = j.at("stop_reason").get<std::string>();
    r.warmup_runs = j.at("warmup_runs").get<int>();
    if (!j.at("throughput").is_null()) r.throughput = throughput_from_json(j.at("throughput"));
    r.validation = j.at("validation").get<std::string>();
    if (!j.at("skipped").is_null()) r.skipped = j.at("skipped").get<std::string>();
    r.extra = j.at("extra");
    r.device = device_from_json(j.at("device"));
    r.host = host_from_json(j.at("host"));
    r.build = build_from_json(j.at("build"));
    r.timestamp = j.at("timestamp").get<std::string>();
    return r;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("record: ") + e.what());
  }
}

json to_json(const RecordSet& s) {
  json recs = json::array();
  for (const Record& r : s.records) recs.push_back(to_json(r));
  return {{"schema", kRecordSetSchema}, {"command", s.command}, {"created", s.created}, {"records", recs}};
}

RecordSet record_set_from_json(const json& j) {
  if (!j.is_object() || !j.contains("schema") || j.at("schema") != kRecordSetSchema)
    throw std::runtime_error(std::string("not a joseki record set (expected schema ") + kRecordSetSchema + ")");
  RecordSet s;
  s.command = j.at("command").get<std::string>();
  s.created = j.at("created").get<std::string>();
  std::size_t i = 0;
  for (const json& r : j.at("records")) {
    try {
      s.records.push_back(record_from_json(r));
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("records[{}]: {}", i, e.what()));
    }
    ++i;
  }
  return s;
}

void write_records(const std::string& path, const RecordSet& s) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  if (p.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(p.parent_path(), ec);
    if (ec) throw RunError(fmt::format("--json: cannot create directory '{}': {}", p.parent_path().string(), ec.message()));
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw RunError(fmt::format("--json: cannot write '{}'", tmp));
    out << to_json(s).dump(1) << '\n';
    if (!out) throw RunError(fmt::format("--json: write to '{}' failed", tmp));
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw RunError(fmt::format("--json: cannot move '{}' to '{}': {}", tmp, path, ec.message()));
}

RecordSet read_records(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot open records file '{}'", path));
  json j;
  try {
    in >> j;
  } catch (const json::exception& e) {
    throw InputError(fmt::format("'{}' is not JSON: {}", path, e.what()));
  }
  try {
    return record_set_from_json(j);
  } catch (const std::exception& e) {
    throw InputError(fmt::format("'{}': {}", path, e.what()));
  }
}

}  // namespace joseki::measure
