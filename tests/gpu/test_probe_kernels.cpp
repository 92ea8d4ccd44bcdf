// Every probe kernel computes what its CPU mirror says, on small inputs whose sizes are not
// multiples of the block or warp (outputs poisoned first). Skipped without a GPU.
#include "gpu_test.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include <cstring>
#include <stdexcept>

#include "backend/cuda/buffer.hpp"
#include "experiments/probes/analysis.hpp"
#include "experiments/probes/atomics_kernels.hpp"
#include "experiments/probes/banks_kernels.hpp"
#include "experiments/probes/barriers_kernels.hpp"
#include "experiments/probes/caches_kernels.hpp"
#include "experiments/probes/coalescing_kernels.hpp"
#include "experiments/probes/diagnose_kernels.hpp"
#include "experiments/probes/common_kernels.hpp"
#include "experiments/probes/device_common.hpp"
#include "experiments/probes/divergence_kernels.hpp"
#include "experiments/probes/exec_kernels.hpp"
#include "experiments/probes/mirrors.hpp"
#include "experiments/probes/occupancy_kernels.hpp"
#include "experiments/probes/probe.hpp"

using namespace joseki;
using namespace joseki::probes;
using u32 = std::uint32_t;

namespace {
constexpr u32 SEED = 1234;

template <class T>
std::vector<T> host(const cuda::DeviceBuffer<T>& d, std::size_t n) {
  std::vector<T> h(n);
  d.copy_to_host(h.data(), n);
  JOSEKI_CUDA_CHECK(cudaDeviceSynchronize());
  return h;
}

cuda::DeviceBuffer<u32> random_words(std::size_t n) {
  cuda::DeviceBuffer<u32> d(n);
  launch_fill_mix32(d.data(), n, SEED, nullptr);
  return d;
}
}  // namespace

TEST(ProbeKernels, FillMatchesTheHostHash) {
  JOSEKI_REQUIRE_GPU();
  const auto d = random_words(1001);
  const auto h = host(d, 1001);
  for (std::size_t i = 0; i < h.size(); ++i) ASSERT_EQ(h[i], mix32(i, SEED)) << i;
}

TEST(ProbeKernels, WarpTreeSumsEachWarp) {
  JOSEKI_REQUIRE_GPU();
  const std::size_t n = 1000;
  const auto in = random_words(n);
  cuda::DeviceBuffer<u32> sums(32);
  cuda::DeviceBuffer<int> info(2);
  sums.poison();
  launch_warp_tree(in.data(), n, sums.data(), info.data(), nullptr);
  const auto h = host(sums, 32);
  const auto hi = host(info, 2);
  EXPECT_EQ(hi[1], 32);
  EXPECT_EQ(hi[0], 5);
  for (std::size_t w = 0; w < 32; ++w) {
    u32 want = 0;
    for (std::size_t i = w * 32; i < std::min(n, w * 32 + 32); ++i) want += mix32(i, SEED);
    EXPECT_EQ(h[w], want) << "warp " << w;
  }
}

TEST(ProbeKernels, DivergenceModesMatchTheMirrorBitForBit) {
  JOSEKI_REQUIRE_GPU();
  const std::size_t n = 777;
  cuda::DeviceBuffer<float> in(n), out(n);
  launch_fill_unit(in.data(), n, SEED, nullptr);
  for (int mode = 0; mode < DIV_MODES; ++mode) {
    out.poison();
    launch_divergence(mode, in.data(), out.data(), n, 40, 20, nullptr);
    const auto h = host(out, n);
    for (std::size_t i = 0; i < n; ++i) {
      const float want = mirror::divergence(mode, mix_unit(i, SEED), static_cast<unsigned>(i % DIV_BLOCK),
                                            static_cast<unsigned>(i / DIV_BLOCK), 40, 20);
      u32 a, b;
      std::memcpy(&a, &h[i], 4);
      std::memcpy(&b, &want, 4);
      ASSERT_EQ(a, b) << div_mode_name(mode) << " element " << i;
    }
  }
}

TEST(ProbeKernels, StridedAndAosSums) {
  JOSEKI_REQUIRE_GPU();
  const std::size_t n = 1001;
  const auto d = random_words(n * 32 + 64);
  cuda::DeviceBuffer<u32> part(3);
  for (std::size_t stride : {1, 2, 3, 32})
    for (std::size_t off : {0, 5}) {
      part.poison();
      launch_strided_sum(d.data(), n, stride, off, part.data(), 3, nullptr);
      EXPECT_EQ(host(part, 3), mirror::strided_partials(n, stride, off, SEED, 3, COAL_BLOCK))
          << "stride " << stride << " offset " << off;
    }
  part.poison();
  launch_aos_x_sum(d.data(), n, part.data(), 3, nullptr);
  EXPECT_EQ(host(part, 3), mirror::strided_partials(n, 3, 0, SEED, 3, COAL_BLOCK));
}

