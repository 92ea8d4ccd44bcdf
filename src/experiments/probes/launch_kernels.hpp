// Launchers of the launch probe's chains (launch_kernels.cu): n tiny kernels back to back, each
// folding its index into one word (state = state * 31 + i, so the order is checked) and recording
// %globaltimer on entry and after its dependency wait, by three launch paths.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace joseki::probes {

// Kernel i of a chain: t_entry[i] = %globaltimer at entry; (PDL: griddepcontrol.launch_dependents,
// then griddepcontrol.wait); t_ready[i] = %globaltimer; *state = *state * 31 + i.
// Stream: n ordinary launches <<<1, 32>>>.
void launch_chain_stream(std::uint32_t* state, unsigned long long* t_entry, unsigned long long* t_ready, int n,
                         cudaStream_t s);
// Programmatic dependent launch: n launches through cudaLaunchKernelEx with
// cudaLaunchAttributeProgrammaticStreamSerialization = 1 (sm_90).
void launch_chain_pdl(std::uint32_t* state, unsigned long long* t_entry, unsigned long long* t_ready, int n,
                      cudaStream_t s);
// A CUDA graph of the stream chain (captured once; the caller owns it).
struct ChainGraph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ChainGraph(std::uint32_t* state, unsigned long long* t_entry, unsigned long long* t_ready, int n, cudaStream_t s);
  ~ChainGraph();
  ChainGraph(const ChainGraph&) = delete;
  ChainGraph& operator=(const ChainGraph&) = delete;
  void launch(cudaStream_t s) const;
};

}  // namespace joseki::probes
