#include "experiments/reduce/workload.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>

#include "backend/cpu/parallel.hpp"
#include "measure/errors.hpp"

namespace joseki::reduce {

namespace {

bool parse_u64(const std::string& s, std::uint64_t& out) {
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); })) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

std::size_t parse_size(const std::string& raw, const std::string& option) {
  std::string t;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c))) t += c;
  const std::string hint = "expected a positive integer such as 16777216, 2^24 or 2^20+3";
  if (!t.empty() && t[0] == '-') throw InputError(fmt::format("{}: '{}' is not a valid size: must be at least 1", option, raw));
  std::uint64_t value = 0;
  if (t.rfind("2^", 0) == 0 || t.rfind("2**", 0) == 0) {
    const std::size_t start = t[1] == '^' ? 2 : 3;
    const std::size_t op = t.find_first_of("+-", start);
    std::uint64_t e = 0, c = 0;
    if (!parse_u64(t.substr(start, op - start), e) || (op != std::string::npos && !parse_u64(t.substr(op + 1), c)))
      throw InputError(fmt::format("{}: '{}' is not a size ({})", option, raw, hint));
    if (e > 36) throw InputError(fmt::format("{}: '{}' is too large (at most 2^36 elements)", option, raw));
    value = std::uint64_t{1} << e;
    if (op != std::string::npos && t[op] == '-') {
      if (c >= value) throw InputError(fmt::format("{}: '{}' is not a valid size: must be at least 1", option, raw));
      value -= c;
    } else {
      value += c;
    }
  } else if (!parse_u64(t, value)) {
    throw InputError(fmt::format("{}: '{}' is not a size ({})", option, raw, hint));
  }
  if (value == 0) throw InputError(fmt::format("{}: '{}' is not a valid size: must be at least 1", option, raw));
  if (value > MAX_N) throw InputError(fmt::format("{}: '{}' is too large (at most 2^36 elements)", option, raw));
  return static_cast<std::size_t>(value);
}

std::size_t parse_offset(const std::string& raw, const std::string& option) {
  std::uint64_t v = 0;
  if (!parse_u64(raw, v) || v > MAX_OFFSET)
    throw InputError(fmt::format("{}: '{}' is not an element offset in 0..{}", option, raw, MAX_OFFSET));
  return static_cast<std::size_t>(v);
}

std::string size_label(std::size_t n) {
  for (int e = 0; e < 63; ++e) {
    const std::size_t p = std::size_t{1} << e;
    if (p == n) return n < 1024 ? std::to_string(n) : fmt::format("{} (2^{})", n, e);
    if (e >= 10 && n > p && n - p <= 16) return fmt::format("{} (2^{}+{})", n, e, n - p);
    if (e >= 10 && n < p && p - n <= 16) return fmt::format("{} (2^{}-{})", n, e, p - n);
  }
  return std::to_string(n);
}

HostData generate(std::size_t n, std::uint64_t seed) {
  HostData d;
  d.words.reset(new std::uint32_t[n]);  // uninitialised: every word is written below, in parallel
  d.size = n;
  constexpr std::size_t CHUNK = 1 << 20;
  const std::size_t tasks = (n + CHUNK - 1) / CHUNK;
  std::uint32_t* w = d.words.get();
  cpu::ThreadPool::global().parallel_for(static_cast<std::int64_t>(tasks), [&](std::int64_t t) {
    const std::size_t begin = static_cast<std::size_t>(t) * CHUNK, end = std::min(n, begin + CHUNK);
    for (std::size_t i = begin; i < end; i += 2) {
      const std::uint64_t r = splitmix64(seed ^ (i * 0xD1B54A32D192ED03ull));
      w[i] = static_cast<std::uint32_t>(r);
      if (i + 1 < end) w[i + 1] = static_cast<std::uint32_t>(r >> 32);
    }
  });
  return d;
}

std::vector<std::string> comma_items(const std::vector<std::string>& lists) {
  std::vector<std::string> out;
  for (const std::string& s : lists)
    for (std::size_t start = 0; start <= s.size();) {
      const std::size_t comma = std::min(s.find(',', start), s.size());
      if (comma > start) out.push_back(s.substr(start, comma - start));
      start = comma + 1;
    }
  return out;
}

SlowVariants parse_slow_variants(const char* env) {
  SlowVariants out;
  if (!env || !*env) return out;
  for (const std::string& item : comma_items({env})) {
    const std::size_t colon = item.rfind(':');
    std::uint64_t k = 0;
    if (colon == std::string::npos || colon == 0 || !parse_u64(item.substr(colon + 1), k) || k < 1 || k > 1000)
      throw InputError(fmt::format("JOSEKI_SLOW_VARIANT: '{}' is not <variant>:<k> with k in 1..1000", item));
    out[item.substr(0, colon)] = static_cast<int>(k);
  }
  return out;
}

SlowVariants slow_variants_from_env() { return parse_slow_variants(std::getenv("JOSEKI_SLOW_VARIANT")); }

std::size_t host_memory_available() {
  std::ifstream f("/proc/meminfo");
  std::string key, unit;
  std::size_t kib = 0;
  while (f >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

void require_host_memory(std::size_t n, std::size_t offset) {
  const std::size_t need = (n + offset) * sizeof(std::uint32_t);
  const std::size_t avail = host_memory_available();
  if (avail && need > avail / 10 * 9)
    throw InputError(fmt::format("--n {}: the input needs {:.2f} GB of host memory; {:.2f} GB are available", n,
                                 need / 1e9, avail / 1e9));
}

}  // namespace joseki::reduce