TEST(ProbeKernels, BankStrideAndTileReads) {
  JOSEKI_REQUIRE_GPU();
  const int blocks = 2, threads = 64, reps = 3;
  const auto in = random_words(static_cast<std::size_t>(blocks) * BANK_WORDS);
  cuda::DeviceBuffer<u32> out(static_cast<std::size_t>(blocks) * threads);
  cuda::DeviceBuffer<long long> cyc(blocks);
  for (int stride : {1, 7, 32}) {
    out.poison();
    launch_bank_stride(in.data(), out.data(), cyc.data(), stride, reps, blocks, threads, BANK_WORDS * 4, nullptr);
    const auto h = host(out, out.size());
    for (std::size_t t = 0; t < h.size(); ++t)
      ASSERT_EQ(h[t], mirror::bank_stride_sum(SEED, t / threads, static_cast<int>(t % 32), stride, reps, BANK_WORDS))
          << "stride " << stride << " thread " << t;
    EXPECT_GT(host(cyc, blocks)[0], 0);
  }
  for (auto [pitch, column] : {std::pair{32, true}, std::pair{33, true}, std::pair{32, false}}) {
    out.poison();
    launch_tile_reads(pitch, column, in.data(), out.data(), cyc.data(), reps, blocks, threads, 0, nullptr);
    const auto h = host(out, out.size());
    for (std::size_t t = 0; t < h.size(); ++t)
      ASSERT_EQ(h[t], mirror::tile_sum(SEED, t / threads, static_cast<int>(t % 32), column, reps))
          << "pitch " << pitch << " thread " << t;
  }
}

TEST(ProbeKernels, PointerChaseEndsWhereTheOrderSays) {
  JOSEKI_REQUIRE_GPU();
  const std::uint32_t nodes = 1000, spacing = 32;
  const auto order = chase_order(nodes, 5);
  cuda::DeviceBuffer<u32> next(static_cast<std::size_t>(nodes) * spacing), ord(nodes), end(1), sink(1);
  cuda::DeviceBuffer<long long> cyc(1);
  ord.copy_from_host(order.data(), nodes);
  launch_chase_build(next.data(), ord.data(), nodes, spacing, nullptr);
  launch_chase_touch(next.data(), nodes, spacing, sink.data(), nullptr);
  end.poison();
  launch_chase(next.data(), order[0] * spacing, 123, 2000, cyc.data(), end.data(), nullptr);
  EXPECT_EQ(host(end, 1)[0], order[(123 + 2000) % nodes] * spacing);
  EXPECT_GT(host(cyc, 1)[0], 2000);  // at least a cycle per dependent load
}

// The pure chases (issue 17): 8-byte slots holding global addresses, and the shared-memory ring
// of shared addresses; both start mid-ring and must end at the node the order names, with a
// node count that is not a multiple of the unroll (8) and steps that are not either.
TEST(ProbeKernels, PurePointerChaseEndsWhereTheOrderSays) {
  JOSEKI_REQUIRE_GPU();
  const std::uint32_t nodes = 1001, spacing = 16;
  const auto order = chase_order(nodes, 7);
  cuda::DeviceBuffer<unsigned long long> slots(static_cast<std::size_t>(nodes) * spacing), end(1);
  cuda::DeviceBuffer<u32> ord(nodes);
  cuda::DeviceBuffer<long long> cyc(1);
  ord.copy_from_host(order.data(), nodes);
  slots.poison();
  launch_ptr_chase_build(slots.data(), ord.data(), nodes, spacing, nullptr);
  end.poison();
  const std::size_t start = 17;
  launch_ptr_chase(slots.data(), std::uint64_t{order[start]} * spacing, 123, 2005, cyc.data(), end.data(), nullptr);
  EXPECT_EQ(host(end, 1)[0], static_cast<unsigned long long>(order[(start + 123 + 2005) % nodes]) * spacing);
  EXPECT_GT(host(cyc, 1)[0], 2005);
}

