// ABC471G input and output: the official format parses; every malformed or hostile input is an
// InputError whose message names the field and the value (table-driven).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "experiments/abc471g/io.hpp"
#include "measure/errors.hpp"

using namespace joseki::abc471g;

namespace {
std::string v_list(int k, const char* v = "0") {
  std::string s;
  for (int i = 0; i < k; ++i) s += std::string(i ? " " : "") + v;
  return s;
}

}  // namespace

TEST(Abc471gIo, ParsesTheOfficialFormatWithAnyWhitespace) {
  for (const std::string text : {"5 3 0 5\n0 1 2 0 1\n1 0 0\n", "5 3 0 5 0 1 2 0 1 1 0 0", "5\t3\r\n0\r\n5\n0 1 2 0 1\n1 0 0",
                                 "  \n5 3 0 5\n0 1 2 0 1\n1 0 0\n\n\n"}) {
    const Problem p = parse_problem_text(text);
    EXPECT_EQ(p.n, 5u);
    EXPECT_EQ(p.k, 3u);
    EXPECT_EQ(p.seed, 0u);
    EXPECT_EQ(p.b, (std::vector<std::uint32_t>{0, 1, 2, 0, 1}));
    EXPECT_EQ(p.v, (std::vector<std::uint8_t>{1, 0, 0}));
  }
  std::istringstream in("10000000000 2 1152921504606846975 1\n1\n0 1\n");
  const Problem big = parse_problem(in);
  EXPECT_EQ(big.n, 10'000'000'000ULL);  // far beyond the contest: accepted, A is streamed
  EXPECT_EQ(big.seed, kMaxSeed);
  EXPECT_EQ(parse_problem_text("1000000000000000 65536 1152921504606846975 1 65535 " + v_list(65536, "1")).k, 65536u)
      << "the stated maxima are accepted";
}

TEST(Abc471gIo, LeadingZerosAreNumbers) {
  const Problem p = parse_problem_text("0005 003 000 01\n002\n1 0 1\n");
  EXPECT_EQ(p.n, 5u);
  EXPECT_EQ(p.b[0], 2u);
}

struct Bad {
  const char* name;
  std::string input;
  std::vector<std::string> needles;  // all must appear in the message
};

const std::vector<Bad>& bad_inputs() {
  static const std::vector<Bad> t = {
      {"empty", "", {"empty"}},
      {"only whitespace", " \n\t\r\n", {"empty"}},
      {"missing K", "5", {"missing K", "line 1"}},
      {"missing M", "5 3 0", {"missing M"}},
      {"missing b", "5 3 0 5\n0 1 2\n", {"missing b_4", "M = 5"}},
      {"missing V", "5 3 0 5\n0 1 2 0 1\n1 0\n", {"missing V_2", "K = 3"}},
      {"extra token", "5 3 0 5\n0 1 2 0 1\n1 0 0\n7\n", {"extra token '7'", "line 4"}},
      {"trailing garbage", "5 3 0 5\n0 1 2 0 1\n1 0 0 xyz", {"extra token 'xyz'"}},
      {"non-number N", "abc 3 0 1\n0\n1 0 0\n", {"N = 'abc'", "not a non-negative decimal integer"}},
      {"non-number in b", "5 3 0 2\n0 1x\n1 0 0\n", {"b_2 = '1x'"}},
      {"float", "5.0 3 0 1\n0\n1 0 0\n", {"N = '5.0'"}},
      {"exponent", "1e6 3 0 1\n0\n1 0 0\n", {"N = '1e6'"}},
      {"plus sign", "+5 3 0 1\n0\n1 0 0\n", {"N = '+5'"}},
      {"negative N", "-5 3 0 1\n0\n1 0 0\n", {"N = '-5'", "negative"}},
      {"negative b", "5 3 0 1\n-1\n1 0 0\n", {"b_1 = '-1'", "negative"}},
      {"negative V", "5 3 0 1\n0\n1 -1 0\n", {"V_1 = '-1'", "negative"}},
      {"N overflows 64 bits", "99999999999999999999999 3 0 1\n0\n1 0 0\n", {"N = '99999999999999999999999'", "overflows 64 bits"}},
      {"seed overflows 64 bits", "5 3 18446744073709551616 1\n0\n1 0 0\n", {"seed", "overflows 64 bits"}},
      {"N = 0", "0 3 0 1\n0\n1 0 0\n", {"N = 0"}},
      {"N above maximum", "1000000000000001 3 0 1\n0\n1 0 0\n", {"N = 1000000000000001", "maximum"}},
      {"K = 0", "5 0 0 1\n0\n", {"K = 0"}},
      {"K above maximum", "5 65537 0 1\n0\n", {"K = 65537", "maximum 65536"}},
      {"K at 2^64-1", "5 18446744073709551615 0 1\n0\n", {"K = 18446744073709551615"}},
      {"seed = 2^60", "5 3 1152921504606846976 1\n0\n1 0 0\n", {"seed = 1152921504606846976", "2^60-1"}},
      {"M = 0", "5 3 0 0\n1 0 0\n", {"M = 0"}},
      {"M > N", "2 3 0 3\n0 1 2\n1 0 0\n", {"M = 3", "N = 2"}},
      {"M huge, few tokens", "100000000 3 0 100000000\n0 1\n", {"missing b_3"}},
      {"M above maximum", "1000000000 3 0 100000001\n0\n", {"M = 100000001", "maximum"}},
      {"b = K", "5 3 0 2\n0 3\n1 0 0\n", {"b_2 = 3", "less than K = 3"}},
      {"b huge", "5 3 0 1\n4294967296\n1 0 0\n", {"b_1 = 4294967296"}},
      {"V = 2", "5 3 0 1\n0\n1 2 0\n", {"V_1 = 2", "0 or 1"}},
      {"V huge", "5 3 0 1\n0\n1 0 99999999999\n", {"V_2 = 99999999999"}},
      {"binary garbage", std::string("5 3 0 1\n0\n1 0 ") + '\x01' + '\x02', {"V_2", "\\x01\\x02"}},
      {"NUL byte", std::string("5 3 0 1\n0\n1 0") + '\0' + " 0", {"V_1", "0\\x00"}},
      {"long token is cut", "5 3 0 1\n0\n1 0 " + std::string(200, 'z'), {"V_2", "(200 characters)"}},
  };
  return t;
}

TEST(Abc471gIo, MalformedInputsAreInputErrorsNamingFieldAndValue) {
  for (const Bad& b : bad_inputs()) {
    try {
      parse_problem_text(b.input);
      ADD_FAILURE() << b.name << ": accepted";
    } catch (const joseki::InputError& e) {
      const std::string m = e.what();
      for (const auto& n : b.needles) EXPECT_NE(m.find(n), std::string::npos) << b.name << ": '" << m << "' lacks '" << n << "'";
    } catch (const std::exception& e) {
      ADD_FAILURE() << b.name << ": wrong exception type: " << e.what();
    }
  }
}

TEST(Abc471gIo, FormatAnswerWritesOneLinePerShift) {
  EXPECT_EQ(format_answer({}), "");
  EXPECT_EQ(format_answer({0, 1, 18446744073709551615ULL, 42}), "0\n1\n18446744073709551615\n42\n");
}

// ---- the input as a stream (issue 21, item 10) ----
namespace {

// A source that serves `text` in pieces of `piece` bytes, then (if set) `forever` endlessly; counts
// what it served.
struct Source {
  explicit Source(std::string t, std::string f = "", std::size_t p = 1 << 20)
      : text(std::move(t)), forever(std::move(f)), piece(p) {}
  std::string text;
  std::string forever;
  std::size_t piece;
  std::size_t pos = 0;
  std::uint64_t served = 0;
  ReadFn fn() {
    return [this](char* buf, std::size_t cap) -> std::size_t {
      std::size_t n = 0;
      while (n < cap && n < piece) {
        if (pos < text.size()) {
          buf[n++] = text[pos++];
        } else if (!forever.empty()) {
          buf[n++] = forever[(pos++ - text.size()) % forever.size()];
        } else {
          break;
        }
      }
      served += n;
      return n;
    };
  }
};

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const joseki::InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST(Abc471gIoStream, SameResultsAndMessagesAsTheTextParserAtEveryChunkSize) {
  for (const std::size_t chunk : {1, 2, 3, 7, 64, 1 << 20}) {
    for (const Bad& b : bad_inputs()) {
      Source src{b.input};
      const ReadFn read = src.fn();
      const std::string streamed = message_of([&] { parse_problem_stream(read, chunk); });
      const std::string text = message_of([&] { parse_problem_text(b.input); });
      if (std::string(b.name) == "long token is cut") {
        // A bad token in a stream is read only as far as its message shows.
        EXPECT_NE(streamed.find("V_2 = 'zzzz"), std::string::npos) << streamed;
        EXPECT_NE(streamed.find("(at least"), std::string::npos) << streamed;
        continue;
      }
      EXPECT_EQ(streamed, text) << b.name << " at chunk " << chunk;
    }
    Source ok{"5\t3\r\n0\r\n5\n0 1 2 0 1\n1 0 0\n"};
    const Problem p = parse_problem_stream(ok.fn(), chunk);
    EXPECT_EQ(p.b, (std::vector<std::uint32_t>{0, 1, 2, 0, 1}));
    EXPECT_EQ(p.v, (std::vector<std::uint8_t>{1, 0, 0}));
  }
}

TEST(Abc471gIoStream, JunkAfterAValidHeaderStopsAtOnce) {
  for (const std::string& junk : {std::string("x"), std::string(1, '\0'), std::string("0\n")}) {
    Source src{"5 3 0 1\n", junk, 4096};
    const std::string m = message_of([&] { parse_problem_stream(src.fn(), 4096); });
    EXPECT_NE(m.find("input:"), std::string::npos) << m;
    EXPECT_LE(src.served, 3u * 4096) << "read " << src.served << " bytes of endless junk before saying so: " << m;
  }
  // `yes 0`: a valid input followed by endless zeros is an extra token, found at once.
  Source yes{"5 3 0 1\n0\n1 0 0\n", "0\n", 4096};
  const std::string m = message_of([&] { parse_problem_stream(yes.fn(), 4096); });
  EXPECT_NE(m.find("extra token '0'"), std::string::npos) << m;
  EXPECT_LE(yes.served, 2u * 4096);
}

TEST(Abc471gIoStream, EndlessWhitespaceIsBoundedByTheHeader) {
  Source src{"5 3 0 1\n0\n1", " ", 1 << 16};
  const std::string m = message_of([&] { parse_problem_stream(src.fn(), 1 << 16); });
  EXPECT_NE(m.find("longer than"), std::string::npos) << m;
  EXPECT_NE(m.find("4 values"), std::string::npos) << m;  // M + K = 1 + 3
  EXPECT_LE(src.served, (3u << 20)) << "the bound is 1 MiB + 64 bytes per announced value";
  Source before{"", "\n", 1 << 16};
  EXPECT_NE(message_of([&] { parse_problem_stream(before.fn(), 1 << 16); }).find("longer than"), std::string::npos);
}

TEST(Abc471gIo, LineNumbersCountCrOnlyAndCrLfLineEndings) {
  for (const char* eol : {"\n", "\r", "\r\n"}) {
    const std::string e = eol;
    const std::string text = "5 3 0 1" + e + "0" + e + "1 0 7" + e;
    const std::string m = message_of([&] { parse_problem_text(text); });
    EXPECT_NE(m.find("line 3"), std::string::npos) << "eol " << (e == "\r" ? "CR" : e == "\n" ? "LF" : "CRLF") << ": " << m;
  }
}
