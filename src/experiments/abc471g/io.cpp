#include "experiments/abc471g/io.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <charconv>
#include <cstdint>
#include <string>

#include "measure/errors.hpp"

namespace joseki::abc471g {
namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// A token as it may be shown in a message: printable ASCII kept, other bytes as \xNN, long ones
// cut. `head` holds the token's first bytes (at least 33 when it is longer than 32), `total` its
// length so far, `cut`: reading stopped inside it (a bad token in a stream is not read to its end).
std::string shown(std::string_view head, std::uint64_t total, bool cut) {
  std::string s;
  for (std::size_t i = 0; i < head.size() && i < 32; ++i) {
    const unsigned char c = static_cast<unsigned char>(head[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      s += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    }
  }
  if (cut && total > 32) s += "...(at least " + std::to_string(total) + " characters)";
  else if (cut) s += "...";
  else if (total > 32) s += "...(" + std::to_string(total) + " characters)";
  return s;
}

constexpr std::size_t kHead = 33;  // bytes of a token kept for its message

// Tokens from a text in memory, or from a stream read in chunks (memory bounded by the chunk).
// The input may hold at most `limit` bytes: 1 MiB before the header, then 1 MiB + 64 bytes per
// value the header announces (ample for any spacing): endless input is bad input, found as soon
// as it passes the bound, and junk as soon as its first token is read.
class Reader {
 public:
  explicit Reader(std::string_view text) : m_buf(text.data()), m_len(text.size()) {}
  Reader(const ReadFn& read, std::size_t chunk) : m_read(&read), m_store(std::max<std::size_t>(chunk, 1), '\0') {
    m_buf = m_store.data();
  }

  struct Token {
    std::uint64_t v = 0;
    bool bad = false, overflow = false, cut = false;
    std::string head;  // the first bytes, for messages (only when needed)
    std::uint64_t length = 0;
  };

  // The next token as an unsigned 64-bit integer. The field is named `name` (with `_index`
  // appended when index >= 0) in errors; `expect` says what was expected when the input ends.
  // Names are only built on error: this runs once per token.
  std::uint64_t next(const char* name, std::int64_t index, const char* expect) {
    skip_space();
    if (at_end()) {
      if (m_tokens == 0) throw InputError("input: empty (expected 'N K seed M', then b_1..b_M, then V_0..V_{K-1})");
      throw InputError("input ended early at line " + std::to_string(m_line) + ": missing " + field(name, index) +
                       " (" + expect + ")");
    }
    const Token t = scan();
    ++m_tokens;
    if (t.bad || t.overflow) {
      const std::string where = " (line " + std::to_string(m_line) + ")";
      const std::string f = field(name, index);
      const std::string tok = shown(t.head, t.length, t.cut);
      if (t.head[0] == '-') throw InputError("input: " + f + " = '" + tok + "' is negative" + where);
      if (t.bad) throw InputError("input: " + f + " = '" + tok + "' is not a non-negative decimal integer" + where);
      throw InputError("input: " + f + " = '" + tok + "' overflows 64 bits" + where);
    }
    return t.v;
  }

  static std::string field(const char* name, std::int64_t index) {
    return index < 0 ? std::string(name) : std::string(name) + "_" + std::to_string(index);
  }

  void expect_end() {
    skip_space();
    if (!at_end()) {
      const Token t = scan(/*stop_early=*/true);
      throw InputError("input: extra token '" + shown(t.head, t.length, t.cut) + "' after V_{K-1} (line " +
                       std::to_string(m_line) + "; the input must end after K values of V)");
    }
  }

  // After the header: the input may hold at most 1 MiB + 64 bytes per announced value more.
  void bound_by(std::uint64_t values) {
    m_limit = offset() + (std::uint64_t{1} << 20) + 64 * values;
    m_limit_why = "the " + std::to_string(values) + " values that the header announces";
  }

  int line() const { return m_line; }
  std::uint64_t offset() const { return m_consumed + m_pos; }

 private:
  bool at_end() { return m_pos >= m_len && !refill(); }

  bool refill() {
    if (!m_read) return false;
    m_consumed += m_len;
    m_pos = 0;
    m_len = 0;
    if (m_consumed > m_limit) over_limit();
    m_len = (*m_read)(m_store.data(), m_store.size());
    return m_len > 0;
  }

  [[noreturn]] void over_limit() const {
    throw InputError("input: longer than " + std::to_string(m_limit) + " bytes at line " + std::to_string(m_line) +
                     ", more than " + m_limit_why + " can take (at most 64 bytes each with their spaces)");
  }

  void skip_space() {
    for (;;) {
      while (m_pos < m_len && is_space(m_buf[m_pos])) {
        const char c = m_buf[m_pos++];
        if (c == '\r' || (c == '\n' && !m_prev_cr)) ++m_line;  // \n, \r\n and a lone \r each end a line
        m_prev_cr = c == '\r';
      }
      if (m_pos < m_len || !refill()) break;
    }
    if (offset() > m_limit) over_limit();
  }

  // The token at the current position (not at a space, not at the end). In a stream, a token
  // that is already bad is read only as far as its message shows (junk ends the input at once).
  Token scan(bool stop_early = false) {
    Token t;
    m_prev_cr = false;
    for (;;) {
      const std::size_t start = m_pos;
      std::uint64_t v = t.v;
      bool bad = t.bad, overflow = t.overflow;
      while (m_pos < m_len && !is_space(m_buf[m_pos])) {
        const unsigned d = static_cast<unsigned char>(m_buf[m_pos]) - static_cast<unsigned>('0');
        if (d > 9) {
          bad = true;
        } else if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, d, &v)) {
          overflow = true;
        }
        ++m_pos;
      }
      t.v = v;
      t.bad = bad;
      t.overflow = overflow;
      t.length += m_pos - start;
      if (t.head.size() < kHead) t.head.append(m_buf + start, std::min(m_pos - start, kHead - t.head.size()));
      if (m_pos < m_len) break;  // ended at a space
      if ((t.bad || t.overflow || stop_early) && m_read && t.head.size() >= kHead) {
        t.cut = true;  // enough of it for the message: junk is not read to its end
        break;
      }
      if (!refill()) break;
      if (offset() > m_limit) over_limit();
    }
    return t;
  }

