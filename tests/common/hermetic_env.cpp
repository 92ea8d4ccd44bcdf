// The test binaries never read or write the user's state: before main(), the cost file `--solver
// auto` weighs ($JOSEKI_COSTS, else $XDG_CACHE_HOME/joseki/abc471g_costs.json) points into the
// build folder, where no test writes it. Without this a cost file left by `joseki device` or
// `joseki abc471g calibrate` (a CLI test, or the user) changed what auto chooses in the unit tests
// (CI, 2026-12-04: Abc471gPairsCosts.AutoAsksTheStateOnlyWhenItDecides chose cpu-pairs after the
// x86 stage's CLI tests had written /root/.cache/joseki/abc471g_costs.json). A test that wants a
// cost file writes its own and passes the path.
#include <cstdlib>

namespace {
const bool hermetic = [] {
  ::setenv("JOSEKI_COSTS", JOSEKI_TEST_CACHE_DIR "/absent/abc471g_costs.json", 1);
  ::setenv("XDG_CACHE_HOME", JOSEKI_TEST_CACHE_DIR, 1);
  return true;
}();
}  // namespace
