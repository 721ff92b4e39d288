// libFuzzer target: the relay role driven by fuzzed event sequences (role_driver.hpp).
#include "role_driver.hpp"

using namespace tsunagi;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  fuzz::RoleDriver driver(in);
  auto cfg = driver.config();
  if (cfg->overlay.plan != PlanKind::Relay && in.ConsumeBool()) cfg->overlay.plan = PlanKind::Relay;
  std::unique_ptr<Process> role = make_relay();
  driver.run(*role, StartedInput{kNoRank, "q0", "rdv", "s0-relay0", "s0", cfg, "", 0});
  return 0;
}
