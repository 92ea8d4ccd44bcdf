#include "experiments/abc471g/io.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>

#include "measure/errors.hpp"

namespace joseki::abc471g {
namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// A token as it may be shown in a message: printable ASCII kept, other bytes as \xNN, long ones cut.
std::string shown(std::string_view tok) {
  std::string s;
  for (std::size_t i = 0; i < tok.size() && i < 32; ++i) {
    const unsigned char c = static_cast<unsigned char>(tok[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      s += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    }
  }
  if (tok.size() > 32) s += "...(" + std::to_string(tok.size()) + " characters)";
  return s;
}

class Reader {
 public:
  explicit Reader(std::string_view text) : m_text(text) {}

  // The next token as an unsigned 64-bit integer. The field is named `name` (with `_index`
  // appended when index >= 0) in errors; `expect` says what was expected when the input ends.
  // Names are only built on error: this runs once per token.
  std::uint64_t next(const char* name, std::int64_t index, const char* expect) {
    skip_space();
    if (m_pos >= m_text.size()) {
      if (m_tokens == 0) throw InputError("input: empty (expected 'N K seed M', then b_1..b_M, then V_0..V_{K-1})");
      throw InputError("input ended early at line " + std::to_string(m_line) + ": missing " + field(name, index) +
                       " (" + expect + ")");
    }
    const std::size_t start = m_pos;
    std::uint64_t v = 0;
    bool bad = false, overflow = false;
    while (m_pos < m_text.size() && !is_space(m_text[m_pos])) {
      const unsigned d = static_cast<unsigned char>(m_text[m_pos]) - static_cast<unsigned>('0');
      if (d > 9) {
        bad = true;
      } else if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, d, &v)) {
        overflow = true;
      }
      ++m_pos;
    }
    ++m_tokens;
    if (bad || overflow) {
      const std::string_view tok = m_text.substr(start, m_pos - start);
      const std::string where = " (line " + std::to_string(m_line) + ")";
      const std::string f = field(name, index);
      if (tok[0] == '-') throw InputError("input: " + f + " = '" + shown(tok) + "' is negative" + where);
      if (bad) throw InputError("input: " + f + " = '" + shown(tok) + "' is not a non-negative decimal integer" + where);
      throw InputError("input: " + f + " = '" + shown(tok) + "' overflows 64 bits" + where);
    }
    return v;
  }

  static std::string field(const char* name, std::int64_t index) {
    return index < 0 ? std::string(name) : std::string(name) + "_" + std::to_string(index);
  }

  void expect_end() {
    skip_space();
    if (m_pos < m_text.size()) {
      std::size_t end = m_pos;
      while (end < m_text.size() && !is_space(m_text[end])) ++end;
      throw InputError("input: extra token '" + shown(m_text.substr(m_pos, end - m_pos)) + "' after V_{K-1} (line " +
                       std::to_string(m_line) + "; the input must end after K values of V)");
    }
  }

  int line() const { return m_line; }

 private:
  void skip_space() {
    while (m_pos < m_text.size() && is_space(m_text[m_pos])) {
      if (m_text[m_pos] == '\n') ++m_line;
      ++m_pos;
    }
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
  std::uint64_t m_tokens = 0;
  int m_line = 1;
};

std::string ln(const Reader& r) { return " (line " + std::to_string(r.line()) + ")"; }

}  // namespace

Problem parse_problem_text(std::string_view text) {
  Reader r(text);
  Problem p;
  const char* header = "the first line is 'N K seed M'";
  p.n = r.next("N", -1, header);
  if (p.n < 1) throw InputError("input: N = 0: must be at least 1" + ln(r));
  if (p.n > kMaxN)
    throw InputError("input: N = " + std::to_string(p.n) + ": above the supported maximum " + std::to_string(kMaxN) +
                     " (10^15, so that every count stays exact in a double)" + ln(r));
  const std::uint64_t k = r.next("K", -1, header);
  if (k < 1) throw InputError("input: K = 0: must be at least 1" + ln(r));
  if (k > kMaxK)
    throw InputError("input: K = " + std::to_string(k) + ": above the supported maximum " + std::to_string(kMaxK) +
                     " (A_i must fit 16 bits; run time grows as N*K)" + ln(r));
  p.k = static_cast<std::uint32_t>(k);
  p.seed = r.next("seed", -1, header);
  if (p.seed > kMaxSeed)
    throw InputError("input: seed = " + std::to_string(p.seed) + ": must be at most 2^60-1 = " +
                     std::to_string(kMaxSeed) + ln(r));
  const std::uint64_t m = r.next("M", -1, header);
  if (m < 1) throw InputError("input: M = 0: must be at least 1 (the format requires 1 <= M <= N)" + ln(r));
  if (m > p.n)
    throw InputError("input: M = " + std::to_string(m) + ": must be at most N = " + std::to_string(p.n) + ln(r));
  if (m > kMaxM)
    throw InputError("input: M = " + std::to_string(m) + ": above the supported maximum " + std::to_string(kMaxM) +
                     ln(r));
  // Never reserve from an untrusted count beyond what the text can hold (2 bytes per value).
  p.b.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(m, text.size() / 2 + 1)));
  const std::string b_expect = "M = " + std::to_string(m) + " values b_1..b_M expected";
  for (std::uint64_t i = 0; i < m; ++i) {
    const std::uint64_t v = r.next("b", static_cast<std::int64_t>(i + 1), b_expect.c_str());
    if (v >= k)
      throw InputError("input: b_" + std::to_string(i + 1) + " = " + std::to_string(v) + ": must be less than K = " +
                       std::to_string(k) + ln(r));
    p.b.push_back(static_cast<std::uint32_t>(v));
  }
  p.v.resize(p.k);
  const std::string v_expect = "K = " + std::to_string(k) + " flags V_0..V_{K-1} expected";
  for (std::uint32_t j = 0; j < p.k; ++j) {
    const std::uint64_t v = r.next("V", j, v_expect.c_str());
    if (v > 1) throw InputError("input: V_" + std::to_string(j) + " = " + std::to_string(v) + ": must be 0 or 1" + ln(r));
    p.v[j] = static_cast<std::uint8_t>(v);
  }
  r.expect_end();
  return p;
}

std::string read_all(std::istream& in) {
  std::string s;
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    s.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw InputError("input: read error");
  return s;
}

Problem parse_problem(std::istream& in) { return parse_problem_text(read_all(in)); }

std::string format_answer(const Answer& a) {
  std::string out(a.size() * 21, '\0');
  char* p = out.data();
  char* const end = out.data() + out.size();
  for (const std::uint64_t x : a) {
    p = std::to_chars(p, end, x).ptr;
    *p++ = '\n';
  }
  out.resize(static_cast<std::size_t>(p - out.data()));
  return out;
}

}  // namespace joseki::abc471g
