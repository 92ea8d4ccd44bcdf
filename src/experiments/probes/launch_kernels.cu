// The launch probe's chain kernels. griddepcontrol (programmatic dependent launch) exists from
// sm_90: the PDL kernel's calls are compiled in sm_90+ passes only (in older passes it is a plain
// kernel, and the host never launches the PDL chain there: measure::Needs).
#include "backend/cuda/check.hpp"
#include "backend/cuda/clocks.cuh"
#include "experiments/probes/hopper_device.cuh"
#include "experiments/probes/launch_kernels.hpp"

namespace joseki::probes {

namespace {

using cuda::global_timer;

template <bool PDL>
__global__ void chain_kernel(std::uint32_t* state, unsigned long long* t_entry, unsigned long long* t_ready,
                             std::uint32_t i) {
  const unsigned long long t0 = global_timer();
#if JOSEKI_SM90_CODE
  if constexpr (PDL) {
    // Let the next kernel of the stream start its prologue now, then wait until this kernel's
    // predecessor has completed and its writes are visible.
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
  }
#endif
  const unsigned long long t1 = global_timer();
  if (threadIdx.x == 0) {
    t_entry[i] = t0;
    t_ready[i] = t1;
    *state = *state * 31u + i;
  }
}

}  // namespace

void launch_chain_stream(std::uint32_t* state, unsigned long long* t_entry, unsigned long long* t_ready, int n,
                         cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    chain_kernel<false><<<1, 32, 0, s>>>(state, t_entry, t_ready, static_cast<std::uint32_t>(i));
    JOSEKI_CUDA_CHECK_LAUNCH();
  }
}

void launch_chain_pdl(std::uint32_t* state, unsigned long long* t_entry, unsigned long long* t_ready, int n,
                      cudaStream_t s) {
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(32);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = s;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  for (int i = 0; i < n; ++i)
    JOSEKI_CUDA_CHECK(cudaLaunchKernelEx(&cfg, chain_kernel<true>, state, t_entry, t_ready, static_cast<std::uint32_t>(i)));
  JOSEKI_CUDA_CHECK_LAUNCH();
}

ChainGraph::ChainGraph(std::uint32_t* state, unsigned long long* t_entry, unsigned long long* t_ready, int n,
                       cudaStream_t s) {
  JOSEKI_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < n; ++i) chain_kernel<false><<<1, 32, 0, s>>>(state, t_entry, t_ready, static_cast<std::uint32_t>(i));
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t ended = cudaStreamEndCapture(s, &graph);
  JOSEKI_CUDA_CHECK(launched);
  JOSEKI_CUDA_CHECK(ended);
  JOSEKI_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
}

ChainGraph::~ChainGraph() {
  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
}

void ChainGraph::launch(cudaStream_t s) const { JOSEKI_CUDA_CHECK(cudaGraphLaunch(exec, s)); }

}  // namespace joseki::probes
