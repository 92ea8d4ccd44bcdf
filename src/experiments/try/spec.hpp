// `joseki try`: what a user's kernel file declares. Lines of the form
//   // joseki: key=value key=value ...
//   // joseki: sweep axis=v1,v2,... axis=...
// anywhere in the file set the ladder's options (launch geometry, output contract, ...) and the
// axes to sweep. Everything else is the user's CUDA source, compiled as is. Pure C++: parsed and
// checked without a GPU (unit-tested); a bad line is an InputError naming FILE:LINE.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace joseki::trykernel {

struct Setting {
  std::string value;
  int line = 0;
};
struct SweepAxis {
  std::vector<std::int64_t> values;
  int line = 0;
};

struct TryFile {
  std::string path;     // as given
  std::string name;     // the file's stem: "good_reduce"
  std::string source;   // the whole file, compiled as is
  std::map<std::string, Setting> settings;
  std::map<std::string, SweepAxis> sweep;  // in the order of the axes' names

  bool has(const std::string& key) const { return settings.count(key) != 0; }
  // The value of key, or `fallback`; get_int throws InputError "FILE:LINE: key=... is not an integer".
  std::string get(const std::string& key, const std::string& fallback) const;
  std::int64_t get_int(const std::string& key, std::int64_t fallback) const;
  // "FILE:LINE" for messages.
  std::string where(int line) const;
};

// Parses the directives of `source` (read from `path`). Throws InputError naming FILE:LINE for a
// malformed directive, a key given twice, or a sweep value that is not an integer.
TryFile parse_try_source(const std::string& path, const std::string& source);
// Reads the file (InputError naming it when it cannot be read or is empty) and parses it.
TryFile read_try_file(const std::string& path);

// Every key the file sets must be one of `known` (key -> what it means); otherwise InputError
// naming FILE:LINE, the key and the keys this ladder knows. Same for the sweep axes.
void require_known_keys(const TryFile& f, const std::map<std::string, std::string>& known,
                        const std::vector<std::string>& sweepable, const std::string& ladder);

// The line that sets `key` (0 when the file does not set it).
int line_of(const TryFile& f, const std::string& key);
// tie=<fraction in 0..0.5>, the sweep's tie band (`fallback` when not set); InputError naming
// FILE:LINE otherwise.
double tie_fraction(const TryFile& f, const std::string& fallback);

// Whether `word` appears in the source as a whole identifier (e.g. UNROLL): a knob named so in
// the file is passed to the compiler as -DWORD=value.
bool uses_identifier(const std::string& source, const std::string& word);

}  // namespace joseki::trykernel
