// The registries of the pluggable count and combine kinds (kinds.hpp).
#include "experiments/abc471g/gpu_pairs/kinds.hpp"

#include <algorithm>
#include <stdexcept>

#include "measure/errors.hpp"

namespace joseki::abc471g::pairs {

namespace {

std::vector<CountKind>& count_kinds() {
  static std::vector<CountKind> v;
  return v;
}
std::vector<CombineKind>& combine_kinds() {
  static std::vector<CombineKind> v;
  return v;
}

template <class K>
void add_kind(std::vector<K>& v, const K& k, const char* what) {
  if (k.name.empty() || !k.make)
    throw std::logic_error(std::string("gpu-pairs: a ") + what + " kind without a name or a make function");
  for (const K& e : v)
    if (e.name == k.name) throw std::logic_error(std::string("gpu-pairs: ") + what + " kind '" + k.name + "' registered twice");
  v.push_back(k);
}

template <class K>
const K* find_kind(const std::vector<K>& v, const std::string& name) {
  const auto it = std::find_if(v.begin(), v.end(), [&](const K& k) { return k.name == name; });
  return it == v.end() ? nullptr : &*it;
}

template <class K>
std::vector<std::string> kind_names(const std::vector<K>& v) {
  std::vector<std::string> n;
  for (const K& k : v) n.push_back(k.name);
  return n;
}

}  // namespace

void CountStage::enqueue_phase(const CountArgs&, int phase, bool, CUstream_st*) {
  throw RunError("gpu-pairs: this count kind has no phase " + std::to_string(phase) + " (no split of its kernels)");
}

CountKindRegistrar::CountKindRegistrar(const CountKind& k) { add_kind(count_kinds(), k, "count"); }
CombineKindRegistrar::CombineKindRegistrar(const CombineKind& k) { add_kind(combine_kinds(), k, "combine"); }

const CountKind* find_count_kind(const std::string& name) { return find_kind(count_kinds(), name); }
const CombineKind* find_combine_kind(const std::string& name) { return find_kind(combine_kinds(), name); }
std::vector<std::string> count_kind_names() { return kind_names(count_kinds()); }
std::vector<std::string> combine_kind_names() { return kind_names(combine_kinds()); }

}  // namespace joseki::abc471g::pairs
