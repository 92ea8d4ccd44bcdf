// The reduction's workload and inputs from the user: sizes ("16777216", "2^24", "2^20+3"),
// offsets, random data (seeded, never zeros), the JOSEKI_SLOW_VARIANT test hook, and the
// memory checks that turn a size that cannot fit into a clear InputError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace joseki::reduce {

inline constexpr std::size_t MAX_N = std::size_t{1} << 36;  // 256 GiB of u32: beyond any device today
inline constexpr std::size_t MAX_OFFSET = 1024;

// "16777216", "2^24", "2^20+3", "2^24-1". Throws InputError naming `option` and the text.
std::size_t parse_size(const std::string& text, const std::string& option = "--n");
// An element offset 0..MAX_OFFSET. Throws InputError naming `option` and the text.
std::size_t parse_offset(const std::string& text, const std::string& option = "--offset");
// The items of comma-separated lists ("a,b", "c"), in order, empty items dropped.
std::vector<std::string> comma_items(const std::vector<std::string>& lists);

// "16777216 (2^24)", "1048579 (2^20+3)", "31".
std::string size_label(std::size_t n);

// n pseudo-random 32-bit words (splitmix64 of seed and index: reproducible, filled in parallel).
struct HostData {
  std::unique_ptr<std::uint32_t[]> words;
  std::size_t size = 0;
  const std::uint32_t* data() const { return words.get(); }
};
HostData generate(std::size_t n, std::uint64_t seed);

// JOSEKI_SLOW_VARIANT=<variant>:<k>[,<variant>:<k>...]: that variant does its work k times per
// sample (and per validation run): a real slowdown, for testing `joseki compare`. Names of
// other experiments' variants are allowed (and ignored here). Throws InputError if malformed.
using SlowVariants = std::map<std::string, int>;
SlowVariants parse_slow_variants(const char* env_value);
SlowVariants slow_variants_from_env();

// Host memory this process may still use (MemAvailable), in bytes; 0 if unknown.
std::size_t host_memory_available();
// Throws InputError naming n if n + offset words do not fit in the host's available memory.
void require_host_memory(std::size_t n, std::size_t offset);

}  // namespace joseki::reduce