  const ReadFn* m_read = nullptr;
  std::string m_store;
  const char* m_buf = nullptr;
  std::size_t m_len = 0;
  std::size_t m_pos = 0;
  std::uint64_t m_consumed = 0;  // bytes before m_buf[0]
  std::uint64_t m_tokens = 0;
  std::uint64_t m_limit = std::uint64_t{1} << 20;
  std::string m_limit_why = "a header 'N K seed M'";
  int m_line = 1;
  bool m_prev_cr = false;
};

std::string ln(const Reader& r) { return " (line " + std::to_string(r.line()) + ")"; }

Problem parse(Reader& r) {
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
  r.bound_by(m + k);
  // Never reserve from an untrusted count: the vector grows with the values actually read.
  p.b.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(m, std::uint64_t{1} << 16)));
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

}  // namespace

Problem parse_problem_text(std::string_view text) {
  Reader r(text);
  return parse(r);
}

Problem parse_problem_stream(const ReadFn& read, std::size_t chunk) {
  Reader r(read, chunk);
  return parse(r);
}

Problem parse_problem_fd(int fd, const std::string& what) {
  const ReadFn read = [fd, &what](char* buf, std::size_t cap) -> std::size_t {
    for (;;) {
      const ssize_t n = ::read(fd, buf, cap);
      if (n >= 0) return static_cast<std::size_t>(n);
      if (errno != EINTR) throw InputError("cannot read " + what + ": " + std::strerror(errno));
    }
  };
  return parse_problem_stream(read);
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

Problem parse_problem(std::istream& in) {
  const ReadFn read = [&in](char* buf, std::size_t cap) -> std::size_t {
    in.read(buf, static_cast<std::streamsize>(cap));
    if (in.bad()) throw InputError("input: read error");
    return static_cast<std::size_t>(in.gcount());
  };
  return parse_problem_stream(read);
}

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
