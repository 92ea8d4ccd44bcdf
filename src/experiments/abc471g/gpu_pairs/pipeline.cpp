// Host orchestration of the gpu-pairs solve (pipeline.hpp, pipeline_cuda.hpp).
#include "experiments/abc471g/gpu_pairs/pipeline.hpp"
#include "measure/clock.hpp"
#include "measure/enum_names.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "experiments/abc471g/gpu_pairs/kinds.hpp"
#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "experiments/abc471g/gpu_pairs/progress.hpp"
#include "experiments/abc471g/gpu_pairs/r09_wgmma_math.hpp"
#include "experiments/abc471g/gpu_pairs/reference.hpp"
#include "experiments/abc471g/gpu_pairs/startup.hpp"
#include "measure/errors.hpp"

#ifdef JOSEKI_HAVE_CUDA
#include "backend/cuda/check.hpp"
#include "backend/cuda/int8_gemm.hpp"
#include "backend/gpu.hpp"
#include "experiments/abc471g/gpu_pairs/pipeline_cuda.hpp"
#endif

namespace joseki::abc471g::pairs {

const char* combiner_name(Combiner c) {
  static constexpr measure::EnumName<Combiner> names[] = {
      {Combiner::Ntt, "ntt"}, {Combiner::TensorCore, "tc"}, {Combiner::Gemm, "gemm"}};
  return measure::enum_name(c, names);
}
measure::Needs combiner_needs(Combiner c, std::uint32_t k) {
  measure::Needs n;
  if (c != Combiner::Ntt) n.features = {measure::Feature::Int8MmaK32};
  if (k > 0)
    n.smem_per_block = static_cast<std::int64_t>(c == Combiner::Ntt ? ntt_accumulate_smem_bytes(k)
                                                                   : tc_combine_smem_bytes(padded_k(k)));
  return n;
}

const char* counter_name(Counter c) {
  static constexpr measure::EnumName<Counter> names[] = {
      {Counter::Atomic, "atomic"}, {Counter::Partition, "partition"}, {Counter::Kind, "kind"}};
  return measure::enum_name(c, names);
}

// The partition kernel's variants that count each pair at its rotated cell (r37's 13, r42's 14): the table and the
// planes hold P[a][d] = C[a][(a + d) mod K]; the only ones built in tiles of 26 as well.
namespace {
bool rotated_variant(int lean) { return lean == 13 || lean == 14; }
}  // namespace

Counter effective_counter(const Problem& p, const PairsConfig& c) {
  if (padded_k(p.k) > PARTITION_MAX_KP) return Counter::Atomic;
  return c.count_kind.empty() ? c.counter : Counter::Kind;
}

std::string pairs_precondition(const Problem& p, Combiner c) {
  if (p.k > GPU_PAIRS_MAX_K)
    return "K = " + std::to_string(p.k) + " is above " + std::to_string(GPU_PAIRS_MAX_K) +
           " (the K x K count table and the shared-memory copies of V must fit); use gpu-direct or cpu-direct";
  if (c == Combiner::Ntt && p.k > NTT_MAX_K)
    return "K = " + std::to_string(p.k) + " is above " + std::to_string(NTT_MAX_K) +
           " for the NTT combiner (two transforms of length >= 2K - 1 in shared memory); use gpu-pairs";
  return "";
}

std::uint32_t auto_pairs_per_thread(std::uint64_t pairs, int sms) {
  const std::uint64_t threads = static_cast<std::uint64_t>(std::max(sms, 1)) * 2048;  // full occupancy
  const std::uint64_t ppt = (pairs + threads - 1) / threads;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(ppt, 16, 1u << 20));
}

#ifdef JOSEKI_HAVE_CUDA

namespace {
using measure::now_s;

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s.empty() ? "none" : s;
}
}  // namespace

