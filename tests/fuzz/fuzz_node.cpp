// libFuzzer target: the node role driven by fuzzed event sequences (role_driver.hpp).
#include "role_driver.hpp"

using namespace tsunagi;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fuzz::fuzz_role(data, size, make_node, [](FuzzedDataProvider& in, auto cfg) {
    return StartedInput{in.ConsumeIntegralInRange<Rank>(0, cfg->processes - 1),
                        "p0",
                        "rdv",
                        "h" + std::to_string(in.ConsumeIntegralInRange(0, 3)),
                        in.ConsumeBool() ? "s0" : "",
                        cfg,
                        "",
                        0};
  });
}
