// Device pieces of the Hopper probes (issue 19), nvcc only. The default build may be a fat binary
// (sm_75 .. sm_120): code that needs sm_90 (clusters, cp.async.bulk, mbarrier tx counts,
// griddepcontrol) is compiled only in sm_90+ passes (JOSEKI_SM90_CODE) and traps elsewhere; the
// host never launches it there (measure::Needs decides first, the probe is skipped with the reason).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define JOSEKI_SM90_CODE 1
#else
#define JOSEKI_SM90_CODE 0
#endif

// The body of a kernel the host does not launch on this architecture (device passes only).
#if defined(__CUDA_ARCH__)
#define JOSEKI_NOT_HERE() __trap()
#else
#define JOSEKI_NOT_HERE() ((void)0)
#endif