PairsDevice::PairsDevice(const Problem& p, const PairsConfig& c, int device, std::uint64_t begin, std::uint64_t end)
    : m_p(p), m_cfg(c), m_device(device), m_kp(padded_k(p.k)) {
  const std::string why = pairs_precondition(p, c.combiner);
  if (!why.empty()) throw InputError(std::string("gpu-pairs: ") + why);
  // The kinds a configuration names are checked first, whatever runs here later (a combiner this
  // GPU lacks, the NTT fallback, the atomic count above Kp = 4096): a misspelt or misplaced kind is
  // bad input everywhere, never silently dropped.
  if (c.slices_per_sm > 8)
    throw InputError("gpu-pairs: PairsConfig::slices_per_sm = " + std::to_string(c.slices_per_sm) +
                     ": 0 (the default plan) or 1..8 histogram blocks a SM");
  if (c.hist_threads != 512 && c.hist_threads != 1024)
    throw InputError("gpu-pairs: PairsConfig::hist_threads = " + std::to_string(c.hist_threads) + ": 512 or 1024");
  if (c.hist_loads != 1 && c.hist_loads != 2 && c.hist_loads != 4)
    throw InputError("gpu-pairs: PairsConfig::hist_loads = " + std::to_string(c.hist_loads) + ": 1, 2 or 4");
  if (c.spread_given && c.partition_lean <= 0)
    throw InputError("gpu-pairs: PairsConfig::spread_given (r60) shortens the lean partition kernel's runs; it needs "
                     "partition_lean > 0 (here " + std::to_string(c.partition_lean) + ")");
  if ((c.count_trigger || c.cursor_lines || c.tail_runs) && c.partition_lean <= 0)
    throw InputError(std::string("gpu-pairs: PairsConfig::") +
                     (c.count_trigger ? "count_trigger (r62)" : c.cursor_lines ? "cursor_lines (r63)" : "tail_runs (r64)") +
                     " changes the lean partition kernel; it needs partition_lean > 0 (here " +
                     std::to_string(c.partition_lean) + ")");
  if (!c.count_kind.empty() && !find_count_kind(c.count_kind))
    throw InputError("gpu-pairs: PairsConfig::count_kind = '" + c.count_kind +
                     "': no such count kind in this build (count kinds: " + joined(count_kind_names()) + ")");
  if (!c.combine_kind.empty()) {
    if (!find_combine_kind(c.combine_kind))
      throw InputError("gpu-pairs: PairsConfig::combine_kind = '" + c.combine_kind +
                       "': no such combine kind in this build (combine kinds: " + joined(combine_kind_names()) + ")");
    if (c.combiner != Combiner::Gemm)
      throw InputError("gpu-pairs: PairsConfig::combine_kind = '" + c.combine_kind +
                       "' takes the gemm combiner's planes, not the " + combiner_name(c.combiner) + " combiner's");
  }
  if (c.combine_dependent && (c.combine_kind.empty() || c.wgmma.tma != 1))
    throw InputError("gpu-pairs: PairsConfig::combine_dependent (r38) launches a combine kind's TMA kernel as a "
                     "programmatic dependent of the histograms; it needs combine_kind (here '" + c.combine_kind +
                     "') and wgmma.tma = 1 (here " + std::to_string(c.wgmma.tma) + ")");
  if (c.combine_flags && (!c.combine_dependent || c.combine_kind != "wgmma_skew"))
    throw InputError("gpu-pairs: PairsConfig::combine_flags (r69) replaces the dependent skewed combine's "
                     "griddepcontrol.wait; it needs combine_dependent (here " + std::string(c.combine_dependent ? "on" : "off") +
                     ") and combine_kind 'wgmma_skew' (here '" + c.combine_kind + "')");
  // r37: the partition kernel that rotates each pair's cell writes P[a][d] = C[a][(a + d) mod K], which only a
  // combine kind that reads the planes skewed can take (any other would answer wrong).
  if (rotated_variant(c.partition_lean) &&
      (c.combine_kind.empty() || !find_combine_kind(c.combine_kind)->skewed_planes))
    throw InputError("gpu-pairs: PairsConfig::partition_lean = " + std::to_string(c.partition_lean) +
                     " (r37, r42) counts each pair at its rotated cell, "
                     "(a, (b - a) mod K); only a combine kind that reads the planes skewed can follow it (wgmma_skew); "
                     "here combine_kind = '" + c.combine_kind + "'");
  // A combiner this GPU cannot run is never prepared nor launched: the count still runs (the
  // tests' count tables), and enqueue_combine() says why the combine cannot.
  if (auto need = measure::unmet(combiner_needs(c.combiner, p.k), gpu::needs_facts(device)))
    m_combine_unmet = std::string("gpu-pairs: the ") + combiner_name(c.combiner) + " combiner " + *need;
  JOSEKI_CUDA_CHECK(cudaSetDevice(device));
  const std::uint64_t total = p.n > 0 ? p.n - 1 : 0;
  m_begin = std::min(begin, total);
  m_end = std::max(m_begin, std::min(end, total));
  m_cfg.round_pairs = std::clamp<std::uint64_t>(c.round_pairs, 1, ROUND_PAIRS_MAX);
  m_wide = total > m_cfg.round_pairs;
  m_rounds = static_cast<std::size_t>((m_end - m_begin + m_cfg.round_pairs - 1) / m_cfg.round_pairs);
  int sms = 1;
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  m_ppt = c.pairs_per_thread ? c.pairs_per_thread
                             : auto_pairs_per_thread(std::min(m_cfg.round_pairs, m_end - m_begin), sms);
  m_a0 = first_element(p);

  if (!p.b.empty()) {
    m_b = cuda::DeviceBuffer<std::uint32_t>(p.b.size());
    m_b.copy_from_host(p.b.data(), p.b.size());
  }
  m_v = cuda::DeviceBuffer<std::uint8_t>(p.k);
  m_v.copy_from_host(p.v.data(), p.k);
  const std::size_t cells = table_entries();
  m_t32 = cuda::DeviceBuffer<std::uint32_t>(cells + 2);
  if (m_wide) m_t64 = cuda::DeviceBuffer<std::uint64_t>(cells);
  m_answer = cuda::DeviceBuffer<std::uint64_t>(p.k);
  if (m_cfg.trace_combine) {  // the combine's trace: zeros until a block writes its words
    m_trace = cuda::DeviceBuffer<std::uint64_t>(static_cast<std::size_t>(COMBINE_TRACE_BLOCKS) * r09::COMBINE_TRACE_SLOTS);
    m_trace.poison(nullptr, 0);
  }
  m_counter = effective_counter(p, c);
  m_ctx.p = &m_p;
  m_ctx.cfg = &m_cfg;
  m_ctx.device = device;
  m_ctx.kp = m_kp;
  m_ctx.begin = m_begin;
  m_ctx.end = m_end;
  m_ctx.round = std::min(m_cfg.round_pairs, std::max<std::uint64_t>(m_end - m_begin, 1));
  if (m_counter == Counter::Partition) {
    if (c.slices_per_sm == 0) {
      m_plan = plan_slices(cells, static_cast<std::uint32_t>(sms));  // histogram blocks spread evenly over the SMs
    } else {
      int optin = 0;
      JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
      // The histogram kernels' own shared memory (a few words) stays below 1 KiB.
      const auto max_cells = static_cast<std::uint32_t>(std::max(optin - 1024, 0) / 4 / 4 * 4);
      m_plan = plan_slices_spread(cells, static_cast<std::uint32_t>(sms), c.slices_per_sm, max_cells);
      if (m_plan.size == 0)
        throw InputError("gpu-pairs: PairsConfig::slices_per_sm = " + std::to_string(c.slices_per_sm) + ": " +
                         std::to_string(cells) + " cells in " + std::to_string(c.slices_per_sm * sms) +
                         " slices need more than the " + std::to_string(max_cells) +
                         " counters one block's shared memory holds on this GPU (or no exact slice size fits)");
    }
    // Small partition blocks are r16's lean kernel with <= 256 slices: variant 4 in blocks of 256 or 128,
    // variants 5 .. 12 (r20 .. r28, r30, r31) in blocks of 256 only; 11 and 12 also need slices of < 2^16 cells
    // (their holes carry the offset `slice` in 16 bits).
    const int lean = c.partition_lean, pt = c.partition_threads;
    const bool small_blocks = pt == 256 || pt == 128;
    const bool lean_ok = lean >= 5 && lean <= 14 ? pt == 256 && m_plan.slices <= 256 && (lean < 11 || m_plan.size < 65536)
                         : small_blocks        ? (lean == 0 && pt == 256) || (lean == 4 && m_plan.slices <= 256)
                                               : true;
    if (!lean_ok)
      throw InputError("gpu-pairs: partition blocks of " + std::to_string(pt) +
                       " are r16's lean kernel, variant 4 (partition_lean = 4, blocks of 256 or 128) or 5 .. 14 "
                       "(blocks of 256), with <= 256 slices (slices_per_sm; r03's kernel: blocks of 256 or 512; "
                       "variants 11 .. 14: slices of < 65536 cells); here partition_lean = " + std::to_string(lean) + ", " +
                       std::to_string(m_plan.slices) + " slices of " + std::to_string(m_plan.size) + " cells");
    // A tile with no kernel instantiated for these knobs is refused (it used to run as tiles of 16, unannounced).
    const int lt = small_blocks ? pt : 512;
    const auto tile_built = [&](int tile) {
      return lean > 0 ? lean_partition_tile_built(lt, lean, tile, m_plan.slices) : partition_tile_built(lt, tile);
    };
    if (!tile_built(c.partition_tile)) {
      std::string built;
      for (const int tile : {16, 18, 20, 24, 26, 28, 32})
        if (tile_built(tile)) built += (built.empty() ? "" : ", ") + std::to_string(tile);
      throw InputError("gpu-pairs: PairsConfig::partition_tile = " + std::to_string(c.partition_tile) +
                       " has no kernel for partition_lean = " + std::to_string(lean) + " in blocks of " +
                       std::to_string(lt) + " with " + std::to_string(m_plan.slices) + " slices (tiles built there: 0 = " +
                       "the kernel's choice, " + built + ")");
    }
    const PartitionLaunch pl = prepare_partition(device, c.partition_threads, m_plan.size);
    const std::uint64_t round = std::min(m_cfg.round_pairs, std::max<std::uint64_t>(m_end - m_begin, 1));
    m_chunk = std::clamp<std::uint64_t>(c.chunk_pairs, 1, std::min<std::uint64_t>(round, 1ULL << 31));
    m_chunks_per_round = static_cast<std::size_t>((round + m_chunk - 1) / m_chunk);
    m_resident = pl.resident_threads;
    if (c.partition_lean > 0) {  // r16's kernel: its own residency (blocks of 128, three of 256 a SM)
      const int t = c.partition_threads == 256 || c.partition_threads == 128 ? c.partition_threads : 512;
      m_resident = static_cast<std::uint64_t>(sms) *
                   static_cast<std::uint64_t>(std::max(1, lean_partition_blocks_per_sm(t, c.partition_tile, c.partition_lean, m_plan.slices))) *
                   static_cast<std::uint64_t>(t);
    }
    m_ppt = static_cast<std::uint32_t>(partition_run(m_chunk));
    const std::uint32_t buckets = m_plan.slices;  // one bucket per slice
    // A slice's expected share of a chunk plus 1/16 and 1024 of slack; beyond it pairs spill into
    // the table (RED.ADD), so a skewed input stays exact. Variants 11 and 12 (r30, r31) also pad every
    // slice's run in a tile to a multiple of 2 or 4: up to 1 or 3 holes a bucket for each tile of each block
    // (a chunk of m_chunk pairs has the most tiles: a shorter one has shorter runs or fewer blocks), so that
    // the holes do not eat the slack.
    std::uint64_t holes = 0;
    if (c.partition_lean >= 11 && c.partition_lean <= 14) {
      // r64 (tail_runs): plan_runs may lengthen the runs by up to 1/64 (tiles counted from the longest; blocks from the
      // shortest, the most threads)
      const std::uint64_t run = std::max<std::uint64_t>(m_ppt, 1), longest = run + (c.tail_runs ? run / 64 : 0),
                          group = c.partition_lean >= 12 ? 4 : 2;
      // blocks of 256; r60 (spread_given) and r64 may fill the whole wave
      const std::uint64_t blocks =
          std::max(((m_chunk + run - 1) / run + 255) / 256, c.spread_given || c.tail_runs ? (m_resident + 255) / 256 : 0);
      const std::uint64_t tile = c.partition_tile > 0 ? c.partition_tile : 16;  // a tile with no kernel was refused above
      holes = (group - 1) * blocks * ((longest + tile - 1) / tile);
    }
    const std::uint64_t share = m_chunk / buckets + m_chunk / buckets / 16 + 1024 + holes;
    // buckets * cap < 2^32 (32-bit indices) and cap + 2^16 < 2^32 (the kernel's limits stay in range).
    const std::uint64_t limit = std::min<std::uint64_t>(0xFFFFFFFFULL / buckets - 8, 1ULL << 31);
    const std::uint64_t cap = std::min<std::uint64_t>(c.bucket_cap ? c.bucket_cap : share, limit);
    m_cap = static_cast<std::uint32_t>((cap + 7) / 8 * 8);
    m_buf = cuda::DeviceBuffer<std::uint16_t>(static_cast<std::size_t>(buckets) * m_cap);
    m_cells_rotated = rotated_variant(c.partition_lean);  // r37, r42: the table and the planes hold P, not C
    m_cursor_stride = c.cursor_lines ? 32u : 1u;  // r63: one 128-byte line a cursor
    m_cursor = cuda::DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(buckets) * m_cursor_stride);
    if (c.trace_count) {  // the count's trace: zeros until a block writes its words
      m_count_trace = cuda::DeviceBuffer<std::uint64_t>(
          static_cast<std::size_t>(COUNT_TRACE_BLOCKS) * COUNT_TRACE_PARTITION_WORDS +
          static_cast<std::size_t>(buckets) * COUNT_TRACE_HIST_WORDS);
      m_count_trace.poison(nullptr, 0);
    }
  }
  if (m_counter == Counter::Kind) {  // a pluggable count kind (kinds.hpp; r08: r08_dsmem_count.cu)
    m_count_kind = find_count_kind(c.count_kind);
    if (!m_count_kind)  // Counter::Kind without a name (a name that is not registered was refused above)
      throw InputError("gpu-pairs: Counter::Kind needs PairsConfig::count_kind (count kinds: " +
                       joined(count_kind_names()) + ")");
    if (auto need = measure::unmet(m_count_kind->needs, gpu::needs_facts(device)))
      throw GpuUnavailable("gpu-pairs: " + m_count_kind->what + " " + *need);
    m_count_stage = m_count_kind->make(m_ctx);
    m_chunk = m_count_stage->chunk_pairs;
    m_chunks_per_round = m_count_stage->chunks_per_round;
    if (m_count_stage->pairs_per_thread) m_ppt = m_count_stage->pairs_per_thread;
    m_cap = m_count_stage->bucket_cap;
  }
  if (!m_combine_unmet.empty()) {
    // count only
  } else if (c.combiner != Combiner::Ntt) {
    m_low_bits = c.combiner == Combiner::Gemm ? GEMM_LOW_BITS : 8;
    m_slices = std::max(1, planes_for(std::max<std::uint64_t>(total, 1), m_low_bits));
    m_planes = cuda::DeviceBuffer<std::uint8_t>(static_cast<std::size_t>(m_slices) * cells);
    prepare_tc_combine(static_cast<TcTile>(c.tile), m_kp);
    if (!c.combine_kind.empty()) {  // a pluggable combine kind (kinds.hpp; r09): no cuBLASLt; the fused count still writes the planes
      const CombineKind* ck = find_combine_kind(c.combine_kind);  // registered, with the gemm combiner (above)
      const std::string why = ck->unavailable ? ck->unavailable(m_kp, device) : std::string();
      if (why.empty()) {
        m_combine_kind = ck;
        m_combine_stage = ck->make(m_ctx);
        m_gemm_why = ck->what + " takes every plane";
        // The answers' first terms beside the count (enqueue_first_terms), as r04's prep.
        m_side = std::make_unique<cuda::Stream>(cuda::Stream::lowest_priority());
        m_fork = std::make_unique<cuda::Event>();
        m_join = std::make_unique<cuda::Event>();
      } else {
        m_combine_unmet = "gpu-pairs: " + ck->what + " " + why;
      }
    }
    if (c.combiner == Combiner::Gemm) {
      if (!m_combine_stage && m_combine_unmet.empty()) {  // a combine kind takes every plane without cuBLASLt
        if (c.use_cublaslt)
          m_gemm = cuda::Int8Gemm::create(static_cast<int>(m_kp), &m_gemm_why, c.gemm_algo);
        else
          m_gemm_why = "not asked for (PairsConfig::use_cublaslt)";
      }
      if (m_gemm) {
        m_circ = cuda::DeviceBuffer<std::int8_t>(cells);
        m_g = cuda::DeviceBuffer<std::int32_t>(cells);
        m_u2 = cuda::DeviceBuffer<std::uint8_t>(2 * m_kp);
        // Lowest priority: its blocks fill what the count's kernels leave free instead of going first.
        m_side = std::make_unique<cuda::Stream>(cuda::Stream::lowest_priority());
        if (c.persist_g) setup_g_persistence(device);
        m_fork = std::make_unique<cuda::Event>();
        m_join = std::make_unique<cuda::Event>();
        m_join2 = std::make_unique<cuda::Event>();
        if (c.gemm_panels > 1) setup_gemm_panels();
      }
      // One round of one chunk, at least one pair (no pair: no histogram writes the planes).
      m_fused = c.fuse && m_counter == Counter::Partition && !m_wide && m_begin == 0 && m_end == total &&
                total > 0 && m_rounds == 1 && m_chunks_per_round == 1;
      if (m_fused) {
        m_slice_max = cuda::DeviceBuffer<std::uint32_t>(m_plan.slices);
        m_skew_stage = prepare_partition_fused(m_plan.size, skew_writes());
        if (c.combine_flags) {  // r69: the histograms' and the combine's ended blocks, zero between solves
          m_sync = cuda::DeviceBuffer<std::uint32_t>(2);
          JOSEKI_CUDA_CHECK(cudaMemset(m_sync.data(), 0, m_sync.bytes()));
        }
      }
    }
  } else {
    m_l = ntt_length(p.k);
    const NttTwiddles tw = make_twiddles(m_l);
    m_l_inv = tw.l_inv;
    m_tw = cuda::DeviceBuffer<std::uint64_t>(tw.tw.size());
    m_itw = cuda::DeviceBuffer<std::uint64_t>(tw.itw.size());
    m_tw.copy_from_host(tw.tw.data(), tw.tw.size());
    m_itw.copy_from_host(tw.itw.data(), tw.itw.size());
    m_ntt_blocks = static_cast<std::uint32_t>(std::min<std::uint64_t>(p.k, static_cast<std::uint64_t>(sms)));
    m_partials = cuda::DeviceBuffer<std::uint64_t>(static_cast<std::size_t>(m_ntt_blocks) * m_l);
    m_sum = cuda::DeviceBuffer<std::uint64_t>(m_l);
    prepare_ntt_combine(m_l);
  }
  // The uploads ran on the legacy default stream; the solve runs on non-blocking streams.
  JOSEKI_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

