// dynlib: the run-time loader behind NCCL and cuBLASLt (search order, refusals, plain reasons).
#include <gtest/gtest.h>

#include <cstdlib>

#include "backend/dynlib.hpp"

namespace dl = joseki::dynlib;

TEST(Dynlib, EnvironmentPathComesFirst) {
  setenv("JOSEKI_TEST_DYNLIB", "/nowhere/libx.so.1", 1);
  const auto c = dl::candidates("libx.so.1", "JOSEKI_TEST_DYNLIB", {"cu13"});
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c[0], "/nowhere/libx.so.1");
  EXPECT_EQ(c[1], "libx.so.1");  // then the loader's own search
  unsetenv("JOSEKI_TEST_DYNLIB");
  EXPECT_EQ(dl::candidates("libx.so.1", "JOSEKI_TEST_DYNLIB", {})[0], "libx.so.1");
}

TEST(Dynlib, MissingLibraryIsAPlainReason) {
  std::string why;
  const dl::Library l = dl::open_first("libjoseki-missing.so.7", "JOSEKI_TEST_DYNLIB", {"cu13"},
                                       [](void*, std::string*) { return true; }, &why);
  EXPECT_EQ(l.handle, nullptr);
  EXPECT_NE(why.find("libjoseki-missing.so.7 not found"), std::string::npos) << why;
  EXPECT_NE(why.find("JOSEKI_TEST_DYNLIB"), std::string::npos) << why;
}

TEST(Dynlib, AcceptResolvesSymbolsOrRefuses) {
  using Cos = double (*)(double);
  Cos f = nullptr;
  std::string why;
  const dl::Library l = dl::open_first("libm.so.6", nullptr, {},
                                       [&](void* h, std::string*) { return dl::symbol(h, "cos", f); }, &why);
  ASSERT_NE(l.handle, nullptr) << why;
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f(0.0), 1.0);
  const dl::Library refused = dl::open_first(
      "libm.so.6", nullptr, {},
      [](void* h, std::string* r) {
        Cos g = nullptr;
        if (dl::symbol(h, "joseki_no_such_symbol", g)) return true;
        *r = "lacks joseki_no_such_symbol";
        return false;
      },
      &why);
  EXPECT_EQ(refused.handle, nullptr);
  EXPECT_NE(why.find("lacks joseki_no_such_symbol"), std::string::npos) << why;
}
