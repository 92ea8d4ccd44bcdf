#include "measure/record.hpp"

#include <unistd.h>
#include <sys/utsname.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
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
constexpr const char* kRecordSchemaV1 = "joseki.record/1";  // read, never written
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

// ---- the one validating reader (docs/records.schema.json) ----
// Each reader checks what the schema says of its part (required and allowed keys, types,
// enums, ranges) and names the first violation by its JSON path, e.g. "$.records[3].summary.n".
namespace {

[[noreturn]] void bad(const std::string& path, const std::string& what) { throw RecordSchemaError(path, what); }

std::string type_name(const json& j) {
  if (j.is_number_integer() || j.is_number_unsigned()) return "an integer";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_null()) return "null";
  if (j.is_array()) return "an array";
  return "an object";
}

const json& obj(const json& j, const std::string& path) {
  if (!j.is_object()) bad(path, "is " + type_name(j) + ", expected an object");
  return j;
}

const json& at(const json& o, const std::string& path, const char* key) {
  const auto it = o.find(key);
  if (it == o.end()) bad(path, fmt::format("lacks the required field '{}'", key));
  return *it;
}

void only_keys(const json& o, const std::string& path, std::initializer_list<const char*> keys) {
  for (const auto& [k, v] : o.items()) {
    bool ok = false;
    for (const char* want : keys) ok = ok || k == want;
    if (!ok) bad(path + "." + k, "is not a field of this object (docs/records.schema.json)");
  }
}

std::string str(const json& o, const std::string& path, const char* key, std::size_t min_len = 0) {
  const json& v = at(o, path, key);
  const std::string p = path + "." + key;
  if (!v.is_string()) bad(p, "is " + type_name(v) + ", expected a string");
  std::string s = v.get<std::string>();
  if (s.size() < min_len) bad(p, "is empty");
  return s;
}

std::string one_of(const json& o, const std::string& path, const char* key, std::initializer_list<const char*> allowed) {
  std::string s = str(o, path, key);
  for (const char* a : allowed)
    if (s == a) return s;
  std::string list;
  for (const char* a : allowed) list += (list.empty() ? "" : ", ") + fmt::format("'{}'", a);
  bad(path + "." + key, fmt::format("is '{}', expected one of {}", s, list));
}

bool boolean(const json& o, const std::string& path, const char* key) {
  const json& v = at(o, path, key);
  if (!v.is_boolean()) bad(path + "." + key, "is " + type_name(v) + ", expected a boolean");
  return v.get<bool>();
}

// An integer in [lo, hi]; a number with no fraction (3.0) counts, as in JSON Schema.
std::int64_t integer_value(const json& v, const std::string& path, std::int64_t lo, std::int64_t hi) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(hi) || (lo > 0 && u < static_cast<std::uint64_t>(lo)))
      bad(path, fmt::format("is {}, outside [{}, {}]", u, lo, hi));
    return static_cast<std::int64_t>(u);
  }
  std::int64_t i = 0;
  if (v.is_number_integer()) {
    i = v.get<std::int64_t>();
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) bad(path, fmt::format("is {}, expected an integer", d));
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
      bad(path, fmt::format("is {}, outside [{}, {}]", d, lo, hi));
    i = static_cast<std::int64_t>(d);
  } else {
    bad(path, "is " + type_name(v) + ", expected an integer");
  }
  if (i < lo || i > hi) bad(path, fmt::format("is {}, outside [{}, {}]", i, lo, hi));
  return i;
}

std::int64_t integer(const json& o, const std::string& path, const char* key,
                     std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                     std::int64_t hi = std::numeric_limits<std::int64_t>::max()) {
  return integer_value(at(o, path, key), path + "." + key, lo, hi);
}

int int32(const json& o, const std::string& path, const char* key, int lo = std::numeric_limits<int>::min()) {
  return static_cast<int>(integer(o, path, key, lo, std::numeric_limits<int>::max()));
}

