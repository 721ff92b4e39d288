// libFuzzer target: the relay role driven by fuzzed event sequences (role_driver.hpp).
#include "role_driver.hpp"

using namespace tsunagi;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fuzz::fuzz_role(data, size, make_relay, [](FuzzedDataProvider&, auto cfg) {
    return StartedInput{kNoRank, "q0", "rdv", "s0-relay0", "s0", cfg, "", 0};
  });
}
