// `joseki try --ladder reduce`: the file's settings as a rung of the reduction ladder (pure C++).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/reduce/registry.hpp"
#include "experiments/try/spec.hpp"

namespace joseki::trykernel {

inline constexpr const char* REDUCE_ENTRY = "joseki_reduce";

struct ReduceSpec {
  reduce::Rung rung;               // slug try_<name>, grid policy, knobs, sweep space, output contract
  bool zero_before = false;        // output=atomic: joseki zeroes out[0] before each launch (timed, like r05's memset)
  std::size_t workspace_bytes = 0; // zeroed once before the first launch
  bool block_macro = false, unroll_macro = false;  // the source uses BLOCK / UNROLL: passed as -D
  std::string output_name, grid_name;
};

// Throws InputError naming FILE:LINE for a bad value. launch and workspace stay null (the runner sets them).
ReduceSpec reduce_spec(const TryFile& f);
// -DBLOCK=.. -DUNROLL=.. for the macros the source uses.
std::vector<std::string> reduce_defines(const ReduceSpec& s, int block, int unroll);

// The validation sizes (1, 3, 31, 255, 4097, 2^20+3 and n when n > 0), ascending.
std::vector<std::size_t> reduce_validation_sizes(std::size_t n);
// The sizes checked under --sanitize (compute-sanitizer; racecheck is ~100x slower than a plain
// run): 1, 5, 4099, 65537 -- tiny, odd (not a multiple of 4 nor of a block), one past a block
// multiple and past a power of two -- each at offset 0 in a buffer of exactly n words, so that a
// read past in[n - 1] lies outside the allocation and memcheck names it.
std::vector<std::size_t> reduce_sanitize_sizes();
// "out[0] = ..., expected ...: the difference is in[28..30], the last 3 elements: the tail is not read"
// -- which elements a wrong sum missed or added, when it is a few at either end. `in` holds n
// words and room_after more after them (the harness's buffer).
std::string explain_reduce_mismatch(const std::uint32_t* in, std::size_t n, std::size_t room_after, std::uint32_t got,
                                    std::uint32_t expected);

}  // namespace joseki::trykernel
