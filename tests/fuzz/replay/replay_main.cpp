// Replays fuzz inputs through a libFuzzer target without libFuzzer (ctest fuzz:replay_*): every
// file of the given folders goes once through LLVMFuzzerTestOneInput, in name order, so the
// default suite checks in seconds that no input fuzzing ever kept or found crashes again. The
// target and the core are built with AddressSanitizer and UndefinedBehaviorSanitizer (GCC), so a
// memory error or undefined behaviour ends the run as it would under the fuzzer; the target's
// own oracles abort. Fuzzing itself (new inputs) is tools/fuzz.sh, built with clang.
//
// Usage: fuzz_replay_<target> DIR...   (prints the count replayed; exit 0, or the crash)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::filesystem::path> inputs_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());  // the same order on every machine
  return files;
}

std::vector<std::uint8_t> read_all(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR...\n", argv[0]);
    return 2;
  }
  std::size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::filesystem::is_directory(argv[i])) {
      std::fprintf(stderr, "%s: not a folder: %s\n", argv[0], argv[i]);
      return 2;
    }
    for (const auto& file : inputs_in(argv[i])) {
      // Named before it runs: a crash's report then ends with the input that caused it.
      std::fprintf(stderr, "replaying %s\n", file.c_str());
      const std::vector<std::uint8_t> bytes = read_all(file);
      LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      ++replayed;
    }
  }
  std::printf("%zu inputs replayed, none crashed\n", replayed);
  return replayed > 0 ? 0 : 1;  // an empty corpus replays nothing: that is not a pass
}
