// `joseki abc471g scale wgmma` (issue 19, r09): the wgmma combine (sm90a/r09_wgmma_combine.cu) on its
// own, on the byte planes of a pair table, both operand variants, validated exactly against the CPU's
// NTT combine before it is timed. Compare with "r04's combine alone" of `abc471g scale hopper`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/abc471g/gpu_pairs/bench.hpp"
#include "experiments/abc471g/problem.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_combine.hpp"
#include "measure/needs.hpp"
#include "measure/record.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include <cuda_runtime.h>

#include "backend/cuda/buffer.hpp"
#endif

namespace joseki::abc471g::pairs {

// wgmma_combine_needs(kp), wgmma_combine_unavailable(kp, device): r09_wgmma_combine.hpp.

// The planes of `table` (kp x kp counts) as r04 lays them out: plane 0 = C & 127, plane j >= 1 =
// (C >> (7 + 8 (j-1))) & 255; planes_for(max, 7) of them (at least one), plane-major.
std::vector<std::uint8_t> gemm_planes(const std::vector<std::uint64_t>& table, std::uint32_t kp, int* planes);

// "rs.wg2.bk64" (r09), "rs.wg2.bk64.if1" (r10: one wgmma group in flight), "rs.wg4.bk64.if1.pad" (r11: the
// fragment copies 32 bytes apart in banks), "rs.wg4.bk64.if1.pad.st6" (r12: 6 stage slots), "...st6.tma" (r13:
// TMA copies and mbarriers): a shape's name in the records' variants.
std::string wgmma_shape_name(const std::string& operand, int warpgroups, int stage_bytes, int inflight = 0,
                             int pad_copies = 0, int stages = 4, int tma = 0);
std::string wgmma_shape_name(const WgmmaShape& shape);

#ifdef JOSEKI_HAVE_CUDA
// A table's planes, V and the answer on the device, ready for r09's combine of problem p (K, V, A_0).
class WgmmaCombineFixture {
 public:
  WgmmaCombineFixture(const std::vector<std::uint64_t>& table, std::uint32_t kp, const Problem& p);
  // answer = the first terms V[(A_0 + k) mod K] (r04's prep kernel, no circulant), then the combine.
  void enqueue(const WgmmaShape& shape, cudaStream_t s);
  // Poisons the answer, enqueues, returns the answer (synchronizes s).
  Answer run(const WgmmaShape& shape, cudaStream_t s);
  // The combine alone (the answer keeps accumulating: for timing only).
  void enqueue_combine_only(const WgmmaShape& shape, cudaStream_t s);
  // Diagnostic: run with the descriptors' LBO and SBO exchanged (WgmmaCombineArgs::desc_swap).
  void set_desc_swap(bool on) { m_desc_swap = on; }
  // Diagnostic: WgmmaCombineArgs::debug for the next runs (0: the kernel).
  void set_debug(int bits) { m_debug = bits; }
  int planes() const { return m_planes; }
  std::uint64_t max_count() const { return m_max; }

 private:
  std::uint32_t m_k, m_kp, m_a0;
  int m_planes = 1;
  std::uint64_t m_max = 0;
  bool m_desc_swap = false;
  int m_debug = 0;
  cuda::DeviceBuffer<std::uint8_t> m_d_planes, m_d_v;
  cuda::DeviceBuffer<std::uint64_t> m_d_max, m_d_answer;
};
#endif

// Records: for the problem's own pair table (and a random table of the same K whose counts need three
// planes), each operand variant: validation against combine_ntt_host, then GPU_COMPUTE (cold) of the
// combine with its first terms (what "r04's combine alone" covers) and of the kernel alone.
// `shapes`: the shapes to run by name ("rs.wg2.bk64", ...; empty: every one); an unknown name is an InputError.
std::vector<measure::Record> bench_wgmma_combine(const Problem& p, const std::string& case_name, const BenchOptions& o,
                                                 const std::vector<std::string>& shapes = {});

}  // namespace joseki::abc471g::pairs
