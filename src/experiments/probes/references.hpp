// Published figures beside joseki's own (issue 19): a verdict record of the Hopper probes carries
// extra.reference = {quantity, value, unit, source}, extra.joseki (the same quantity measured here),
// extra.ratio (joseki / published) and extra.comparison: "within 15 %" or the difference with the
// reason the probe can name. Sources are cited, nothing is copied; the values are the ones the
// papers state in their text, as issue 19 quotes them.
#pragma once

#include <string>

#include "measure/record.hpp"

namespace joseki::probes {

struct Published {
  std::string quantity;  // "DSMEM load latency (peer block of a cluster)"
  double value = 0;      // in `unit`
  std::string unit;      // "cycles", "% of peak", "B/s"
  std::string source;    // the citation
};

inline const char* LUO_2024 =
    "W. Luo et al., Benchmarking and Dissecting the Nvidia Hopper GPU Architecture, IPDPS 2024 / arXiv:2402.13499 "
    "(H800 PCIe)";
inline const char* LUO_2025 =
    "W. Luo et al., Dissecting the NVIDIA Hopper Architecture through Microbenchmarking and Multiple Level Analysis, "
    "arXiv:2501.12084 (2025)";
inline const char* H200_DATASHEET = "NVIDIA H200 Tensor Core GPU datasheet (SXM: 4.8 TB/s HBM3e, dense int8 1979 TOPS, "
                                    "dense bf16 989 TFLOPS)";

// "within 15 %" when |joseki / published - 1| <= 0.15, else "joseki X % above/below: <why>".
std::string comparison_text(double joseki, double published, const std::string& why_if_not);
// Adds the reference, joseki's value, the ratio and the comparison to `r` (a verdict record).
void add_reference(measure::Record& r, const Published& p, double joseki, const std::string& why_if_not);

}  // namespace joseki::probes
