// The child's result document, ranking and history (result.hpp).
#include "experiments/try/result.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace joseki::trykernel {

namespace fs = std::filesystem;

CompileError::CompileError(const std::string& path, const std::string& log, const std::vector<std::string>& defines)
    : InputError(fmt::format("{}: NVRTC could not compile it{}:\n{}", path,
                             defines.empty() ? "" : " (with " + [&] {
                               std::string s;
                               for (const auto& d : defines) s += (s.empty() ? "" : " ") + d;
                               return s;
                             }() + ")",
                             log.empty() ? "(NVRTC gave no log)" : log)),
      m_log(log) {}

std::vector<measure::Record> check_result_document(const nlohmann::json& doc) {
  auto bad = [](const std::string& what) { return RunError("the child's result is not valid: " + what + "; nothing was recorded"); };
  if (!doc.is_object()) throw bad("not a JSON object");
  for (const char* k : {"ladder", "variant", "status"})
    if (!doc.contains(k) || !doc[k].is_string()) throw bad(fmt::format("'{}' missing or not a string", k));
  const std::string status = doc["status"];
  if (status != "exact" && status != "wrong") throw bad("status '" + status + "'");
  if (doc.contains("validations") && !doc["validations"].is_array()) throw bad("'validations' is not an array");
  std::vector<measure::Record> out;
  if (doc.contains("records")) {
    if (!doc["records"].is_array()) throw bad("'records' is not an array");
    for (const auto& r : doc["records"]) {
      try {
        out.push_back(measure::record_from_json(r));
      } catch (const std::exception& e) {
        throw bad(std::string("a record: ") + e.what());
      }
    }
  }
  return out;
}

namespace {

bool in_group(const measure::Record& r, std::int64_t n, const std::string& mode) {
  return r.mode == mode && r.axes.has("n") && r.axes.get_int("n") == n && r.ladder.sweep.empty();
}

std::string config_of(const measure::Record& r) {
  std::string s;
  for (const auto& [name, v] : r.axes.values())
    if (name != "n" && name != "offset") s += (s.empty() ? "" : " ") + name + "=" + measure::to_string(v);
  return s;
}

}  // namespace

Ranking rank(const std::vector<measure::Record>& records, const std::string& user_variant, std::int64_t n,
             const std::string& mode, const std::string& baseline, const std::string& ceiling) {
  Ranking k;
  std::optional<double> best, cub, ceil_bps;
  for (const auto& r : records) {
    if (!in_group(r, n, mode) || !r.summary || r.skipped) continue;
    if (r.variant == ceiling) {
      ceil_bps = r.throughput ? std::optional<double>(r.throughput->bytes_per_s) : std::nullopt;
      continue;
    }
    if (r.variant == baseline) cub = r.summary->median;
    if (r.variant != baseline && r.variant != user_variant && r.backend == "cuda" &&
        (!best || r.summary->median < *best)) {
      best = r.summary->median;
      k.best_rung = r.variant;
    }
  }
  std::vector<RankRow> timed, untimed;
  std::optional<RankRow> ceil_row;
  for (const auto& r : records) {
    if (!in_group(r, n, mode)) continue;
    RankRow row;
    row.variant = r.variant;
    row.technique = r.technique;
    row.config = config_of(r);
    row.user = r.variant == user_variant;
    row.ceiling = r.variant == ceiling;
    if (r.summary && !r.skipped) {
      const double m = r.summary->median;
      row.median_s = m;
      if (r.throughput) {
        row.gbps = r.throughput->bytes_per_s / 1e9;
        if (ceil_bps && *ceil_bps > 0) row.pct_ceiling = 100.0 * r.throughput->bytes_per_s / *ceil_bps;
      }
      if (best && m > 0) row.x_best_rung = *best / m;
      if (cub && m > 0) row.x_cub = *cub / m;
    } else {
      row.note = r.skipped ? *r.skipped : r.validation;
      if (r.validation.rfind("failed", 0) == 0) row.note = r.validation;
    }
    if (row.ceiling)
      ceil_row = row;
    else
      (row.median_s ? timed : untimed).push_back(row);
  }
  std::stable_sort(timed.begin(), timed.end(), [](const RankRow& a, const RankRow& b) { return *a.median_s < *b.median_s; });
  for (std::size_t i = 0; i < timed.size(); ++i) timed[i].rank = static_cast<int>(i + 1);
  k.timed = static_cast<int>(timed.size());
  k.rows = timed;
  k.rows.insert(k.rows.end(), untimed.begin(), untimed.end());
  if (ceil_row) k.rows.push_back(*ceil_row);
  for (const auto& r : k.rows)
    if (r.user) k.user = r;
  return k;
}

