// Runs a fuzz target's LLVMFuzzerTestOneInput on every file of the given folders (the checked-in
// corpus and the crashes found, tests/fuzz/corpus/<target>/), so the normal build (g++, no
// libFuzzer) keeps every input that once crashed as a regression test.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  std::size_t n = 0;
  for (int i = 1; i < argc; ++i) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(argv[i]))
      if (e.is_regular_file()) files.push_back(e.path());
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++n;
    }
  }
  std::printf("replayed %zu inputs: no crash\n", n);
  if (n == 0) {
    std::fprintf(stderr, "no inputs found: the corpus is missing\n");
    return 1;
  }
  return 0;
}