void PairsDevice::enqueue_prep(cudaStream_t s, bool forked) {
  // circ(V), the 1 - V copy (and, with a fused count, the answers' first terms) on the side
  // stream: nothing the count makes is needed, so it runs beside the count (fused) or the slicing;
  // the GEMM waits for it.
  if (!forked) JOSEKI_CUDA_CHECK(cudaEventRecord(*m_fork, s));
  JOSEKI_CUDA_CHECK(cudaStreamWaitEvent(*m_side, *m_fork, 0));
  ProductPrepArgs pp;
  pp.d_circ = m_circ.data();
  pp.d_v = m_v.data();
  pp.k = m_p.k;
  pp.kp = m_kp;
  pp.a0 = m_a0;
  if (m_fused) pp.d_answer = m_answer.data();
  pp.d_u2 = m_u2.data();
  launch_product_prep(pp, *m_side);
  JOSEKI_CUDA_CHECK(cudaEventRecord(*m_join, *m_side));
  m_prep_pending = true;
}

// A combine kind after a fused count: the answers' first terms (answer[k] = V[(A_0 + k) mod K], which the
// kind's kernel adds to) on the low-priority side stream from the fork recorded before the count, so that
// they are not a kernel on the critical path between the histograms and the combine (they were, until the
// r13 session: one more launch in the graph's chain).
void PairsDevice::enqueue_first_terms() {
  JOSEKI_CUDA_CHECK(cudaStreamWaitEvent(*m_side, *m_fork, 0));
  ProductPrepArgs pp;  // d_circ = nullptr: the first terms only
  pp.d_v = m_v.data();
  pp.k = m_p.k;
  pp.kp = m_kp;
  pp.a0 = m_a0;
  pp.d_answer = m_answer.data();
  launch_product_prep(pp, *m_side);
  JOSEKI_CUDA_CHECK(cudaEventRecord(*m_join, *m_side));
  m_first_pending = true;
}

