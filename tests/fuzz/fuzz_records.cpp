// libFuzzer target: the one validating reader of record files (src/measure/record.cpp).
// Every input is accepted or rejected with InputError; what is accepted must survive a round
// trip (written back and read again, the same records).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "measure/errors.hpp"
#include "measure/record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  joseki::measure::RecordSet set;
  try {
    set = joseki::measure::parse_records(text, "fuzz.json");
  } catch (const joseki::InputError&) {
    return 0;
  }
  const std::string again = joseki::measure::to_json(set).dump();
  joseki::measure::RecordSet back;
  try {
    back = joseki::measure::parse_records(again, "again.json");
  } catch (const joseki::InputError&) {
    std::abort();  // the reader rejected what the writer made of a valid file
  }
  if (back.records.size() != set.records.size() || joseki::measure::to_json(back).dump() != again) std::abort();
  return 0;
}
