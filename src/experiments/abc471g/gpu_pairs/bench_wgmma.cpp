// `joseki abc471g scale wgmma` (bench_wgmma.hpp): r09's wgmma combine alone, validated, then timed.
#include "experiments/abc471g/gpu_pairs/bench_wgmma.hpp"

#include <algorithm>
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/bench_util.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/reference.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/check.hpp"
#include "backend/cuda/timing.hpp"
#include "experiments/abc471g/gpu_pairs/kernels.hpp"
#endif

namespace joseki::abc471g::pairs {

using bench::base_record;
using measure::Record;
using measure::Scope;

std::string wgmma_shape_name(const std::string& operand, int warpgroups, int stage_bytes, int inflight, int pad_copies,
                             int stages, int tma) {
  return fmt::format("{}.wg{}.bk{}{}{}{}{}", operand, warpgroups, stage_bytes,
                     inflight ? ".if" + std::to_string(inflight) : "", pad_copies ? ".pad" : "",
                     stages != 4 ? ".st" + std::to_string(stages) : "", tma ? ".tma" : "");
}
std::string wgmma_shape_name(const WgmmaShape& shape) {
  return wgmma_shape_name(wgmma_operand_name(shape.op), shape.warpgroups, shape.stage_bytes, shape.inflight,
                          shape.pad_copies, shape.stages, shape.tma);
}

std::vector<std::uint8_t> gemm_planes(const std::vector<std::uint64_t>& table, std::uint32_t kp, int* planes) {
  const std::size_t cells = static_cast<std::size_t>(kp) * kp;
  std::uint64_t mx = 0;
  for (std::size_t i = 0; i < cells; ++i) mx = std::max(mx, table[i]);
  const int np = std::max(1, planes_for(std::max<std::uint64_t>(mx, 1), 7));
  std::vector<std::uint8_t> out(static_cast<std::size_t>(np) * cells);
  for (int j = 0; j < np; ++j) {
    const int sh = plane_shift(j, 7);
    const std::uint64_t mask = j == 0 ? 127 : 255;
    for (std::size_t i = 0; i < cells; ++i)
      out[static_cast<std::size_t>(j) * cells + i] = static_cast<std::uint8_t>((table[i] >> sh) & mask);
  }
  if (planes) *planes = np;
  return out;
}

#ifdef JOSEKI_HAVE_CUDA
WgmmaCombineFixture::WgmmaCombineFixture(const std::vector<std::uint64_t>& table, std::uint32_t kp, const Problem& p)
    : m_k(p.k), m_kp(kp), m_a0(first_element(p)) {
  const std::vector<std::uint8_t> planes = gemm_planes(table, kp, &m_planes);
  for (std::size_t i = 0; i < static_cast<std::size_t>(kp) * kp; ++i) m_max = std::max(m_max, table[i]);
  m_d_planes = cuda::DeviceBuffer<std::uint8_t>(planes.size());
  m_d_planes.copy_from_host(planes.data(), planes.size());
  std::vector<std::uint8_t> v(p.v.begin(), p.v.end());
  m_d_v = cuda::DeviceBuffer<std::uint8_t>(std::max<std::size_t>(v.size(), 4));
  m_d_v.copy_from_host(v.data(), v.size());
  m_d_max = cuda::DeviceBuffer<std::uint64_t>(1);
  m_d_max.copy_from_host(&m_max, 1);
  m_d_answer = cuda::DeviceBuffer<std::uint64_t>(m_k);
  JOSEKI_CUDA_CHECK(cudaDeviceSynchronize());
  prepare_wgmma_combine(kp);
}

void WgmmaCombineFixture::enqueue_combine_only(const WgmmaShape& shape, cudaStream_t s) {
  WgmmaCombineArgs a;
  a.d_planes = m_d_planes.data();
  a.planes = m_planes;
  a.low_bits = GEMM_LOW_BITS;
  a.d_max = m_d_max.data();
  a.d_v = m_d_v.data();
  a.k = m_k;
  a.kp = m_kp;
  a.d_answer = m_d_answer.data();
  a.desc_swap = m_desc_swap ? 1 : 0;
  set_wgmma_shape(a, shape);
  a.debug = m_debug;
  launch_wgmma_combine(a, shape.op, s);
}

void WgmmaCombineFixture::enqueue(const WgmmaShape& shape, cudaStream_t s) {
  ProductPrepArgs pp;  // d_circ = nullptr: the first terms only
  pp.d_v = m_d_v.data();
  pp.k = m_k;
  pp.kp = m_kp;
  pp.a0 = m_a0;
  pp.d_answer = m_d_answer.data();
  launch_product_prep(pp, s);
  enqueue_combine_only(shape, s);
}

Answer WgmmaCombineFixture::run(const WgmmaShape& shape, cudaStream_t s) {
  m_d_answer.poison(s);
  enqueue(shape, s);
  Answer got(m_k);
  m_d_answer.copy_to_host(got.data(), m_k, s);
  JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
  return got;
}

namespace {

std::string compare(const Answer& got, const Answer& want) {
  if (got.size() != want.size()) return fmt::format("{} answers, expected {}", got.size(), want.size());
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && bad++ == 0) first = i;
  if (!bad) return "";
  return fmt::format("{} of {} answers differ; first at k = {}: got {}, expected {}", bad, got.size(), first, got[first],
                     want[first]);
}

}  // namespace
#endif