// G (kp^2 int32, written by the GEMM, read once by the reduction) kept in a set-aside part of the
// L2 (persisting accesses) while this device object lives: without it G went to HBM and the
// reduction read it back at ~2.3 TB/s (ncu). Off by default (PairsConfig::persist_g): no gain at the
// max case, 10^9 2% slower with the set-aside. Restored by the destructor.
void PairsDevice::setup_g_persistence(int device) {
  int max_persist = 0, max_window = 0;
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, device));
  JOSEKI_CUDA_CHECK(cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device));
  if (max_persist <= 0 || max_window <= 0) return;
  JOSEKI_CUDA_CHECK(cudaDeviceGetLimit(&m_persist_before, cudaLimitPersistingL2CacheSize));
  const std::size_t want = std::min<std::size_t>(m_g.bytes(), static_cast<std::size_t>(max_persist));
  JOSEKI_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, std::max(want, m_persist_before)));
  m_window.base_ptr = m_g.data();
  m_window.num_bytes = std::min<std::size_t>(m_g.bytes(), static_cast<std::size_t>(max_window));
  m_window.hitRatio = std::min(1.0f, static_cast<float>(want) / static_cast<float>(m_window.num_bytes));
  m_window.hitProp = cudaAccessPropertyPersisting;
  m_window.missProp = cudaAccessPropertyStreaming;
  m_persist = true;
}

