// The driver's cuTensorMapEncodeTiled (TMA tensor maps), reached through the runtime's entry-point
// query: joseki links no libcuda, so a driver without the call is a plain "unavailable" with the reason.
// Used by the tma probe's tensor copies and by r13's wgmma combine (gpu_pairs/sm90a).
#pragma once

#include <cuda.h>

#include <string>

namespace joseki::cuda {

using TensorMapEncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                          const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                          CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// The encoder, looked up once per process; nullptr (and *why set) when the driver has none.
TensorMapEncodeTiled tensor_map_encoder(std::string* why);

}  // namespace joseki::cuda
