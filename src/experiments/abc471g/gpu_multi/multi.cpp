// Several GPUs of one host (multi.hpp): split, count per GPU, NCCL all-reduce, combine on GPU 0.
#include "experiments/abc471g/gpu_multi/multi.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_multi/nccl.hpp"
#include "experiments/abc471g/gpu_pairs/startup.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_multi/multi_cuda.hpp"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#endif

namespace joseki::abc471g::multi {

std::vector<std::pair<std::uint64_t, std::uint64_t>> split_pairs(std::uint64_t pairs, int ranks) {
  if (ranks < 1) throw InputError("--ranks " + std::to_string(ranks) + ": must be at least 1");
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  const std::uint64_t r = static_cast<std::uint64_t>(ranks), q = pairs / r, rem = pairs % r;
  std::uint64_t b = 0;
  for (std::uint64_t i = 0; i < r; ++i) {
    const std::uint64_t len = q + (i < rem ? 1 : 0);
    out.emplace_back(b, b + len);
    b += len;
  }
  return out;
}

#ifdef JOSEKI_HAVE_CUDA

namespace {
void set_device(int d) { JOSEKI_CUDA_CHECK(cudaSetDevice(d)); }
}  // namespace

MultiRunner::MultiRunner(const Problem& p, const MultiConfig& c) {
  const gpu::Availability av = gpu::availability();
  if (!av.ok) throw GpuUnavailable(av.reason);
  std::vector<int> devices = c.devices;
  if (devices.empty())
    for (int d = 0; d < av.device_count; ++d) devices.push_back(d);
  for (const int d : devices)
    if (d < 0 || d >= av.device_count)
      throw InputError(fmt::format("--gpus: device {} out of range (this machine has {} GPU{})", d, av.device_count,
                                   av.device_count == 1 ? "" : "s"));
  if (std::set<int>(devices.begin(), devices.end()).size() != devices.size())
    throw InputError("--gpus: a device is listed twice");
  const int ranks = c.ranks > 0 ? c.ranks : static_cast<int>(devices.size());
  const auto ranges = split_pairs(p.n > 0 ? p.n - 1 : 0, ranks);
  std::set<int> seen;
  for (int r = 0; r < ranks; ++r) {
    Rank k;
    k.device = devices[static_cast<std::size_t>(r) % devices.size()];
    set_device(k.device);
    pairs::PairsConfig pc = c.pairs;
    pc.fuse = false;  // the ranks' tables are summed before the combine: every rank needs its table
    k.dev = std::make_unique<pairs::PairsDevice>(p, pc, k.device, ranges[r].first, ranges[r].second);
    k.stream = std::make_unique<cuda::Stream>();
    JOSEKI_CUDA_CHECK(cudaEventCreateWithFlags(&k.counted, cudaEventDisableTiming));
    if (seen.insert(k.device).second) {
      m_flushers.push_back(std::make_unique<cuda::L2Flusher>(k.device));
      m_flusher_rank.push_back(r);
    }
    m_ranks.push_back(std::move(k));
  }
  set_device(m_ranks[0].device);
  JOSEKI_CUDA_CHECK(cudaEventCreate(&m_start));
  JOSEKI_CUDA_CHECK(cudaEventCreate(&m_end));
  if (ranks == 1) {
    m_reduction = "none";
    return;
  }
  const bool distinct = seen.size() == static_cast<std::size_t>(ranks);
  std::string why = distinct ? "" : "ranks share a GPU";
  if (c.nccl && distinct) m_nccl = load_nccl(&why);
  if (m_nccl) {
    disable_nvls();
    m_comms.resize(static_cast<std::size_t>(ranks));
    std::vector<int> list;
    for (const Rank& k : m_ranks) list.push_back(k.device);
    m_nccl->check(m_nccl->comm_init_all(m_comms.data(), ranks, list.data()), "ncclCommInitAll");
    m_reduction = fmt::format("nccl all-reduce (NCCL {}.{}.{}, {})", m_nccl->version / 10000,
                              m_nccl->version / 100 % 100, m_nccl->version % 100, m_nccl->path);
  } else {
    // Direct peer copies where the GPUs allow it (otherwise cudaMemcpyPeer stages through the host).
    for (const Rank& k : m_ranks) {
      int can = 0;
      if (k.device == m_ranks[0].device) continue;
      JOSEKI_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, m_ranks[0].device, k.device));
      if (!can) continue;
      set_device(m_ranks[0].device);
      const cudaError_t e = cudaDeviceEnablePeerAccess(k.device, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();  // enabled before: fine
      else JOSEKI_CUDA_CHECK(e);
    }
    set_device(m_ranks[0].device);
    m_scratch = cuda::DeviceBuffer<std::uint64_t>(m_ranks[0].dev->table_entries());
    m_reduction = fmt::format("peer copies + adds on GPU {}{}", m_ranks[0].device,
                              c.nccl ? " (NCCL not used: " + why + ")" : "");
  }
}

MultiRunner::~MultiRunner() {
  if (m_nccl)
    for (Nccl::Comm cm : m_comms)
      if (cm) m_nccl->comm_destroy(cm);
  for (Rank& k : m_ranks) {
    cudaSetDevice(k.device);
    if (k.counted) cudaEventDestroy(k.counted);
  }
  if (!m_ranks.empty()) cudaSetDevice(m_ranks[0].device);
  if (m_start) cudaEventDestroy(m_start);
  if (m_end) cudaEventDestroy(m_end);
}