PairsDevice::~PairsDevice() {
  if (m_persist) {  // give the L2 back as it was (errors ignored: a destructor must not throw)
    cudaSetDevice(m_device);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, m_persist_before);
  }
}

void PairsDevice::set_g_window(cudaStream_t s, bool on) {
  if (!m_persist) return;
  cudaStreamAttrValue v{};
  v.accessPolicyWindow = m_window;
  if (!on) {
    v.accessPolicyWindow.num_bytes = 0;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
  }
  JOSEKI_CUDA_CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
}

void PairsDevice::enqueue_zero(cudaStream_t s) {
  // The prep may start with the count, but is enqueued after its kernels (enqueue_round), on the
  // low-priority stream: forked first, it ran ahead of the partition (+4 us on the critical path).
  if (m_fused && (m_gemm || m_combine_stage)) JOSEKI_CUDA_CHECK(cudaEventRecord(*m_fork, s));
  m_first_pending = false;  // set again by this count's enqueue_first_terms
  m_first_in_count = false;  // r38: set again by this count's fused histograms
  // The fused histograms leave the table and the buckets empty, and the upper planes zero wherever
  // a slice's maximum is below 2^GEMM_LOW_BITS; the partition kernel zeroes the maximum.
  if (m_fused && m_table_clean) return;
  m_table_clean = m_fused;
  JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_t32.data(), 0, m_t32.bytes(), s));  // counters and the maximum
  if (m_wide) JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_t64.data(), 0, m_t64.bytes(), s));
  if (m_counter == Counter::Partition) JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_cursor.data(), 0, m_cursor.bytes(), s));
  if (m_count_stage) m_count_stage->enqueue_zero(s);
  if (m_fused) {
    const std::size_t plane = table_entries();
    JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_planes.data() + plane, 0, (m_planes.size() - plane), s));
    JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_slice_max.data(), 0, m_slice_max.bytes(), s));
  }
}

CountArgs PairsDevice::round_args(std::size_t r) {
  CountArgs a;
  a.d_b = m_b.data();
  a.m = m_p.m();
  a.seed = m_p.seed;
  a.k = m_p.k;
  a.kp = m_kp;
  a.fastmod_m = make_fastmod(m_p.k).m;
  a.begin = m_begin + static_cast<std::uint64_t>(r) * m_cfg.round_pairs;
  a.end = std::min(m_end, a.begin + m_cfg.round_pairs);
  a.pairs_per_thread = m_ppt;
  a.d_table = m_t32.data();
  return a;
}