double number_value(const json& v, const std::string& path, double lo = -HUGE_VAL, bool exclusive = false) {
  if (!v.is_number()) bad(path, "is " + type_name(v) + ", expected a number");
  const double d = v.get<double>();
  if (!std::isfinite(d)) bad(path, "is not a finite number");
  if (d < lo || (exclusive && d == lo))
    bad(path, fmt::format("is {}, expected {} {}", d, exclusive ? "above" : "at least", lo));
  return d;
}

double number(const json& o, const std::string& path, const char* key, double lo = -HUGE_VAL, bool exclusive = false) {
  return number_value(at(o, path, key), path + "." + key, lo, exclusive);
}

DeviceFacts device_from_json_at(const json& j, const std::string& path) {
  obj(j, path);
  DeviceFacts d;
  d.present = boolean(j, path, "present");
  if (!d.present) {
    if (j.size() > 1) only_keys(j, path, {"present"});
    return d;
  }
  d.index = int32(j, path, "index", 0);
  d.name = str(j, path, "name");
  const std::string cc = str(j, path, "compute_capability");
  char tail = 0;
  if (std::sscanf(cc.c_str(), "%d.%d%c", &d.cc_major, &d.cc_minor, &tail) != 2 || d.cc_major < 0 || d.cc_minor < 0 ||
      cc.find_first_not_of("0123456789.") != std::string::npos)
    bad(path + ".compute_capability", "'" + cc + "' is not MAJOR.MINOR");
  d.sm_count = int32(j, path, "sm_count");
  d.warp_size = int32(j, path, "warp_size");
  d.l2_bytes = integer(j, path, "l2_bytes");
  d.global_mem_bytes = integer(j, path, "global_mem_bytes");
  d.smem_per_sm = integer(j, path, "smem_per_sm");
  d.smem_per_block_optin = integer(j, path, "smem_per_block_optin");
  d.regs_per_sm = int32(j, path, "regs_per_sm");
  d.max_threads_per_sm = int32(j, path, "max_threads_per_sm");
  d.sm_clock_khz = int32(j, path, "sm_clock_khz");
  d.mem_clock_khz = int32(j, path, "mem_clock_khz");
  d.bus_width_bits = int32(j, path, "bus_width_bits");
  d.driver_version = int32(j, path, "driver_version");
  d.runtime_version = int32(j, path, "runtime_version");
  d.pci_bus_id = str(j, path, "pci_bus_id");
  number(j, path, "clock_bw_Bps");
  number(j, path, "datasheet_bw_Bps");
  one_of(j, path, "datasheet_source", {"vendor datasheet", "memory clock x bus width"});
  if (j.contains("code_arch")) {
    d.code_arch = int32(j, path, "code_arch", 10);
    d.code_jit = one_of(j, path, "code", {"sass", "ptx-jit"}) == "ptx-jit";
  }
  if (const auto it = j.find("nvml"); it != j.end() && !it->is_null()) {
    try {
      d.nvml = nvml_facts_from_json(*it);
    } catch (const std::exception& e) {
      bad(path + ".nvml", e.what());
    }
  }
  return d;
}

HostFacts host_from_json_at(const json& j, const std::string& path) {
  obj(j, path);
  only_keys(j, path, {"hostname", "cpu_model", "logical_cpus", "os"});
  return {str(j, path, "hostname"), str(j, path, "cpu_model"), int32(j, path, "logical_cpus", 0), str(j, path, "os")};
}

BuildInfo build_from_json_at(const json& j, const std::string& path) {
  obj(j, path);
  only_keys(j, path, {"git_commit", "git_dirty", "cxx_compiler", "cuda_compiler", "build_type", "cxx_flags",
                      "cuda_flags", "cuda_architectures", "have_cuda"});
  BuildInfo b;
  b.git_commit = str(j, path, "git_commit");
  b.git_dirty = boolean(j, path, "git_dirty");
  b.cxx_compiler = str(j, path, "cxx_compiler");
  b.cuda_compiler = str(j, path, "cuda_compiler");
  b.build_type = str(j, path, "build_type");
  b.cxx_flags = str(j, path, "cxx_flags");
  b.cuda_flags = str(j, path, "cuda_flags");
  b.cuda_architectures = str(j, path, "cuda_architectures");
  b.have_cuda = boolean(j, path, "have_cuda");
  return b;
}