std::vector<int> MultiRunner::rank_devices() const {
  std::vector<int> v;
  for (const Rank& k : m_ranks) v.push_back(k.device);
  return v;
}

void MultiRunner::poison() {
  for (Rank& k : m_ranks) {
    set_device(k.device);
    k.dev->poison(*k.stream);
  }
  set_device(m_ranks[0].device);
  m_scratch.poison(*m_ranks[0].stream);
}

void MultiRunner::flush_l2() {
  for (std::size_t i = 0; i < m_flushers.size(); ++i) {
    const Rank& k = m_ranks[static_cast<std::size_t>(m_flusher_rank[i])];
    set_device(k.device);
    m_flushers[i]->flush(*k.stream);
    k.stream->sync();
  }
}

void MultiRunner::enqueue() {
  Rank& r0 = m_ranks[0];
  set_device(r0.device);
  JOSEKI_CUDA_CHECK(cudaEventRecord(m_start, *r0.stream));
  for (std::size_t r = 0; r < m_ranks.size(); ++r) {
    Rank& k = m_ranks[r];
    set_device(k.device);
    if (r > 0) JOSEKI_CUDA_CHECK(cudaStreamWaitEvent(*k.stream, m_start, 0));  // everyone starts after the start event
    k.dev->enqueue_count(*k.stream);
    JOSEKI_CUDA_CHECK(cudaEventRecord(k.counted, *k.stream));
  }
  const std::size_t cells = r0.dev->table_entries();
  const bool wide = r0.dev->wide();
  if (m_ranks.size() > 1 && m_nccl) {
    m_nccl->check(m_nccl->group_start(), "ncclGroupStart");
    for (std::size_t r = 0; r < m_ranks.size(); ++r) {
      Rank& k = m_ranks[r];
      void* t = k.dev->table();
      m_nccl->check(m_nccl->all_reduce(t, t, cells, wide ? Nccl::UINT64 : Nccl::UINT32, Nccl::SUM, m_comms[r],
                                       static_cast<void*>(k.stream->get())),
                    "ncclAllReduce");
    }
    m_nccl->check(m_nccl->group_end(), "ncclGroupEnd");
  } else if (m_ranks.size() > 1) {
    set_device(r0.device);
    for (std::size_t r = 1; r < m_ranks.size(); ++r) {
      Rank& k = m_ranks[r];
      JOSEKI_CUDA_CHECK(cudaStreamWaitEvent(*r0.stream, k.counted, 0));
      const std::size_t bytes = cells * (wide ? 8 : 4);
      JOSEKI_CUDA_CHECK(
          cudaMemcpyPeerAsync(m_scratch.data(), r0.device, k.dev->table(), k.device, bytes, *r0.stream));
      if (wide)
        pairs::launch_add_table(m_scratch.data(), static_cast<std::uint64_t*>(r0.dev->table()), cells, *r0.stream);
      else
        pairs::launch_add_table32(reinterpret_cast<const std::uint32_t*>(m_scratch.data()),
                                  static_cast<std::uint32_t*>(r0.dev->table()), cells, *r0.stream);
    }
  }
  set_device(r0.device);
  r0.dev->enqueue_combine(*r0.stream);
  JOSEKI_CUDA_CHECK(cudaEventRecord(m_end, *r0.stream));
}

double MultiRunner::wait() {
  set_device(m_ranks[0].device);
  JOSEKI_CUDA_CHECK(cudaEventSynchronize(m_end));
  for (Rank& k : m_ranks) {  // the other ranks are done once the reduction is, but say so explicitly
    set_device(k.device);
    k.stream->sync();
  }
  set_device(m_ranks[0].device);
  float ms = 0;
  JOSEKI_CUDA_CHECK(cudaEventElapsedTime(&ms, m_start, m_end));
  return ms * 1e-3;
}

Answer MultiRunner::download() {
  set_device(m_ranks[0].device);
  return m_ranks[0].dev->download(*m_ranks[0].stream);
}

MultiResult solve_multi(const Problem& p, const MultiConfig& c) {
  MultiRunner run(p, c);
  run.enqueue();
  MultiResult r;
  r.gpu_compute_s = run.wait();
  r.answer = run.download();
  r.devices = run.rank_devices();
  r.reduction = run.reduction();
  return r;
}

#else  // CPU-only build

MultiResult solve_multi(const Problem&, const MultiConfig&) {
  throw GpuUnavailable("this joseki was built without CUDA (gpu-multi needs GPUs)");
}

#endif

namespace {

SolveResult solve_gpu_multi(const Problem& p, const SolveOptions&) {
  MultiConfig c;
  c.pairs.progress = false;
  MultiResult m = solve_multi(p, c);
  SolveResult r;
  r.answer = std::move(m.answer);
  r.solver = "gpu-multi";
  r.gpu_compute_s = m.gpu_compute_s;
  r.explanation = fmt::format("gpu-multi: {} pairs split over {} rank(s) on GPU(s) {}; tables summed by {}; combined "
                              "on GPU {}",
                              p.n > 0 ? p.n - 1 : 0, m.devices.size(), fmt::join(m.devices, ","), m.reduction,
                              m.devices.empty() ? 0 : m.devices[0]);
  return r;
}

const SolverRegistrar reg{Solver{"gpu-multi",
                                 "every GPU of this host: the pair range split, one table per GPU, NCCL all-reduce, "
                                 "tensor-core combine on GPU 0",
                                 true, 45, solve_gpu_multi, [](int d) { pairs::startup::begin_context_async(d); }}};

}  // namespace
}  // namespace joseki::abc471g::multi
