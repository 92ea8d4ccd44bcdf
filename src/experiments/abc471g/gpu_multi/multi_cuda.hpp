// The multi-GPU run, for host code compiled against the CUDA runtime (JOSEKI_HAVE_CUDA only).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/timing.hpp"
#include "experiments/abc471g/gpu_multi/multi.hpp"
#include "experiments/abc471g/gpu_multi/nccl.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"

namespace joseki::abc471g::multi {

class MultiRunner {
 public:
  MultiRunner(const Problem& p, const MultiConfig& c);  // allocates, uploads, creates communicators
  ~MultiRunner();
  MultiRunner(const MultiRunner&) = delete;
  MultiRunner& operator=(const MultiRunner&) = delete;

  void poison();                   // every rank's outputs and scratch
  void flush_l2();                 // evicts every GPU's L2 and waits (untimed, before a cold sample)
  void enqueue();                  // the whole solve
  double wait();                   // waits; seconds between the start and end events (first device)
  Answer download();
  const std::string& reduction() const { return m_reduction; }
  std::vector<int> rank_devices() const;
  int ranks() const { return static_cast<int>(m_ranks.size()); }

 private:
  struct Rank {
    int device = 0;
    std::unique_ptr<pairs::PairsDevice> dev;
    std::unique_ptr<cuda::Stream> stream;
    cudaEvent_t counted{};
  };
  std::vector<Rank> m_ranks;
  std::vector<std::unique_ptr<cuda::L2Flusher>> m_flushers;  // one per rank whose device is new
  std::vector<int> m_flusher_rank;
  const Nccl* m_nccl = nullptr;
  std::vector<Nccl::Comm> m_comms;
  std::string m_reduction;
  cuda::DeviceBuffer<std::uint64_t> m_scratch;  // peer-copy target on the first device
  cudaEvent_t m_start{}, m_end{};
};

}  // namespace joseki::abc471g::multi
