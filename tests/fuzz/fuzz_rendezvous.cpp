// libFuzzer target: the rendezvous role driven by fuzzed event sequences (role_driver.hpp).
#include "role_driver.hpp"

using namespace tsunagi;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fuzz::fuzz_role(data, size, make_rendezvous, [](FuzzedDataProvider&, auto cfg) {
    return StartedInput{kNoRank, "rdv", "", "rdv-host", "", cfg, "", 0};
  });
}