void PairsDevice::enqueue_round(std::size_t r, cudaStream_t s, bool generate_only) {
  const CountArgs a = round_args(r);
  if (m_counter == Counter::Partition && !generate_only) {
    PartitionArgs pa;
    pa.buckets = m_plan.slices;
    pa.slice = m_plan.size;
    pa.magic = m_plan.magic;
    pa.cap = m_cap;
    pa.d_buf = m_buf.data();
    pa.d_cursor = m_cursor.data();
    pa.cursor_stride = m_cursor_stride;
    pa.trigger_dependents = m_cfg.count_trigger;
    for (std::uint64_t b = a.begin; b < a.end; b += m_chunk) {
      pa.c = a;
      pa.c.begin = b;
      pa.c.end = std::min(a.end, b + m_chunk);
      pa.run = partition_run(pa.c.end - pa.c.begin);  // a short last chunk still fills the GPU
      // Each chunk's own layout (pa is reused across the chunks: every field is set again here).
      const ChunkLayout l = chunk_layout(pa.c.begin, pa.c.end, pa.c.m, pa.run, m_resident,
                                         m_cfg.partition_tile > 0 ? m_cfg.partition_tile : 16, m_cfg.spread_given,
                                         m_cfg.tail_runs);
      pa.run = l.run;  // run, or a little longer where r64's plan needed free warps
      pa.given_threads = l.given_threads;
      pa.given_run = l.given_run;
      pa.full_threads = l.full_threads;
      pa.tail_run = l.tail_run;
      if (m_count_trace.size() > 0 && m_fused) {  // one chunk: every block's words are this solve's
        pa.d_trace = m_count_trace.data();
        pa.trace_blocks = COUNT_TRACE_BLOCKS;
      }
      pa.tile_pairs = m_cfg.partition_tile;
      pa.lean = m_cfg.partition_lean;
      pa.hist_threads = m_cfg.hist_threads;
      pa.hist_loads = m_cfg.hist_loads;
      if (m_fused) {
        FuseArgs fa;
        fa.d_planes = m_planes.data();
        fa.planes = m_slices;
        fa.d_slice_max = m_slice_max.data();
        fa.d_max = reinterpret_cast<std::uint64_t*>(m_t32.data() + table_entries());
        fa.skew = skew_writes();
        fa.skew_stage = m_skew_stage;
        fa.early_before = m_cfg.hist_early_max;  // r67
        const bool dependent = m_cfg.combine_dependent && m_combine_stage;  // r38
        if (dependent && m_sync.size() > 0) fa.d_done = m_sync.data();    // r69
        if (dependent) {
          fa.d_answer = m_answer.data();
          fa.d_v = m_v.data();
          fa.k = m_p.k;
          fa.a0 = m_a0;
          fa.trigger = true;
        }
        pa.d_zero = b == a.begin ? fa.d_max : nullptr;
        launch_partition_fused(pa, fa, m_cfg.partition_threads, s);
        if (m_gemm) enqueue_prep(s, true);  // from the fork recorded before the count (enqueue_zero)
        if (dependent)
          m_first_in_count = true;
        else if (m_combine_stage)
          enqueue_first_terms();
      } else {
        launch_partition(pa, m_cfg.partition_threads, s);
      }
    }
  } else if (m_count_stage && !generate_only) {  // a pluggable count kind (r08: route by row range, count in DSMEM)
    m_count_stage->enqueue_round(a, s);
  } else {
    launch_count_pairs(a, generate_only, s);
    if (generate_only) m_table_clean = false;  // the probe XORs into the table
  }
  if (m_wide && !generate_only) launch_flush_table(m_t32.data(), m_t64.data(), table_entries(), s);
}

void PairsDevice::enqueue_count_phase(cudaStream_t s, int phase, bool variant) {
  if (!m_count_stage || m_rounds != 1 || m_chunks_per_round != 1)
    throw RunError("gpu-pairs: enqueue_count_phase(" + std::to_string(phase) +
                   ") needs a count kind's count of one chunk in one round");
  m_table_clean = false;
  m_count_stage->enqueue_phase(round_args(0), phase, variant, s);
}

std::string PairsDevice::counter_label() const { return m_count_kind ? m_count_kind->name : counter_name(m_counter); }
const std::string& PairsDevice::count_kind() const {
  static const std::string none;
  return m_count_kind ? m_count_kind->name : none;
}
const std::string& PairsDevice::combine_kind() const {
  static const std::string none;
  return m_combine_kind ? m_combine_kind->name : none;
}
std::vector<std::pair<std::string, std::uint64_t>> PairsDevice::count_extras() const {
  return m_count_stage ? m_count_stage->extras() : std::vector<std::pair<std::string, std::uint64_t>>{};
}
std::uint64_t PairsDevice::count_extra(const std::string& key) const {
  for (const auto& [k, v] : count_extras())
    if (k == key) return v;
  throw RunError("gpu-pairs: the count (" + counter_label() + ") reports no fact '" + key + "'");
}

