#include "experiments/abc471g/gpu_pairs/ladder.hpp"

#include "experiments/abc471g/gpu_pairs/pairs_math.hpp"
#include "measure/errors.hpp"

namespace joseki::abc471g::pairs {

const std::vector<PairsRung>& pairs_ladder() {
  static const std::vector<PairsRung> rungs = [] {
    std::vector<PairsRung> v;
    PairsRung r0;
    r0.id = 0;
    r0.slug = "r00_cpu_pairs";
    r0.name = "CPU pairs (baseline)";
    r0.technique = "cpu-pairs: pair counts on all CPU cores + FFTW correlations";
    r0.cpu_solver = "cpu-pairs";
    r0.precondition = [](const Problem& p) -> std::string {
      for (const Solver& s : solver_registry())
        if (s.name == "cpu-pairs") return p.k > 8192 ? "K > 8192 (cpu-pairs' limit)" : "";
      return "solver cpu-pairs is not in this build";
    };
    v.push_back(r0);
    PairsRung r1;
    r1.id = 1;
    r1.slug = "r01_atomic_ntt";
    r1.name = "GPU count + NTT";
    r1.technique = "jump-ahead generation, L2 atomics into K x K; Goldilocks NTT correlations";
    r1.predecessor = "r00_cpu_pairs";
    r1.combiner = Combiner::Ntt;
    r1.precondition = [](const Problem& p) { return pairs_precondition(p, Combiner::Ntt); };
    v.push_back(r1);
    PairsRung r2;
    r2.id = 2;
    r2.slug = "r02_atomic_tc_int8";
    r2.name = "GPU count + tensor cores";
    r2.technique = "same count; G = C circ(V) on mma.sync m16n8k32 u8 (byte planes), masked epilogue";
    r2.predecessor = "r01_atomic_ntt";
    r2.combiner = Combiner::TensorCore;
    r2.needs = combiner_needs(Combiner::TensorCore);
    r2.precondition = [](const Problem& p) { return pairs_precondition(p, Combiner::TensorCore); };
    v.push_back(r2);
    PairsRung r3;
    r3.id = 3;
    r3.slug = "r03_partition_tc";
    r3.name = "partition count + tensor cores";
    r3.technique = "no global atomics: pairs partitioned by table slice (shared-memory sort), shared-memory histograms; r02's combine";
    r3.predecessor = "r02_atomic_tc_int8";
    r3.combiner = Combiner::TensorCore;
    r3.needs = combiner_needs(Combiner::TensorCore);
    r3.counter = Counter::Partition;
    r3.precondition = [](const Problem& p) -> std::string {
      if (std::string why = pairs_precondition(p, Combiner::TensorCore); !why.empty()) return why;
      if (padded_k(p.k) > PARTITION_MAX_KP)
        return "K = " + std::to_string(p.k) + ": more than " + std::to_string(PARTITION_MAX_KP / 128 * 128) +
               " padded columns, the table has more than 1024 slices of 2^14 cells";
      return "";
    };
    v.push_back(r3);
    PairsRung r4;
    r4.id = 4;
    r4.slug = "r04_partition_gemm";
    r4.name = "partition count + cuBLASLt GEMM";
    r4.technique = "r03's count; plane 0 (C & 127) times circ(V) on cuBLASLt's int8 GEMM + masked column sum; "
                   "one chunk: the histograms write the planes (no table, no slicing pass)";
    r4.predecessor = "r03_partition_tc";
    r4.combiner = Combiner::Gemm;
    r4.needs = combiner_needs(Combiner::Gemm);  // PDL (sm_90) only where it exists: plain stream order below
    r4.counter = Counter::Partition;
    r4.precondition = r3.precondition;
    v.push_back(r4);
    return v;
  }();
  return rungs;
}

const PairsRung& find_rung(const std::string& slug) {
  std::string names;
  for (const PairsRung& r : pairs_ladder()) {
    if (r.slug == slug) return r;
    names += (names.empty() ? "" : ", ") + r.slug;
  }
  throw InputError("--rung " + slug + ": unknown rung (rungs: " + names + ")");
}

}  // namespace joseki::abc471g::pairs
