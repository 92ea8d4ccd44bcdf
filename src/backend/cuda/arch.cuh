// Architecture guards for device code. The default build compiles every .cu once per shipped
// architecture (sm_75 .. sm_120, CMakeLists.txt); code that uses a feature newer than the target
// is compiled only where the feature exists:
//
//   #if JOSEKI_ARCH_AT_LEAST(900)
//     ... cp.async.bulk, mbarrier tx counts, griddepcontrol ...
//   #else
//     JOSEKI_ARCH_UNSUPPORTED();   // the body of a kernel the host never launches here
//   #endif
//
// The host decides before it launches (measure/needs.hpp: a rung's Needs against the device's
// facts, a skip with the reason when unmet), so the trap is a guard and never a path: a kernel
// launched there by mistake stops with an error instead of returning a wrong answer.
// In the host pass (__CUDA_ARCH__ undefined) every branch is "available": kernel bodies are not
// compiled for the host, and the host side must see the same declarations.
#pragma once

#if !defined(__CUDA_ARCH__)
#define JOSEKI_ARCH_AT_LEAST(cc) 1
#else
#define JOSEKI_ARCH_AT_LEAST(cc) (__CUDA_ARCH__ >= (cc))
#endif

#define JOSEKI_ARCH_UNSUPPORTED() __trap()
