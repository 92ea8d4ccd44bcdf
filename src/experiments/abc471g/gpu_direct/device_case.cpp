// DeviceCase: one problem on one GPU, run and timed by any rung. The harness side of "rungs only
// compute": it owns the buffers, poisons the output and the scratch before every validated run,
// synchronizes, copies back, and times through the backend's GpuTimer (events, L2 flush).
#include "experiments/abc471g/gpu_direct/ladder_internal.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include <cuda_runtime.h>

#include "backend/cuda/buffer.hpp"
#include "backend/cuda/check.hpp"
#include "backend/cuda/timing.hpp"
#include "backend/gpu.hpp"
#endif

namespace joseki::abc471g::ladder {

#ifdef JOSEKI_HAVE_CUDA

struct DeviceCase::Impl {
  Problem p;
  Shape shape;
  int device = 0;
  const std::vector<std::uint32_t>* host_a = nullptr;
  std::vector<std::uint32_t> own_a;
  cuda::DeviceBuffer<std::uint32_t> a, b, answer;
  cuda::DeviceBuffer<std::uint8_t> v;
  cuda::DeviceBuffer<unsigned char> scratch;
  std::unique_ptr<cuda::Stream> stream;
  std::unique_ptr<cuda::GpuTimer> timer;

  cuda::GpuTimer& gpu_timer() {
    if (!timer) timer = std::make_unique<cuda::GpuTimer>(device);
    return *timer;
  }

  // A on the device, generated on the host the first time a rung reads it.
  const std::uint32_t* device_a() {
    if (a.size() == p.n) return a.data();
    if (!host_a) {
      own_a = gpu_cases::generate_all(p);
      host_a = &own_a;
    }
    a = cuda::DeviceBuffer<std::uint32_t>(p.n);
    a.copy_from_host(host_a->data(), p.n, stream->get());
    stream->sync();
    return a.data();
  }

  gpu_api::DeviceProblem prepare(const RungInfo& r, const Config& c, bool poison) {
    const std::string why = check(r, shape, c);
    if (!why.empty()) throw InputError(r.id + ": " + why);
    const gpu_api::RungOps& ops = ops_of(r);
    const std::size_t need = ops.scratch_bytes(shape, c);
    if (need > scratch.size()) scratch = cuda::DeviceBuffer<unsigned char>(need);
    gpu_api::DeviceProblem dp;
    dp.shape = shape;
    dp.seed = p.seed;
    dp.d_a = r.a_on_device ? nullptr : device_a();
    dp.d_b = b.data();
    dp.d_v = v.data();
    dp.d_answer = answer.data();
    dp.d_scratch = need ? scratch.data() : nullptr;
    if (poison) {
      answer.poison(stream->get());
      if (need) JOSEKI_CUDA_CHECK(cudaMemsetAsync(scratch.data(), 0xA5, need, stream->get()));
    }
    return dp;
  }
};

DeviceCase::DeviceCase(const Problem& p, int device, const std::vector<std::uint32_t>* a) : m(std::make_unique<Impl>()) {
  joseki::gpu::require_device(device);
  JOSEKI_CUDA_CHECK(cudaSetDevice(device));
  m->p = p;
  m->shape = shape_of(p);
  m->device = device;
  m->host_a = a;
  m->stream = std::make_unique<cuda::Stream>();
  m->b = cuda::DeviceBuffer<std::uint32_t>(p.b.size());
  m->v = cuda::DeviceBuffer<std::uint8_t>(p.v.size());
  m->answer = cuda::DeviceBuffer<std::uint32_t>(p.k);
  m->b.copy_from_host(p.b.data(), p.b.size(), m->stream->get());
  m->v.copy_from_host(p.v.data(), p.v.size(), m->stream->get());
  m->stream->sync();
}

DeviceCase::~DeviceCase() = default;

const Problem& DeviceCase::problem() const { return m->p; }

Answer DeviceCase::run(const RungInfo& r, const Config& c) {
  const gpu_api::DeviceProblem dp = m->prepare(r, c, true);
  ops_of(r).launch(dp, c, m->stream->get());
  std::vector<std::uint32_t> out(m->p.k);
  m->answer.copy_to_host(out.data(), out.size(), m->stream->get());
  m->stream->sync();
  return Answer(out.begin(), out.end());
}

measure::Measurement DeviceCase::time(const RungInfo& r, const Config& c, measure::Mode mode,
                                      const measure::StoppingRule& rule, const measure::WarmUp& warmup) {
  const gpu_api::DeviceProblem dp = m->prepare(r, c, false);
  const gpu_api::RungOps& ops = ops_of(r);
  return m->gpu_timer().measure([&](cudaStream_t s) { ops.launch(dp, c, s); }, mode, rule, 0, warmup);
}

double DeviceCase::time_once(const RungInfo& r, const Config& c) {
  const gpu_api::DeviceProblem dp = m->prepare(r, c, false);
  cuda::GpuTimer& t = m->gpu_timer();
  cuda::EventPair ev;
  ev.start(t.stream());
  ops_of(r).launch(dp, c, t.stream());
  ev.stop(t.stream());
  return ev.seconds();
}

void DeviceCase::flush_l2() { m->gpu_timer().flush_l2(); }

#else  // CPU-only build

struct DeviceCase::Impl {
  Problem p;
};

DeviceCase::DeviceCase(const Problem&, int, const std::vector<std::uint32_t>*) {
  throw GpuUnavailable("this joseki was built without CUDA: the GPU ladder cannot run");
}
DeviceCase::~DeviceCase() = default;
const Problem& DeviceCase::problem() const { return m->p; }
Answer DeviceCase::run(const RungInfo&, const Config&) { throw GpuUnavailable("built without CUDA"); }
measure::Measurement DeviceCase::time(const RungInfo&, const Config&, measure::Mode, const measure::StoppingRule&,
                                      const measure::WarmUp&) {
  throw GpuUnavailable("built without CUDA");
}
double DeviceCase::time_once(const RungInfo&, const Config&) { throw GpuUnavailable("built without CUDA"); }
void DeviceCase::flush_l2() { throw GpuUnavailable("built without CUDA"); }

#endif

}  // namespace joseki::abc471g::ladder
