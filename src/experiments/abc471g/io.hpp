// AtCoder I/O for ABC471G: the official input format, fully validated, and the K-line output.
//
//   N K seed M
//   b_1 .. b_M
//   V_0 .. V_{K-1}
// Tokens are separated by any whitespace (line breaks are not significant). Every field is a
// plain decimal integer (no sign, no exponent). Checked: 1 <= N <= kMaxN, 1 <= K <= kMaxK,
// 0 <= seed <= 2^60-1, 1 <= M <= min(N, kMaxM) (M = 0 is rejected, as in the contest),
// 0 <= b_i < K, V_j in {0, 1}, nothing after V_{K-1}. A violation throws InputError whose
// message names the field, the value and the line.
#pragma once

#include <cstddef>
#include <functional>
#include <istream>
#include <string>
#include <string_view>

#include "experiments/abc471g/problem.hpp"

namespace joseki::abc471g {

Problem parse_problem(std::istream& in);  // streamed
Problem parse_problem_text(std::string_view text);

// The input read as a stream, in chunks: memory does not grow with the input, junk is an
// InputError as soon as its first token is read, and input beyond the bound the header sets
// (1 MiB + 64 bytes per announced value) as soon as it passes it. read(buf, cap) returns the
// bytes read, 0 at the end; it may throw. Same results and messages as parse_problem_text.
using ReadFn = std::function<std::size_t(char* buf, std::size_t cap)>;
Problem parse_problem_stream(const ReadFn& read, std::size_t chunk = std::size_t{1} << 20);
Problem parse_problem_fd(int fd, const std::string& what);  // "standard input", "'in.txt'"

// Reads a whole stream (stdin, a file) into memory; throws InputError if it cannot be read.
std::string read_all(std::istream& in);

// K lines, line k+1 = answer for shift k, each ending in '\n'.
std::string format_answer(const Answer& a);

}  // namespace joseki::abc471g