TEST(ProbeKernels, SharedChaseEndsWhereTheOrderSays) {
  JOSEKI_REQUIRE_GPU();
  const std::uint32_t nodes = 999, spacing = 8;
  const auto order = chase_order(nodes, 9);
  cuda::DeviceBuffer<u32> next(static_cast<std::size_t>(nodes) * spacing), ord(nodes), end(1);
  cuda::DeviceBuffer<long long> cyc(1);
  ord.copy_from_host(order.data(), nodes);
  next.poison();
  launch_chase_build(next.data(), ord.data(), nodes, spacing, nullptr);
  end.poison();
  const std::size_t start = 500;
  launch_shared_chase(next.data(), nodes * spacing, order[start] * spacing, 77, 3001, cyc.data(), end.data(), nullptr);
  EXPECT_EQ(host(end, 1)[0], order[(start + 77 + 3001) % nodes] * spacing);
  EXPECT_GT(host(cyc, 1)[0], 3001);
}

TEST(ProbeKernels, WorkingSetReadPartials) {
  JOSEKI_REQUIRE_GPU();
  const std::size_t n16 = 1001, per_block = 3000;
  const auto d = random_words(n16 * 4);
  cuda::DeviceBuffer<u32> part(3);
  part.poison();
  launch_ws_read(reinterpret_cast<const uint4*>(d.data()), n16, per_block, part.data(), 3, 128, nullptr);
  const auto h = host(part, 3);
  for (int b = 0; b < 3; ++b) EXPECT_EQ(h[b], mirror::ws_read_partial(n16, per_block, 3, b, SEED)) << b;
}

TEST(ProbeKernels, AtomicsEveryModeAddsEveryElement) {
  JOSEKI_REQUIRE_GPU();
  const std::size_t n = 1003;
  const auto in = random_words(n);
  cuda::DeviceBuffer<u32> slot(n), out(n);
  JOSEKI_CUDA_CHECK(cudaMemset(slot.data(), 0, slot.bytes()));
  const u32 total = mirror::total(n, SEED);
  for (int mode = 0; mode < ATOM_MODES; ++mode) {
    out.poison();
    launch_atomics(mode, in.data(), slot.data(), n, out.data(), nullptr);
    const auto h = host(out, n);
    if (mode == 2) {
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], POISON_U32 + mix32(i, SEED)) << i;
    } else {
      EXPECT_EQ(h[0], POISON_U32 + total) << atomic_mode_name(mode);
    }
  }
}

TEST(ProbeKernels, FencesAndBarriersComputeTheirLoops) {
  JOSEKI_REQUIRE_GPU();
  cuda::DeviceBuffer<u32> buf(2 * 96);
  cuda::DeviceBuffer<long long> cyc(2);
  for (int kind = 0; kind < 4; ++kind) {
    buf.poison();
    launch_fences(kind, buf.data(), 10, cyc.data(), 2, 96, nullptr);
    for (u32 v : host(buf, buf.size())) ASSERT_EQ(v, 10u) << "fence kind " << kind;
  }
  for (bool with : {false, true}) {
    buf.poison();
    launch_barrier_loop(with, buf.data(), 17, cyc.data(), 2, 96, 0, nullptr);
    const auto h = host(buf, buf.size());
    for (std::size_t t = 0; t < h.size(); ++t) ASSERT_EQ(h[t], mirror::lcg_iterate(static_cast<u32>(t % 96), 17)) << t;
  }
}

namespace {
// The occupancy kernels' inputs and outputs: random words for the memory kernels (their partial
// sums must add up to `total`), unit floats for the FMA chains (one output per thread).
struct OccRig {
  static constexpr std::size_t N16 = 1001, N_IN = 37;
  cuda::DeviceBuffer<u32> d = random_words(N16 * 4), part, sink{1};
  cuda::DeviceBuffer<float> fin{N_IN}, fout;
  OccArgs a;
  u32 total = mirror::total(N16 * 4, SEED);

  OccRig(std::size_t max_blocks, u32 k) : part(max_blocks), fout(max_blocks * 128) {
    launch_fill_unit(fin.data(), N_IN, SEED, nullptr);
    a.d16 = reinterpret_cast<const uint4*>(d.data());
    a.n16 = N16;
    a.d_partials = part.data();
    a.d_sink = sink.data();
    a.d_fin = fin.data();
    a.n_in = N_IN;
    a.d_fout = fout.data();
    a.k = k;
  }

  // Launches kernel `k` on `blocks` blocks of 128 threads with `smem` dynamic bytes into poisoned
  // outputs and checks every output against the host.
  void expect_computes(int k, int blocks, std::size_t smem) {
    const auto nb = static_cast<std::size_t>(blocks);
    if (occ_is_memory(k)) {
      part.poison();
      launch_occ(k, a, blocks, 128, smem, nullptr);
      const auto h = host(part, nb);
      u32 sum = 0;
      for (u32 x : h) sum += x;
      EXPECT_EQ(sum, total) << occ_kernel_name(k);
    } else {
      fout.poison();
      launch_occ(k, a, blocks, 128, smem, nullptr);
      const auto h = host(fout, nb * 128);
      for (std::size_t t = 0; t < h.size(); ++t) {
        const float x = mix_unit(t % N_IN, SEED);
        const float want = occ_ilp(k) == 1   ? fma_chains<1>(x, a.k)
                           : occ_ilp(k) == 2 ? fma_chains<2>(x, a.k)
                                             : fma_chains<4>(x, a.k);
        ASSERT_EQ(h[t], want) << occ_kernel_name(k) << " thread " << t;
      }
    }
  }
};
}  // namespace

