// CPU kernels on plain 64-bit words (64 lanes per word): the fallback for CPUs without AVX2 (or
// NEON). Compiled for the baseline target; see kernel_body.inc.
#include <cstddef>
#include <cstdint>

#include "experiments/abc471g/cpu/kernels.hpp"

namespace {
using namespace joseki::abc471g::cpu;
#include "experiments/abc471g/cpu/kernel_body.inc"

bool is_zero_u64(std::uint64_t a) { return a == 0; }
using OpsU64 = WordOps<std::uint64_t, is_zero_u64>;

const KernelSet kSet = kernel_set_of<OpsU64>("scalar", 2, gen_scalar_body);
}  // namespace

namespace joseki::abc471g::cpu {
const KernelSet& kernels_scalar() { return kSet; }
}  // namespace joseki::abc471g::cpu
