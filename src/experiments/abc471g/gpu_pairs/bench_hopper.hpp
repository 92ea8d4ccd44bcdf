// Issue 19's gpu-pairs measurements (`joseki abc471g scale hopper`): the generation floor, r04 split
// into its count and its combine, and the Hopper rungs (r05+) beside r04, at one problem, every
// figure validated first (answers exact against the CPU reference, the floor's sum against the CPU's
// generator) and shown as a multiple of the floor (`floor_x`).
#pragma once

#include <string>
#include <vector>

#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/problem.hpp"
#include "measure/record.hpp"

namespace joseki::abc471g::pairs {

// sum_{i < N} A_i mod 2^32 on the CPU (all cores; the generator of problem.hpp): the floor's check.
std::uint32_t cpu_element_sum32(const Problem& p);

// The generation floor at p (GPU_COMPUTE, cold): variant "pairs.floor.generate", validated against
// cpu_element_sum32; a skipped record (with the reason) without a GPU.
// lean: with r16's generator (the same values; record pairs.floor.generate_lean).
measure::Record bench_generation_floor(const Problem& p, const BenchOptions& o, bool lean = false);

// extra.floor_s and extra.floor_x (median / floor median) on every measured GPU_COMPUTE record of
// `recs` (not the floor itself), when the floor was measured.
void add_floor_ratios(std::vector<measure::Record>& recs, const measure::Record& floor);

// The floor, r04's count alone and combine alone, r04 and every rung after it (their needs and
// preconditions apply), with the graph's node counts for r05.
std::vector<measure::Record> bench_hopper(const Problem& p, const std::string& case_name, const BenchOptions& o);

}  // namespace joseki::abc471g::pairs