Stats stats_from_json_at(const json& j, const std::string& path) {
  obj(j, path);
  only_keys(j, path, {"n", "min", "median", "max", "mean", "stdev", "rel_stdev", "mad", "rel_mad"});
  Stats s;
  s.n = static_cast<std::size_t>(integer(j, path, "n", 1));
  s.min = number(j, path, "min");
  s.median = number(j, path, "median");
  s.max = number(j, path, "max");
  s.mean = number(j, path, "mean");
  s.stdev = number(j, path, "stdev", 0);
  s.rel_stdev = number(j, path, "rel_stdev", 0);
  s.mad = number(j, path, "mad", 0);
  s.rel_mad = number(j, path, "rel_mad", 0);
  return s;
}

Throughput throughput_from_json_at(const json& j, const std::string& path) {
  obj(j, path);
  only_keys(j, path, {"elements", "bytes", "time_s", "elements_per_s", "bytes_per_s", "datasheet_Bps", "pct_datasheet",
                      "ceiling_name", "ceiling_Bps", "pct_ceiling"});
  Throughput t;
  t.elements = number(j, path, "elements", 0);
  t.bytes = number(j, path, "bytes", 0);
  t.time_s = number(j, path, "time_s", 0, true);
  t.elements_per_s = number(j, path, "elements_per_s", 0);
  t.bytes_per_s = number(j, path, "bytes_per_s", 0);
  t.datasheet_Bps = number(j, path, "datasheet_Bps", 0);
  t.pct_datasheet = number(j, path, "pct_datasheet", 0);
  t.ceiling_name = str(j, path, "ceiling_name");
  t.ceiling_Bps = number(j, path, "ceiling_Bps", 0);
  t.pct_ceiling = number(j, path, "pct_ceiling", 0);
  return t;
}

// The typed ladder fields (null: none); every key known, every value of its type.
LadderFields ladder_from_json_at(const json& j, const std::string& path) {
  LadderFields l;
  if (j.is_null()) return l;
  obj(j, path);
  only_keys(j, path, {"previous", "baseline", "x_previous", "x_baseline", "ceiling", "x_ceiling", "sweep", "chosen",
                      "tie_rule", "scope_set"});
  auto text = [&](const char* k, std::string& to) {
    if (j.contains(k)) to = str(j, path, k);
  };
  auto ratio = [&](const char* k, std::optional<double>& to) {
    if (j.contains(k)) to = number(j, path, k, 0, true);
  };
  text("previous", l.previous);
  text("baseline", l.baseline);
  ratio("x_previous", l.x_previous);
  ratio("x_baseline", l.x_baseline);
  text("ceiling", l.ceiling);
  ratio("x_ceiling", l.x_ceiling);
  text("sweep", l.sweep);
  if (j.contains("chosen")) l.chosen = boolean(j, path, "chosen");
  text("tie_rule", l.tie_rule);
  text("scope_set", l.scope_set);
  return l;
}