std::vector<Record> bench_wgmma_combine(const Problem& p, const std::string& case_name, const BenchOptions& o,
                                        const std::vector<std::string>& shapes) {
  std::vector<Record> out;
  std::vector<std::string> all;
  for (const WgmmaShape& sh : WGMMA_SHAPES) all.push_back(wgmma_shape_name(sh));
  for (const std::string& s : shapes)
    if (std::find(all.begin(), all.end(), s) == all.end())
      throw InputError("--shapes: unknown shape '" + s + "' (shapes: " + fmt::format("{}", fmt::join(all, ", ")) + ")");
  auto wanted = [&](const std::string& name) {
    return shapes.empty() || std::find(shapes.begin(), shapes.end(), name) != shapes.end();
  };
  const std::uint32_t kp = padded_k(p.k);
  const std::string set_id = "pairs-wgmma " + case_name + " " + bench::now_id();
  const char* technique =
      "r09: the combine on wgmma m64n128k32 u8 (sm_90a), circ(V) made from V in shared memory, the masked column "
      "sum in the epilogue (no G, no circ(V) in memory), stream-K over one wave";
  auto make = [&](const std::string& table_name, const WgmmaShape& sh, const std::string& what) {
    const std::string operand = wgmma_operand_name(sh.op);
    const int wgs = sh.warpgroups, bk = sh.stage_bytes, inflight = sh.inflight;
    Record r = base_record("pairs.r09.wgmma_combine." + wgmma_shape_name(sh) + what, technique, "cuda",
                           Scope::GpuCompute, "cold");
    bench::set_problem_axes(r, p);
    r.axes.set("case", case_name);
    r.axes.set("table", table_name);
    r.axes.set("operand", operand);
    r.axes.set("warpgroups", static_cast<std::int64_t>(wgs));
    r.axes.set("stage_bytes", static_cast<std::int64_t>(bk));
    r.axes.set("inflight", static_cast<std::int64_t>(inflight));
    r.axes.set("pad_copies", static_cast<std::int64_t>(sh.pad_copies));
    r.axes.set("stages", static_cast<std::int64_t>(sh.stages));
    r.axes.set("tma", static_cast<std::int64_t>(sh.tma));
    r.ladder.scope_set = set_id;
    return r;
  };
  const std::string why = wgmma_combine_unavailable(kp, o.device);
  if (!why.empty()) {
    for (const WgmmaShape& sh : WGMMA_SHAPES)
      if (wanted(wgmma_shape_name(sh)))
        out.push_back(bench::skipped_record(
            make("problem", sh, ""), why));
    return out;
  }
#ifdef JOSEKI_HAVE_CUDA
  JOSEKI_CUDA_CHECK(cudaSetDevice(o.device));
  cuda::GpuTimer timer(o.device);
  const cudaStream_t s = timer.stream();
  struct Table {
    std::string name;
    std::vector<std::uint64_t> cells;
  };
  std::vector<Table> tables;
  tables.push_back({"problem", cpu_pair_table(p, kp)});
  {  // counts up to 2^16 - 1 (three planes) on rows and columns < K, padding zero
    std::mt19937_64 g(0x9E3779B97F4A7C15ULL ^ p.k);
    std::vector<std::uint64_t> t(static_cast<std::size_t>(kp) * kp, 0);
    for (std::uint32_t a = 0; a < p.k; ++a)
      for (std::uint32_t b = 0; b < p.k; ++b) t[static_cast<std::size_t>(a) * kp + b] = g() & 0xFFFF;
    tables.push_back({"random-3-planes", std::move(t)});
  }
  for (const Table& t : tables) {
    o.say(fmt::format("  r09 wgmma combine, {} table: CPU reference (NTT) ...", t.name));
    const Answer want = combine_ntt_host(t.cells, kp, p);
    WgmmaCombineFixture fx(t.cells, kp, p);
    for (const WgmmaShape& sh : WGMMA_SHAPES) {
        const std::string opn = wgmma_operand_name(sh.op);
        if (!wanted(wgmma_shape_name(sh))) continue;
        Record r = make(t.name, sh, "");
        r.extra["planes"] = fx.planes();
        r.extra["max_count"] = fx.max_count();
        std::string bad = compare(fx.run(sh, s), want);
        if (bad.empty()) bad = compare(fx.run(sh, s), want);  // a second run: nothing left over from the first
        r.validation = bad.empty() ? "exact" : "failed: " + bad;
        if (!bad.empty()) {  // a diagnosis for the next iteration: is it the descriptors' LBO/SBO?
          fx.set_desc_swap(true);
          const std::string swapped = compare(fx.run(sh, s), want);
          fx.set_desc_swap(false);
          r.extra["with_lbo_sbo_exchanged"] = swapped.empty() ? "exact" : swapped;
          r.validation += swapped.empty() ? " (exact with LBO/SBO exchanged)" : " (also with LBO/SBO exchanged)";
          o.say(fmt::format("    {}: {}", r.variant, r.validation));
          out.push_back(r);
          continue;
        }
        r.set_measurement(timer.measure([&](cudaStream_t st) { fx.enqueue(sh, st); }, measure::Mode::Cold, o.rule));
        const double ops = 2.0 * p.k * static_cast<double>(p.k) * p.k * fx.planes();
        r.extra["int8_tops"] = ops / r.summary->median / 1e12;
        r.extra["includes"] = "first terms (r04's prep kernel, no circulant) + the wgmma combine";
        o.say(fmt::format("    {}: {:.2f} us", r.variant, r.summary->median * 1e6));
        out.push_back(r);
        if (t.name != "problem") continue;
        Record k = make(t.name, sh, ".kernel");
        k.validation = "exact (the same kernel, validated above)";
        k.extra["planes"] = fx.planes();
        k.set_measurement(timer.measure([&](cudaStream_t st) { fx.enqueue_combine_only(sh, st); },
                                        measure::Mode::Cold, o.rule));
        k.extra["int8_tops"] = ops / k.summary->median / 1e12;
        k.extra["includes"] = "the wgmma combine kernel alone";
        out.push_back(k);
        // Where the time goes (diagnostics, two shapes): the kernel with L2 warm (hot), without the proxy
        // fence (checked: still exact?), without loads after the prologue.
        const std::string shn = wgmma_shape_name(sh);
        const bool hankel = sh.op == WgmmaOperand::Ss && sh.tma;  // r35, r36: hot, and without the copies
        if (shn != "rs.wg4.bk64.if1.pad" && shn != "rs.wg4.bk64.if1.pad.st6" && shn != "rs.wg4.bk64.if1.pad.st6.tma" &&
            !(hankel && sh.warpgroups == 4))
          continue;
        Record h = make(t.name, sh, ".kernel.hot");
        h.mode = "hot";
        h.validation = "exact (the same kernel, validated above)";
        h.set_measurement(
            timer.measure([&](cudaStream_t st) { fx.enqueue_combine_only(sh, st); }, measure::Mode::Hot, o.rule));
        h.extra["int8_tops"] = ops / h.summary->median / 1e12;
        out.push_back(h);
        for (const int bits : {1, 2}) {
          // r13's kernel has neither a proxy fence nor per-thread loads to leave out; r35's leaves out its copies
          if (sh.tma && !(hankel && bits == 2)) continue;
          const char* what = bits == 1 ? ".diag.nofence" : ".diag.noloads";
          Record g = make(t.name, sh, what);
          fx.set_debug(bits);
          if (bits == 1) {
            const std::string b1 = compare(fx.run(sh, s), want);
            g.validation = b1.empty() ? "exact (without the fence: not evidence it is safe)" : "failed: " + b1;
          } else {
            g.validation = "not-applicable: a diagnostic (answers wrong by design)";
          }
          g.set_measurement(
              timer.measure([&](cudaStream_t st) { fx.enqueue_combine_only(sh, st); }, measure::Mode::Cold, o.rule));
          fx.set_debug(0);
          g.extra["includes"] = "a diagnostic variant of the kernel alone";
          out.push_back(g);
        }
      }
  }
#endif
  return out;
}

}  // namespace joseki::abc471g::pairs
