// dlopen with a search path (dynlib.hpp).
#include "backend/dynlib.hpp"

#include <dlfcn.h>
#include <glob.h>

#include <cstdlib>

namespace joseki::dynlib {

std::vector<std::string> candidates(const std::string& soname, const char* env_var,
                                    const std::vector<std::string>& wheel_subdirs) {
  std::vector<std::string> c;
  if (env_var)
    if (const char* e = std::getenv(env_var); e && *e) c.emplace_back(e);
  c.push_back(soname);
  std::vector<std::string> patterns = {"/usr/local/cuda/lib64/" + soname, "/usr/local/cuda-*/lib64/" + soname,
                                       "/usr/local/cuda-*/targets/x86_64-linux/lib/" + soname,
                                       "/usr/local/cuda-*/targets/sbsa-linux/lib/" + soname,  // arm64 servers
                                       "/usr/lib/x86_64-linux-gnu/" + soname, "/usr/lib/aarch64-linux-gnu/" + soname};
  for (const std::string& sub : wheel_subdirs)
    for (const char* site : {"/opt/*/.venv/lib/python3*/site-packages", "/usr/local/lib/python3*/dist-packages",
                             "/usr/local/lib/python3*/site-packages", "/usr/lib/python3/dist-packages",
                             "/root/.local/lib/python3*/site-packages"})
      patterns.push_back(std::string(site) + "/nvidia/" + sub + "/lib/" + soname);
  for (const std::string& p : patterns) {
    glob_t g{};
    if (glob(p.c_str(), 0, nullptr, &g) == 0)
      for (std::size_t i = 0; i < g.gl_pathc; ++i) c.emplace_back(g.gl_pathv[i]);
    globfree(&g);
  }
  return c;
}

Library open_first(const std::string& soname, const char* env_var, const std::vector<std::string>& wheel_subdirs,
                   const std::function<bool(void*, std::string*)>& accept, std::string* why) {
  std::string tried, refused;
  for (const std::string& path : candidates(soname, env_var, wheel_subdirs)) {
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      tried += (tried.empty() ? "" : ", ") + path;
      continue;
    }
    std::string reason;
    if (accept(h, &reason)) return Library{h, path};
    refused = path + ": " + reason;
    dlclose(h);
  }
  if (why)
    *why = !refused.empty() ? refused
                            : soname + " not found (tried " + tried +
                                  (env_var ? std::string("; set ") + env_var + " to its path)" : std::string(")"));
  return {};
}

}  // namespace joseki::dynlib