Record record_from_json_at(const json& j, const std::string& path) {
  obj(j, path);
  only_keys(j, path, {"schema", "experiment", "variant", "rung", "technique", "backend", "axes", "scope", "mode", "unit",
                      "samples", "summary", "stop_reason", "warmup_runs", "throughput", "validation", "skipped", "extra",
                      "device", "host", "build", "timestamp", "environment", "ladder"});
  const std::string schema = str(j, path, "schema");
  if (schema != kRecordSchema && schema != kRecordSchemaV1)
    bad(path + ".schema", fmt::format("is '{}', expected '{}' or '{}'", schema, kRecordSchema, kRecordSchemaV1));
  Record r;
  r.experiment = str(j, path, "experiment", 1);
  r.variant = str(j, path, "variant", 1);
  r.rung = int32(j, path, "rung", -1);
  r.technique = str(j, path, "technique");
  r.backend = one_of(j, path, "backend", {"cuda", "vulkan", "cpu", "process"});
  const std::string axes_path = path + ".axes";
  for (const auto& [k, v] : obj(at(j, path, "axes"), axes_path).items()) {
    const std::string p = axes_path + "." + k;
    if (v.is_number_integer() || v.is_number_unsigned()) r.axes.set(k, integer_value(v, p, INT64_MIN, INT64_MAX));
    else if (v.is_number()) r.axes.set(k, number_value(v, p));
    else if (v.is_string()) r.axes.set(k, v.get<std::string>());
    else bad(p, "is " + type_name(v) + ", expected an integer, a number or a string");
  }
  r.scope = one_of(j, path, "scope", {"EXTERNAL", "PROGRAM", "GPU_PIPELINE", "GPU_COMPUTE", "CPU_COMPUTE", "VALUE"});
  r.mode = one_of(j, path, "mode", {"cold", "hot", ""});
  r.unit = str(j, path, "unit", 1);
  const json& samples = at(j, path, "samples");
  if (!samples.is_array()) bad(path + ".samples", "is " + type_name(samples) + ", expected an array");
  for (std::size_t i = 0; i < samples.size(); ++i)
    r.samples.push_back(number_value(samples[i], fmt::format("{}.samples[{}]", path, i)));
  if (const json& s = at(j, path, "summary"); !s.is_null()) r.summary = stats_from_json_at(s, path + ".summary");
  r.stop_reason = one_of(j, path, "stop_reason", {"converged", "max_samples", "timeout", "single", ""});
  r.warmup_runs = int32(j, path, "warmup_runs", 0);
  if (const json& t = at(j, path, "throughput"); !t.is_null())
    r.throughput = throughput_from_json_at(t, path + ".throughput");
  r.validation = str(j, path, "validation");
  if (r.validation != "exact" && r.validation != "within-tolerance" && r.validation != "not-checked" &&
      r.validation != "not-applicable" && r.validation.rfind("failed: ", 0) != 0)
    bad(path + ".validation", fmt::format("is '{}', expected exact, within-tolerance, not-checked, not-applicable or "
                                          "'failed: ...'", r.validation));
  if (const json& s = at(j, path, "skipped"); !s.is_null()) {
    if (!s.is_string()) bad(path + ".skipped", "is " + type_name(s) + ", expected null or a string");
    r.skipped = s.get<std::string>();
  }
  if (r.skipped) {
    if (!r.samples.empty()) bad(path + ".samples", "a skipped record has no samples");
    if (r.summary) bad(path + ".summary", "a skipped record has no summary");
  } else {
    if (r.samples.empty()) bad(path + ".samples", "is empty: a record that is not skipped has samples");
    if (!r.summary) bad(path + ".summary", "is null: a record that is not skipped has a summary");
  }
  r.extra = obj(at(j, path, "extra"), path + ".extra");
  if (schema == kRecordSchemaV1) {
    if (j.contains("ladder")) bad(path + ".ladder", "is not a field of a joseki.record/1 record");
    lift_ladder_fields(r.extra, r.ladder);
  } else {
    r.ladder = ladder_from_json_at(at(j, path, "ladder"), path + ".ladder");
  }
  r.device = device_from_json_at(at(j, path, "device"), path + ".device");
  r.host = host_from_json_at(at(j, path, "host"), path + ".host");
  r.build = build_from_json_at(at(j, path, "build"), path + ".build");
  r.timestamp = str(j, path, "timestamp");
  if (const auto it = j.find("environment"); it != j.end() && !it->is_null()) {
    try {
      r.environment = environment_from_json(*it);
    } catch (const std::exception& e) {
      bad(path + ".environment", e.what());
    }
  }
  return r;
}

