// CPU kernels on NEON (AArch64 Advanced SIMD: 128 lanes per vector), for arm64 hosts (Grace next
// to an H200, Graviton, Linux on Apple silicon). NEON is part of every AArch64 CPU, so this set
// needs no run-time check there; this file is compiled only for aarch64 (CMakeLists.txt), as the
// AVX files only for x86-64. Generation stays scalar (gen_scalar_body); the direct method's
// bit-sliced tree runs on 128-bit words (WordOps: and/bic/orr/eor). Not yet measured on an arm64
// host: tests run it under qemu-user in CI (correctness only).
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "experiments/abc471g/cpu/kernels.hpp"

namespace {
using namespace joseki::abc471g::cpu;
#include "experiments/abc471g/cpu/kernel_body.inc"

bool is_zero_neon(uint64x2_t a) { return vmaxvq_u32(vreinterpretq_u32_u64(a)) == 0; }
using OpsNeon = WordOps<uint64x2_t, is_zero_neon>;

const KernelSet kSet = kernel_set_of<OpsNeon>("neon", 2, gen_scalar_body);
}  // namespace

namespace joseki::abc471g::cpu {
const KernelSet& kernels_neon() { return kSet; }
}  // namespace joseki::abc471g::cpu