TEST(ProbeKernels, OccupancyKernelsAndQueries) {
  JOSEKI_REQUIRE_GPU();
  OccRig rig(8, 9);
  for (int k = 0; k < OCC_KERNELS; ++k) {
    const OccInfo q = occ_query(k, 128, 4096);
    EXPECT_GT(q.blocks_per_sm, 0) << occ_kernel_name(k);
    EXPECT_GT(q.regs, 0) << occ_kernel_name(k);
    rig.expect_computes(k, 4, 4096);
  }
  // Registers limit occupancy: the padded variants hold more registers per thread.
  EXPECT_GT(occ_query(OCC_MEM_PAD160, 128, 0).regs, occ_query(OCC_MEM_ILP1, 128, 0).regs + 100);
  EXPECT_EQ(occ_query(OCC_MEM_PAD64, 256, 0).blocks_per_sm, 0);  // launch bounds: 128 threads at most
}

// What the first H200 run lacked: the occupancy sweep's largest shared-memory points. For
// every kernel of the shared-memory sweep, the sizes smem_for_blocks gives are accepted and
// give exactly the blocks per SM they are meant for; one block per SM launches and computes.
TEST(ProbeKernels, OccupancySharedMemorySweepFitsTheLimits) {
  JOSEKI_REQUIRE_GPU();
  OccRig rig(256, 5);
  for (int k : {OCC_MEM_ILP1, OCC_MEM_ILP4, OCC_FMA_ILP1, OCC_FMA_ILP2, OCC_FMA_ILP4}) {
    const OccInfo q0 = occ_query(k, 128, 0);
    ASSERT_GT(q0.optin_smem, 0u);
    ASSERT_GT(q0.smem_per_sm, 0u);
    const SmemLimits lim{static_cast<std::int64_t>(q0.smem_per_sm), static_cast<std::int64_t>(q0.optin_smem),
                         static_cast<std::int64_t>(q0.reserved_smem), static_cast<std::int64_t>(q0.static_smem), 128};
    for (int b : {1, 2, 3, 6, 16}) {
      const std::size_t smem = static_cast<std::size_t>(smem_for_blocks(lim, b));
      const OccInfo q = occ_query(k, 128, smem);
      EXPECT_EQ(q.blocks_per_sm, b) << occ_kernel_name(k) << " " << smem << " B";
    }
    // Above the limit: 0 blocks from the query, a clear error from the launcher, no CUDA error.
    EXPECT_EQ(occ_query(k, 128, q0.max_dynamic_smem() + 128).blocks_per_sm, 0) << occ_kernel_name(k);
    EXPECT_THROW(launch_occ(k, rig.a, 2, 128, q0.max_dynamic_smem() + 128, nullptr), std::invalid_argument);
    // One block per SM (the most dynamic memory) launches and computes.
    rig.expect_computes(k, 3, static_cast<std::size_t>(smem_for_blocks(lim, 1)));
  }
  JOSEKI_CUDA_CHECK(cudaGetLastError());
}

TEST(ProbeKernels, DiagnoseOccupancyPairIsOneBlockPerSmVersusFull) {
  JOSEKI_REQUIRE_GPU();
  const DiagOcc lim = diag_occupancy(DIAG_OCC_BAD, 128, 0);
  ASSERT_GT(lim.max_dynamic_smem, 0u);
  EXPECT_EQ(diag_occupancy(DIAG_OCC_BAD, 128, lim.max_dynamic_smem).blocks_per_sm, 1);
  EXPECT_EQ(diag_occupancy(DIAG_OCC_BAD, 128, lim.max_dynamic_smem + 1).blocks_per_sm, 0);
  EXPECT_GE(diag_occupancy(DIAG_OCC_FIX, 128, 0).blocks_per_sm, 8);
}

TEST(ProbeKernels, DiagnoseKernelsAllValidate) {
  JOSEKI_REQUIRE_GPU();
  EXPECT_NO_THROW(run_diagnose_kernels(0));
}
#else
TEST(ProbeKernels, NeedCuda) { GTEST_SKIP() << "no GPU: built without CUDA"; }
#endif