RecordSet record_set_from_json_at(const json& j) {
  const std::string path = "$";
  obj(j, path);
  if (const auto it = j.find("schema"); it == j.end() || *it != kRecordSetSchema)
    bad(path + ".schema", fmt::format("not a joseki record set (expected schema {})", kRecordSetSchema));
  only_keys(j, path, {"schema", "command", "created", "records"});
  RecordSet s;
  s.command = str(j, path, "command");
  s.created = str(j, path, "created");
  const json& recs = at(j, path, "records");
  if (!recs.is_array()) bad(path + ".records", "is " + type_name(recs) + ", expected an array");
  for (std::size_t i = 0; i < recs.size(); ++i)
    s.records.push_back(record_from_json_at(recs[i], fmt::format("{}.records[{}]", path, i)));
  return s;
}

}  // namespace

RecordSchemaError::RecordSchemaError(std::string path, const std::string& what)
    : std::runtime_error(path + ": " + what), m_path(std::move(path)) {}

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
  if (d.nvml) j["nvml"] = to_json(*d.nvml);
  if (d.code_arch > 0) j.update({{"code_arch", d.code_arch}, {"code", d.code_jit ? "ptx-jit" : "sass"}});
  return j;
}

DeviceFacts device_from_json(const json& j) { return device_from_json_at(j, "$"); }

json to_json(const HostFacts& h) {
  return {{"hostname", h.hostname}, {"cpu_model", h.cpu_model}, {"logical_cpus", h.logical_cpus}, {"os", h.os}};
}

HostFacts host_from_json(const json& j) { return host_from_json_at(j, "$"); }

json to_json(const BuildInfo& b) {
  return {{"git_commit", b.git_commit},     {"git_dirty", b.git_dirty},   {"cxx_compiler", b.cxx_compiler},
          {"cuda_compiler", b.cuda_compiler}, {"build_type", b.build_type}, {"cxx_flags", b.cxx_flags},
          {"cuda_flags", b.cuda_flags},     {"cuda_architectures", b.cuda_architectures},
          {"have_cuda", b.have_cuda}};
}

BuildInfo build_from_json(const json& j) { return build_from_json_at(j, "$"); }

json to_json(const Stats& s) {
  return {{"n", s.n},       {"min", s.min},         {"median", s.median}, {"max", s.max},
          {"mean", s.mean}, {"stdev", s.stdev},     {"rel_stdev", s.rel_stdev},
          {"mad", s.mad},   {"rel_mad", s.rel_mad}};
}

Stats stats_from_json(const json& j) { return stats_from_json_at(j, "$"); }

bool LadderFields::empty() const { return *this == LadderFields{}; }

json to_json(const LadderFields& l) {
  json j = json::object();
  if (!l.previous.empty()) j["previous"] = l.previous;
  if (!l.baseline.empty()) j["baseline"] = l.baseline;
  if (l.x_previous) j["x_previous"] = *l.x_previous;
  if (l.x_baseline) j["x_baseline"] = *l.x_baseline;
  if (!l.ceiling.empty()) j["ceiling"] = l.ceiling;
  if (l.x_ceiling) j["x_ceiling"] = *l.x_ceiling;
  if (!l.sweep.empty()) {
    j["sweep"] = l.sweep;
    j["chosen"] = l.chosen;
  }
  if (!l.tie_rule.empty()) j["tie_rule"] = l.tie_rule;
  if (!l.scope_set.empty()) j["scope_set"] = l.scope_set;
  return j;
}

LadderFields ladder_from_json(const json& j) { return ladder_from_json_at(j, "$"); }