void PairsDevice::enqueue_combine(cudaStream_t s) {
  if (!m_combine_unmet.empty()) throw GpuUnavailable(m_combine_unmet);
  auto* d_max = reinterpret_cast<std::uint64_t*>(m_t32.data() + table_entries());
  if (m_cfg.combiner != Combiner::Ntt) {
    if (m_gemm && !m_prep_pending) enqueue_prep(s);  // beside the slicing (not fused, or a second combine)
    if (!m_fused) {  // the fused count wrote the planes and the maximum
      SliceArgs sa;
      sa.d_table = table();
      sa.wide = m_wide;
      sa.kp = m_kp;
      sa.slices = m_slices;
      sa.d_slices = m_planes.data();
      sa.d_max = d_max;
      sa.d_answer = m_answer.data();
      sa.d_v = m_v.data();
      sa.k = m_p.k;
      sa.a0 = m_a0;
      sa.low_bits = m_low_bits;
      sa.skew = m_combine_stage && skew_writes();
      launch_slice_table(sa, s);
    }
    bool dependent = false;
    if (m_fused && !m_gemm && m_first_in_count) {  // r38: the histograms wrote the first terms; the combine follows them
      dependent = true;
      m_first_in_count = false;
    } else if (m_fused && !m_gemm && m_first_pending) {  // a combine kind: the first terms ran beside the count
      JOSEKI_CUDA_CHECK(cudaStreamWaitEvent(s, *m_join, 0));
      m_first_pending = false;
    } else if (m_fused && !m_gemm) {  // mma.sync for every plane (or a second combine): the first terms here
      ProductPrepArgs pp;
      pp.d_v = m_v.data();
      pp.k = m_p.k;
      pp.kp = m_kp;
      pp.a0 = m_a0;
      pp.d_answer = m_answer.data();
      launch_product_prep(pp, s);
    }
    TcArgs ta;
    ta.d_slices = m_planes.data();
    ta.slices = m_slices;
    ta.d_max = d_max;
    ta.d_v = m_v.data();
    ta.k = m_p.k;
    ta.kp = m_kp;
    ta.d_answer = m_answer.data();
    ta.low_bits = m_low_bits;
    ta.first_plane = m_gemm ? 1 : 0;
    if (m_gemm) {  // plane 0 (C & 127) on cuBLASLt; G is reduced by the masked column sum
      // The upper planes (mma.sync; all zero at the max case: its blocks exit at once) on the side
      // stream, after the prep (the first terms) and beside the GEMM, which leaves SMs free.
      JOSEKI_CUDA_CHECK(cudaEventRecord(*m_fork, s));
      JOSEKI_CUDA_CHECK(cudaStreamWaitEvent(*m_side, *m_fork, 0));
      launch_tc_combine(ta, static_cast<TcTile>(m_cfg.tile), *m_side);
      JOSEKI_CUDA_CHECK(cudaEventRecord(*m_join2, *m_side));
      JOSEKI_CUDA_CHECK(cudaStreamWaitEvent(s, *m_join, 0));
      m_prep_pending = false;
      set_g_window(s, true);
      if (m_panel_rows) {  // r06: panels, each column sum beside the next panel's GEMM
        enqueue_gemm_panels(s);
      } else {
        m_gemm->run(m_circ.data(), reinterpret_cast<const std::int8_t*>(m_planes.data()), m_g.data(), s);
        ProductReduceArgs ra;
        ra.d_g = m_g.data();
        ra.d_u2 = m_u2.data();
        ra.k = m_p.k;
        ra.kp = m_kp;
        ra.d_answer = m_answer.data();
        launch_product_reduce(ra, s);
      }
      set_g_window(s, false);
      JOSEKI_CUDA_CHECK(cudaStreamWaitEvent(s, *m_join2, 0));
    } else if (m_combine_stage) {  // a combine kind (r09): every plane, the first terms already written (prep or slicing)
      CombinePlanes cp;
      cp.d_planes = m_planes.data();
      cp.planes = m_slices;
      cp.low_bits = m_low_bits;
      cp.d_max = d_max;
      cp.d_v = m_v.data();
      cp.k = m_p.k;
      cp.kp = m_kp;
      cp.d_answer = m_answer.data();
      cp.dependent = dependent;
      if (dependent && m_sync.size() > 0) {  // r69: the histograms of this solve counted their blocks there
        cp.d_done = m_sync.data();
        cp.done_target = m_plan.slices;
      }
      if (m_cfg.trace_combine) {
        cp.d_trace = m_trace.data();
        cp.trace_blocks = static_cast<std::uint32_t>(m_trace.size() / r09::COMBINE_TRACE_SLOTS);
      }
      m_combine_stage->enqueue(cp, s);
    } else {
      launch_tc_combine(ta, static_cast<TcTile>(m_cfg.tile), s);
    }
  } else {
    NttArgs na;
    na.d_table = table();
    na.wide = m_wide;
    na.k = m_p.k;
    na.kp = m_kp;
    na.l = m_l;
    na.d_v = m_v.data();
    na.d_tw = m_tw.data();
    na.d_itw = m_itw.data();
    na.l_inv = m_l_inv;
    na.d_partials = m_partials.data();
    na.blocks = m_ntt_blocks;
    na.d_sum = m_sum.data();
    na.d_answer = m_answer.data();
    na.a0 = m_a0;
    launch_ntt_combine(na, s);
  }
}

std::string PairsDevice::combine_description() const {
  switch (m_cfg.combiner) {
    case Combiner::Ntt: return "Goldilocks NTT correlations";
    case Combiner::TensorCore: return "int8 tensor-core products on mma.sync (byte planes of C)";
    case Combiner::Gemm:
      if (m_combine_stage) return m_combine_stage->description();
      return m_gemm ? "cuBLASLt int8 GEMM of C's low 7 bits (" + m_gemm->library() +
                          ") and mma.sync products of its higher byte planes"
                    : "int8 tensor-core products on mma.sync (cuBLASLt unavailable: " + m_gemm_why + ")";
  }
  return "?";
}

void PairsDevice::poison(cudaStream_t s) {
  m_table_clean = false;
  m_first_in_count = false;  // the answers are poisoned: the next combine writes the first terms itself
  m_circ.poison(s);
  m_g.poison(s);
  m_u2.poison(s);
  m_slice_max.poison(s);
  m_answer.poison(s);
  m_t32.poison(s);
  m_t64.poison(s);
  m_planes.poison(s);
  m_buf.poison(s);
  if (m_count_stage) m_count_stage->poison(s);
  m_partials.poison(s);
  m_sum.poison(s);
  // r69's counters are the solves' protocol, not an output: zero, as every solve leaves them (poisoned, the next
  // combine would wait for a count that never comes, or not wait at all).
  if (m_sync.size() > 0) JOSEKI_CUDA_CHECK(cudaMemsetAsync(m_sync.data(), 0, m_sync.bytes(), s));
}

Answer PairsDevice::download(cudaStream_t s) const {
  Answer a(m_p.k);
  m_answer.copy_to_host(a.data(), a.size(), s);
  JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
  return a;
}

std::vector<std::uint64_t> PairsDevice::combine_trace(cudaStream_t s) const {
  std::vector<std::uint64_t> t(m_trace.size());
  if (t.empty()) return t;
  m_trace.copy_to_host(t.data(), t.size(), s);
  JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
  return t;
}

std::vector<std::uint64_t> PairsDevice::count_trace(cudaStream_t s) const {
  std::vector<std::uint64_t> t(m_count_trace.size());
  if (t.empty()) return t;
  m_count_trace.copy_to_host(t.data(), t.size(), s);
  JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
  return t;
}

