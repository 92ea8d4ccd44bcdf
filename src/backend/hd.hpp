// JOSEKI_HD: a function compiled for both the host and the device. Under nvcc it is
// __host__ __device__ __forceinline__; under a host compiler (g++, and the GPU emulation the
// unit tests use) a plain inline function. The one definition: headers shared by kernels, their
// host references and tests include this.
#pragma once

#if defined(__CUDACC__)
#define JOSEKI_HD __host__ __device__ __forceinline__
#else
#define JOSEKI_HD inline
#endif
