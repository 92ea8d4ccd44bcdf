// libFuzzer target: the ABC471G input parser (src/experiments/abc471g/io.cpp).
// Every input must either parse or throw InputError (exit 2 in the CLI); and the streaming
// reader, fed the same bytes in small chunks, must agree with the parser of the whole text
// (the same problem, or the same message: a bad token longer than its message shows excepted).
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>

#include "experiments/abc471g/io.hpp"
#include "measure/errors.hpp"

namespace {
std::string outcome(const std::function<joseki::abc471g::Problem()>& f) {
  try {
    const joseki::abc471g::Problem p = f();
    std::string s = "ok";
    auto add = [&s](std::uint64_t x) {
      s += ' ';
      s += std::to_string(x);
    };
    add(p.n);
    add(p.k);
    add(p.seed);
    s += " |";
    for (auto b : p.b) add(b);
    s += " |";
    for (auto v : p.v) add(v);
    return s;
  } catch (const joseki::InputError& e) {
    std::string s = "error ";
    s += e.what();
    return s;
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 16)) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string whole = outcome([&] { return joseki::abc471g::parse_problem_text(text); });
  const std::size_t chunk = size == 0 ? 1 : 1 + data[0] % 13;
  std::size_t pos = 0;
  const joseki::abc471g::ReadFn read = [&](char* buf, std::size_t cap) {
    const std::size_t n = std::min(cap, size - pos);
    for (std::size_t i = 0; i < n; ++i) buf[i] = text[pos + i];
    pos += n;
    return n;
  };
  const std::string streamed = outcome([&] { return joseki::abc471g::parse_problem_stream(read, chunk); });
  // A stream does not read a bad token beyond what its message shows ("...(at least N characters)").
  if (whole != streamed && streamed.find("(at least") == std::string::npos) std::abort();  // the readers disagree
  return 0;
}