void lift_ladder_fields(json& extra, LadderFields& l) {
  if (!extra.is_object()) return;
  auto take_str = [&](const char* k, std::string& to) {
    if (extra.contains(k) && extra[k].is_string()) {
      to = extra[k].get<std::string>();
      extra.erase(k);
    }
  };
  auto take_num = [&](const char* k, std::optional<double>& to) {
    if (extra.contains(k) && extra[k].is_number()) {
      to = extra[k].get<double>();
      extra.erase(k);
    }
  };
  take_str("previous", l.previous);
  take_str("baseline", l.baseline);
  take_num("x_previous", l.x_previous);
  take_num("x_baseline", l.x_baseline);
  take_str("sweep", l.sweep);
  if (extra.contains("chosen") && extra["chosen"].is_boolean()) {
    l.chosen = extra["chosen"].get<bool>();
    extra.erase("chosen");
  }
  take_str("tie_rule", l.tie_rule);
  take_str("scope_set", l.scope_set);
}

void Record::set_measurement(const Measurement& m) {
  samples = m.samples_s;
  summary = m.stats;
  stop_reason = to_string(m.reason);
  warmup_runs = m.warmup_runs;
  environment = m.environment;
  if (environment) environment->discarded_samples = m.discarded_s;
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
            {"ladder", r.ladder.empty() ? json(nullptr) : to_json(r.ladder)},
            {"extra", r.extra},
            {"device", to_json(r.device)},
            {"host", to_json(r.host)},
            {"build", to_json(r.build)},
            {"timestamp", r.timestamp}};
  if (r.environment) j["environment"] = to_json(*r.environment);
  return j;
}

Record record_from_json(const json& j) { return record_from_json_at(j, "$"); }

json to_json(const RecordSet& s) {
  json recs = json::array();
  for (const Record& r : s.records) recs.push_back(to_json(r));
  return {{"schema", kRecordSetSchema}, {"command", s.command}, {"created", s.created}, {"records", recs}};
}

RecordSet record_set_from_json(const json& j) { return record_set_from_json_at(j); }

void write_records(const std::string& path, const RecordSet& s) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  if (p.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(p.parent_path(), ec);
    if (ec) throw RunError(fmt::format("--json: cannot create directory '{}': {}", p.parent_path().string(), ec.message()));
  }
  std::error_code ec;
  if (fs::is_directory(p, ec)) throw RunError(fmt::format("--json: '{}' is a folder; give a file path", path));
  const std::string tmp = path + ".tmp";
  try {
    {
      std::ofstream out(tmp);
      if (!out) throw RunError(fmt::format("--json: cannot write '{}'", tmp));
      out << to_json(s).dump(1) << '\n';
      out.flush();
      if (!out) throw RunError(fmt::format("--json: write to '{}' failed", tmp));
    }
    fs::rename(tmp, path, ec);
    if (ec) throw RunError(fmt::format("--json: cannot move '{}' to '{}': {}", tmp, path, ec.message()));
  } catch (...) {
    fs::remove(tmp, ec);  // never leave PATH.tmp behind
    throw;
  }
}

RecordSet parse_records(std::string_view text, const std::string& name) {
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF && static_cast<unsigned char>(text[1]) == 0xBB &&
      static_cast<unsigned char>(text[2]) == 0xBF)
    throw InputError(fmt::format("'{}': starts with a byte-order mark (U+FEFF); a records file is plain UTF-8 JSON", name));
  json j;
  try {
    j = json::parse(text);  // strict: anything after the JSON value is an error
  } catch (const json::exception& e) {
    throw InputError(fmt::format("'{}' is not JSON (or has something after it): {}", name, e.what()));
  }
  try {
    return record_set_from_json_at(j);
  } catch (const RecordSchemaError& e) {
    throw InputError(fmt::format("'{}': breaks docs/records.schema.json at {}", name, e.what()));
  }
}

RecordSet read_records(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw InputError(fmt::format("'{}' is a directory, not a records file", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot open records file '{}'", path));
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxRecordsFileBytes)
      throw InputError(fmt::format("'{}': larger than {} MiB; not a records file", path, kMaxRecordsFileBytes >> 20));
  }
  if (in.bad()) throw InputError(fmt::format("cannot read records file '{}'", path));
  return parse_records(text, path);
}

}  // namespace joseki::measure