std::vector<std::uint64_t> PairsDevice::download_table(cudaStream_t s) const {
  if (m_fused) throw RunError("gpu-pairs: the fused count writes the product's planes, not a table (PairsConfig::fuse)");
  std::vector<std::uint64_t> t(table_entries());
  if (m_wide) {
    m_t64.copy_to_host(t.data(), t.size(), s);
    JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
  } else {
    std::vector<std::uint32_t> t32(table_entries());
    JOSEKI_CUDA_CHECK(cudaMemcpyAsync(t32.data(), m_t32.data(), t32.size() * 4, cudaMemcpyDeviceToHost, s));
    JOSEKI_CUDA_CHECK(cudaStreamSynchronize(s));
    std::copy(t32.begin(), t32.end(), t.begin());
  }
  return t;
}

namespace {

double elapsed(const cuda::Event& a, const cuda::Event& b) {
  float ms = 0;
  JOSEKI_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms * 1e-3;
}

}  // namespace

SolveResult solve_gpu_pairs(const Problem& p, const SolveOptions& o, const PairsConfig& config) {
  SolveResult r;
  r.solver = config.combiner != Combiner::Ntt ? "gpu-pairs" : "gpu-pairs-ntt";
  const std::string why = pairs_precondition(p, config.combiner);
  if (!why.empty()) throw InputError("--solver " + r.solver + ": " + why);
  r.phases_s["cuda_init"] = startup::await_context(o.device);
  // The best combiner that runs here: below sm_80 (or in a compute_75 build) the tensor-core
  // product has no mma.sync m16n8k32, and the NTT combiner (any GPU, K <= 4096) takes its place.
  PairsConfig c = config;
  std::string fallback;
  if (auto need = measure::unmet(combiner_needs(c.combiner, p.k), gpu::needs_facts(o.device))) {
    std::string ntt_why = pairs_precondition(p, Combiner::Ntt);
    if (ntt_why.empty())
      if (auto n = measure::unmet(combiner_needs(Combiner::Ntt, p.k), gpu::needs_facts(o.device))) ntt_why = *n;
    if (c.combiner == Combiner::Ntt || !ntt_why.empty())
      throw GpuUnavailable("--solver " + r.solver + ": the " + combiner_name(c.combiner) + " combiner " + *need +
                           (c.combiner == Combiner::Ntt ? std::string() : ", and the NTT combiner " + ntt_why) +
                           ": use gpu-direct or cpu-direct");
    fallback = std::string(" (fell back from the ") + combiner_name(c.combiner) + " combiner, which " + *need + ")";
    c.combiner = Combiner::Ntt;
  }
  const double t0 = now_s();
  PairsDevice dev(p, c, o.device);
  const double t1 = now_s();
  cuda::Stream stream;
  cuda::Event e_start(true), e_count(true), e_end(true), e_round[2];  // e_round: ordering only
  JOSEKI_CUDA_CHECK(cudaEventRecord(e_start, stream));
  if (dev.rounds() <= 1) {
    dev.enqueue_count(stream);
  } else {
    // Round by round, one round queued ahead, so the bar advances while the GPU never waits.
    Progress bar("gpu-pairs: counting " + std::to_string(dev.pairs()) + " pairs", dev.rounds(), c.progress && progress_wanted());
    dev.enqueue_zero(stream);
    for (std::size_t i = 0; i < dev.rounds(); ++i) {
      dev.enqueue_round(i, stream);
      JOSEKI_CUDA_CHECK(cudaEventRecord(e_round[i % 2], stream));
      if (i >= 1) {
        JOSEKI_CUDA_CHECK(cudaEventSynchronize(e_round[(i - 1) % 2]));
        bar.update(i);
      }
    }
    JOSEKI_CUDA_CHECK(cudaEventSynchronize(e_round[(dev.rounds() - 1) % 2]));
    bar.update(dev.rounds());
    bar.finish();
  }
  JOSEKI_CUDA_CHECK(cudaEventRecord(e_count, stream));
  dev.enqueue_combine(stream);
  JOSEKI_CUDA_CHECK(cudaEventRecord(e_end, stream));
  const double t2 = now_s();
  r.answer = dev.download(stream);
  const double t3 = now_s();
  r.gpu_compute_s = elapsed(e_start, e_end);
  r.gpu_pipeline_s = t3 - t0;
  r.phases_s["upload"] = t1 - t0;
  r.phases_s["count"] = elapsed(e_start, e_count);
  r.phases_s["combine"] = elapsed(e_count, e_end);
  r.phases_s["download"] = t3 - t2;
  r.explanation = r.solver + ": " + std::to_string(dev.pairs()) + " pairs counted on GPU " + std::to_string(o.device) +
                  " in " + std::to_string(dev.rounds()) + " round(s) of < 2^32 (" +
                  (dev.wide() ? "64-bit" : "32-bit") + " counters, " + std::to_string(dev.pairs_per_thread()) +
                  " pairs per thread, " +
                  (dev.counter() == Counter::Partition
                       ? "partitioned into " + std::to_string(dev.slice_plan().slices) + " table slices of " +
                             std::to_string(dev.slice_plan().size) + " cells in chunks of " +
                             std::to_string(dev.chunk_pairs()) + " pairs and counted in shared memory"
                       : dev.count_stage() ? dev.count_stage()->explanation()
                                           : std::string("one L2 atomic per pair")) +
                  (dev.fused() ? "; the histograms wrote the product's planes" : "") + "), combined by " +
                  dev.combine_description() + fallback;
  return r;
}

#else  // CPU-only build

SolveResult solve_gpu_pairs(const Problem& p, const SolveOptions&, const PairsConfig& c) {
  const std::string name = c.combiner != Combiner::Ntt ? "gpu-pairs" : "gpu-pairs-ntt";
  const std::string why = pairs_precondition(p, c.combiner);
  if (!why.empty()) throw InputError("--solver " + name + ": " + why);
  throw GpuUnavailable("this joseki was built without CUDA (solver " + name + " needs a GPU)");
}

#endif

}  // namespace joseki::abc471g::pairs
