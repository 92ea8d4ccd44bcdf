// Rung 5 of the gpu-pairs ladder (issue 19, item (d)): r04's solve replayed as ONE CUDA graph.
//
// What changed from r04: nothing in the kernels. r04's solve is a chain of launches on two
// streams: on the main stream the partition kernel, the fused histograms (a programmatic dependent
// launch), an event wait for the prep, cuBLASLt's GEMM, the masked column sum (programmatic
// dependent) and an event wait for the upper planes; on the low-priority side stream the prep
// (circ(V), 1 - V, the first terms) and the upper planes' mma.sync kernel. Here the first solve
// that starts from a clean state is captured (cudaStreamBeginCapture on a stream of the device's
// own, relaxed mode: the side stream joins through the fork event) and every later solve is one
// cudaGraphLaunch: the driver knows the whole DAG up front, so a kernel that depends on another
// starts without a host-visible launch of its own, and the programmatic dependent launches become
// programmatic edges of the graph.
//
// The capture is made right after the first (kernel-by-kernel) solve is enqueued, so no timed solve
// pays for it.
// Why it might buy time: the launch probe measured the GPU-side interval between two dependent
// kernels at 4.30 us in a stream, 3.37 us with programmatic dependent launch and 0.87 us inside a
// graph (H200, probe `launch`). The max case has 4 kernels on its critical path (3 boundaries: two
// PDL, one stream + event wait) and two on the side stream. Prediction: -3 to -8 us at the max case
// (77.3 -> ~70-74 us); nothing measurable at N = 10^9 (4 chunks of ~1 ms: the boundaries are
// < 0.1 % of the time). The records carry the graph's node counts (`graph_kernel_nodes`: r04's
// launches per solve).
// Preconditions: those of r04; the graph is only used where capture is possible (not with
// JOSEKI_SYNC_LAUNCHES, which synchronises after each launch: then each solve runs kernel by kernel).
// Measured (H200, call 1, median of three processes): max case 77.70 us against r04's 78.40 us
// (-0.9 %), 10^8 500.35 vs 503.18 us, 10^9 4725.8 vs 4756.6 us (-0.6 %); exact everywhere. The graph
// holds r04's 6 kernels in 7 nodes at the max case (13 kernels in 16 nodes at 10^9). The prediction
// (-3 to -8 us) was wrong: the timed solve is enqueued while the cold-L2 flush runs, so no kernel waits
// for the host, and the two programmatic dependent launches already overlap their neighbours; what a
// graph removes (~1 us) is the GPU-side scheduling of three boundaries. Kept: the negative result says
// the max case is not launch-bound.
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"

#ifdef JOSEKI_HAVE_CUDA

#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "backend/cuda/check.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"

namespace joseki::abc471g::pairs {

struct PairsDevice::Graph {
  cuda::Stream capture;  // capture happens here; the graph is launched on the caller's stream
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ~Graph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
};

namespace {
bool launches_synchronised() {
  const char* e = std::getenv("JOSEKI_SYNC_LAUNCHES");
  return e && *e && std::string(e) != "0";
}
}  // namespace

void PairsDevice::capture_graph() {
  auto g = std::make_shared<Graph>();
  // A capture this driver or a library refuses is not fatal: the reason is kept (graph_unavailable())
  // and every solve runs kernel by kernel.
  auto fail = [&](const std::string& why) {
    cudaGraph_t broken = nullptr;
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(g->capture, &st) == cudaSuccess && st != cudaStreamCaptureStatusNone)
      cudaStreamEndCapture(g->capture, &broken);
    if (broken) cudaGraphDestroy(broken);
    cudaGetLastError();  // capture errors are not sticky: clear the last one
    m_prep_pending = false;
    m_first_in_count = false;
    m_graph_why = why;
  };
  try {
    JOSEKI_CUDA_CHECK(cudaStreamBeginCapture(g->capture, cudaStreamCaptureModeRelaxed));
    enqueue_count(g->capture);
    enqueue_combine(g->capture);
    JOSEKI_CUDA_CHECK(cudaStreamEndCapture(g->capture, &g->graph));
    JOSEKI_CUDA_CHECK(cudaGraphInstantiate(&g->exec, g->graph, 0));
  } catch (const std::exception& e) {
    fail(std::string("capture failed: ") + e.what());
    return;
  }
  std::size_t n = 0;
  JOSEKI_CUDA_CHECK(cudaGraphGetNodes(g->graph, nullptr, &n));
  std::vector<cudaGraphNode_t> nodes(n);
  if (n) JOSEKI_CUDA_CHECK(cudaGraphGetNodes(g->graph, nodes.data(), &n));
  int kernels = 0;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType t{};
    JOSEKI_CUDA_CHECK(cudaGraphNodeGetType(node, &t));
    kernels += t == cudaGraphNodeTypeKernel;
  }
  m_graph_nodes = static_cast<int>(n);
  m_graph_kernels = kernels;
  ++m_graph_captures;
  m_graph = std::move(g);
}

void PairsDevice::enqueue_solve(cudaStream_t s) {
  // Kernel by kernel: without the graph knob; and whenever the solve must start by zeroing what a
  // fused count keeps zero (the first solve, after poison()): that solve leaves it clean, and the
  // graph is captured from (and replayed in) the clean state only.
  const bool zeroing = m_fused && !m_table_clean;
  if (!m_cfg.graph || zeroing || launches_synchronised() || !m_combine_unmet.empty() || !m_graph_why.empty()) {
    enqueue_count(s);
    enqueue_combine(s);
    // Capture now (it only records: nothing runs), so that no timed solve pays for the capture and
    // instantiation on the host while the GPU waits: the first graph launch is the next solve's.
    if (zeroing && m_cfg.graph && !m_graph && m_graph_why.empty() && m_combine_unmet.empty() && !launches_synchronised())
      capture_graph();
    return;
  }
  if (!m_graph) capture_graph();  // several chunks (no fused state): the first solve captures
  if (!m_graph) {                 // it failed (m_graph_why says why): this solve too runs kernel by kernel
    enqueue_count(s);
    enqueue_combine(s);
    return;
  }
  JOSEKI_CUDA_CHECK(cudaGraphLaunch(m_graph->exec, s));
}

}  // namespace joseki::abc471g::pairs

#endif  // JOSEKI_HAVE_CUDA
