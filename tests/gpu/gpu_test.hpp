// GPU tests skip themselves, visibly and with the reason, when no GPU is usable.
#pragma once

#include <gtest/gtest.h>

#include "backend/gpu.hpp"

#define JOSEKI_REQUIRE_GPU()                                              \
  do {                                                                    \
    const ::joseki::gpu::Availability joseki_avail_ = ::joseki::gpu::availability(); \
    if (!joseki_avail_.ok) GTEST_SKIP() << "no GPU: " << joseki_avail_.reason; \
  } while (0)
