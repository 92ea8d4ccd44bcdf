// The directives of a `joseki try` file (spec.hpp).
#include "experiments/try/spec.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "measure/errors.hpp"

namespace joseki::trykernel {

namespace {

std::string trim(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool parse_int(const std::string& s, std::int64_t& v) {
  if (s.empty()) return false;
  std::size_t pos = 0;
  try {
    v = std::stoll(s, &pos, 10);
  } catch (...) {
    return false;
  }
  return pos == s.size();
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string TryFile::where(int line) const { return fmt::format("{}:{}", path, line); }

int line_of(const TryFile& f, const std::string& key) {
  const auto it = f.settings.find(key);
  return it == f.settings.end() ? 0 : it->second.line;
}

double tie_fraction(const TryFile& f, const std::string& fallback) {
  const std::string tie = f.get("tie", fallback);
  double v = -1;
  try {
    v = std::stod(tie);
  } catch (...) {
  }
  if (!(v >= 0 && v <= 0.5))
    throw InputError(fmt::format("{}: tie={} is not a fraction in 0..0.5", f.where(line_of(f, "tie")), tie));
  return v;
}

std::string TryFile::get(const std::string& key, const std::string& fallback) const {
  const auto it = settings.find(key);
  return it == settings.end() ? fallback : it->second.value;
}

std::int64_t TryFile::get_int(const std::string& key, std::int64_t fallback) const {
  const auto it = settings.find(key);
  if (it == settings.end()) return fallback;
  std::int64_t v = 0;
  if (!parse_int(it->second.value, v))
    throw InputError(fmt::format("{}: {}={} is not an integer", where(it->second.line), key, it->second.value));
  return v;
}

TryFile parse_try_source(const std::string& path, const std::string& source) {
  TryFile f;
  f.path = path;
  f.name = std::filesystem::path(path).stem().string();
  f.source = source;
  std::istringstream in(source);
  std::string line;
  int no = 0;
  while (std::getline(in, line)) {
    ++no;
    const std::string t = trim(line);
    if (t.rfind("//", 0) != 0) continue;
    const std::string body = trim(t.substr(2));
    if (body.rfind("joseki:", 0) != 0) continue;
    std::istringstream words(body.substr(7));
    std::string w;
    bool sweep = false, first = true;
    while (words >> w) {
      if (first && w == "sweep") {
        sweep = true;
        first = false;
        continue;
      }
      first = false;
      const std::size_t eq = w.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == w.size())
        throw InputError(fmt::format("{}: '{}' is not key=value (a joseki: line holds key=value pairs; "
                                     "'joseki: sweep axis=v1,v2' declares a sweep)",
                                     f.where(no), w));
      const std::string key = w.substr(0, eq), value = w.substr(eq + 1);
      if (sweep) {
        if (f.sweep.count(key))
          throw InputError(fmt::format("{}: the sweep axis '{}' is declared twice (first on line {})", f.where(no), key,
                                       f.sweep[key].line));
        SweepAxis ax;
        ax.line = no;
        std::stringstream vs(value);
        std::string item;
        while (std::getline(vs, item, ',')) {
          std::int64_t v = 0;
          if (!parse_int(item, v))
            throw InputError(fmt::format("{}: sweep {}: '{}' is not an integer", f.where(no), key, item));
          ax.values.push_back(v);
        }
        if (ax.values.empty()) throw InputError(fmt::format("{}: sweep {}: no values", f.where(no), key));
        f.sweep[key] = ax;
      } else {
        if (f.settings.count(key))
          throw InputError(fmt::format("{}: '{}' is set twice (first on line {})", f.where(no), key,
                                       f.settings[key].line));
        f.settings[key] = Setting{value, no};
      }
    }
    if (sweep && first) throw InputError(fmt::format("{}: an empty joseki: line", f.where(no)));
  }
  return f;
}

TryFile read_try_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("FILE: cannot read '{}'", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  if (trim(text).empty()) throw InputError(fmt::format("FILE: '{}' is empty", path));
  return parse_try_source(path, text);
}

void require_known_keys(const TryFile& f, const std::map<std::string, std::string>& known,
                        const std::vector<std::string>& sweepable, const std::string& ladder) {
  std::string keys, axes;
  for (const auto& [k, _] : known) keys += (keys.empty() ? "" : ", ") + k;
  for (const auto& a : sweepable) axes += (axes.empty() ? "" : ", ") + a;
  for (const auto& [k, s] : f.settings)
    if (!known.count(k))
      throw InputError(fmt::format("{}: '{}' is not a setting of the {} ladder (settings: {})", f.where(s.line), k,
                                   ladder, keys));
  for (const auto& [k, a] : f.sweep)
    if (std::find(sweepable.begin(), sweepable.end(), k) == sweepable.end())
      throw InputError(fmt::format("{}: the {} ladder cannot sweep '{}' (axes: {})", f.where(a.line), ladder, k,
                                   axes.empty() ? "none" : axes));
}

bool uses_identifier(const std::string& source, const std::string& word) {
  std::size_t pos = 0;
  while ((pos = source.find(word, pos)) != std::string::npos) {
    const bool left = pos == 0 || !ident_char(source[pos - 1]);
    const bool right = pos + word.size() >= source.size() || !ident_char(source[pos + word.size()]);
    if (left && right) return true;
    pos += word.size();
  }
  return false;
}

}  // namespace joseki::trykernel
