// libFuzzer target: the rendezvous role driven by fuzzed event sequences (role_driver.hpp).
#include "role_driver.hpp"

using namespace tsunagi;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  fuzz::RoleDriver driver(in);
  auto cfg = driver.config();
  if (cfg->overlay.plan != PlanKind::Relay && in.ConsumeBool()) cfg->overlay.plan = PlanKind::Relay;
  std::unique_ptr<Process> role = make_rendezvous();
  driver.run(*role, StartedInput{kNoRank, "rdv", "", "rdv-host", "", cfg, "", 0});
  return 0;
}
