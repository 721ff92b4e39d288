// Replays fuzz inputs through a libFuzzer target without libFuzzer (ctest fuzz:replay_*): the
// regression inputs of this target (the files that once crashed it, tests/fuzz/regressions/
// <target>/), the files of any other folder given, then N inputs generated here, each goes once
// through LLVMFuzzerTestOneInput, so the default suite checks in seconds that no input that ever
// crashed a target crashes it again, and that a spread of other inputs does not either. The target
// and the core are built with AddressSanitizer and UndefinedBehaviorSanitizer (GCC), so a memory
// error or undefined behaviour ends the run as it would under the fuzzer; the target's own oracles
// abort. Fuzzing itself (new inputs) is tools/fuzz.sh, built with clang.
//
// The generated inputs replace the corpus libFuzzer grew, which was committed before (3,970
// files named by their hashes): they are the same bytes on every machine and every run, and
// need no files (docs/security.md, "Fuzzing").
//
// Usage: fuzz_replay_<target> [--regressions ROOT] [--generated N] [--write DIR] [FOLDER...]
//   --regressions ROOT  replay every file of ROOT/<target>/ (ROOT must exist; the folder of a
//                  target no input has crashed yet need not)
//   FOLDER         replay every file of it too (a libFuzzer corpus, say)
//   --generated N  replay N generated inputs after the files (default 0)
//   --write DIR    write the generated inputs as files into DIR instead of replaying anything
//                  (generated-<i>): to fuzz from them, or to keep one that crashed as a
//                  regression input
// Prints the count replayed; exit 0, or the crash. Nothing replayed is a failure.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "generated_inputs.hpp"

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

struct Options {
  std::size_t generated = 0;
  std::string write_to;
  std::string regressions;
  std::vector<std::string> folders;
  bool ok = true;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--generated" || arg == "--write" || arg == "--regressions") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--write")
        o.write_to = value;
      else if (arg == "--regressions")
        o.regressions = value;
      else
        o.generated = std::strtoull(value.c_str(), nullptr, 10);
    } else if (arg.rfind("--", 0) == 0) {
      o.ok = false;
    } else {
      o.folders.push_back(arg);
    }
  }
  return o;
}

int write_generated(const Options& o) {
  std::filesystem::create_directories(o.write_to);
  for (std::size_t i = 0; i < o.generated; ++i) {
    const std::vector<std::uint8_t> bytes = tsunagi::fuzz::generated_input(i);
    std::ofstream out(std::filesystem::path(o.write_to) / ("generated-" + std::to_string(i)),
                      std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  std::printf("%zu generated inputs written to %s\n", o.generated, o.write_to.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  if (!o.ok || (o.folders.empty() && o.regressions.empty() && o.generated == 0)) {
    std::fprintf(stderr,
                 "usage: %s [--regressions ROOT] [--generated N] [--write DIR] [FOLDER...]\n",
                 argv[0]);
    return 2;
  }
  if (!o.write_to.empty()) return write_generated(o);
  if (!o.regressions.empty()) {
    if (!std::filesystem::is_directory(o.regressions)) {
      std::fprintf(stderr, "%s: not a folder: %s\n", argv[0], o.regressions.c_str());
      return 2;
    }
    const auto mine = std::filesystem::path(o.regressions) / TSUNAGI_FUZZ_TARGET;
    if (std::filesystem::is_directory(mine)) o.folders.insert(o.folders.begin(), mine.string());
  }
  std::size_t files = 0;
  for (const auto& folder : o.folders) {
    if (!std::filesystem::is_directory(folder)) {
      std::fprintf(stderr, "%s: not a folder: %s\n", argv[0], folder.c_str());
      return 2;
    }
    for (const auto& file : inputs_in(folder)) {
      // Named before it runs: a crash's report then ends with the input that caused it.
      std::fprintf(stderr, "replaying %s\n", file.c_str());
      const std::vector<std::uint8_t> bytes = read_all(file);
      LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      ++files;
    }
  }
  for (std::size_t i = 0; i < o.generated; ++i) {
    const std::vector<std::uint8_t> bytes = tsunagi::fuzz::generated_input(i);
    std::fprintf(stderr, "replaying generated input %zu (%zu bytes)\n", i, bytes.size());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  std::printf("%zu inputs from files and %zu generated inputs replayed, none crashed\n", files,
              o.generated);
  return files + o.generated > 0 ? 0 : 1;  // nothing replayed: that is not a pass
}