std::string history_dir(const std::string& base, const std::string& ladder) {
  return (fs::path(base.empty() ? "joseki-runs/try" : base) / ladder).string();
}

std::string write_history(const std::string& dir, const nlohmann::json& entry) {
  fs::create_directories(dir);
  std::string stamp = measure::utc_now_iso8601();  // 2026-12-01T14:09:08Z
  std::replace(stamp.begin(), stamp.end(), ':', '-');
  const std::string stem = entry.value("name", std::string("try"));
  fs::path path = fs::path(dir) / (stamp + "-" + stem + ".json");
  for (int i = 2; fs::exists(path); ++i) path = fs::path(dir) / fmt::format("{}-{}-{}.json", stamp, stem, i);
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream o(tmp);
    if (!o) throw RunError("cannot write the try's history record " + tmp.string());
    o << entry.dump(1) << "\n";
    if (!o) throw RunError("cannot write the try's history record " + tmp.string());
  }
  fs::rename(tmp, path);
  return path.string();
}

HistoryEntry summarize(const nlohmann::json& e) {
  HistoryEntry h;
  h.file = e.value("file", "");
  h.when = e.value("when", "");
  h.status = e.value("status", "");
  h.message = e.value("message", "");
  if (!e.contains("result") || !e["result"].is_object()) return h;
  const nlohmann::json& r = e["result"];
  h.variant = r.value("variant", "");
  h.n = r.value("n", std::int64_t{0});
  std::vector<measure::Record> recs;
  try {
    recs = check_result_document(r);
  } catch (const std::exception&) {
    return h;
  }
  for (const char* mode : {"cold", "hot"}) {
    const Ranking k = rank(recs, h.variant, h.n, mode);
    if (!k.user && k.timed == 0) continue;
    h.mode = mode;
    h.best_rung = k.best_rung;
    for (const auto& row : k.rows)
      if (row.variant == k.best_rung) h.best_rung_median_s = row.median_s;
    if (k.user) {
      h.median_s = k.user->median_s;
      h.x_best_rung = k.user->x_best_rung;
      h.x_cub = k.user->x_cub;
      h.pct_ceiling = k.user->pct_ceiling;
    }
    break;
  }
  return h;
}

std::vector<HistoryEntry> read_history(const std::string& dir, std::vector<std::string>* skipped) {
  std::vector<HistoryEntry> out;
  if (!fs::is_directory(dir)) return out;
  std::vector<fs::path> files;
  for (const auto& de : fs::directory_iterator(dir))
    if (de.is_regular_file() && de.path().extension() == ".json") files.push_back(de.path());
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    try {
      std::ifstream in(p);
      const nlohmann::json j = nlohmann::json::parse(in);
      if (!j.is_object() || j.value("joseki_try", 0) != 1) throw std::runtime_error("not a joseki try record");
      HistoryEntry h = summarize(j);
      h.path = p.string();
      out.push_back(std::move(h));
    } catch (const std::exception& e) {
      if (skipped) skipped->push_back(p.string() + ": " + e.what());
    }
  }
  return out;
}

}  // namespace joseki::trykernel
