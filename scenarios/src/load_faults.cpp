// [[faults]]: processes the backend kills at a given time (issue 6: a relay that dies is routed
// around). Labels are the ones traces use: "r<rank>", "rendezvous" or a relay host name.
#include <algorithm>

#include "readers.hpp"

namespace tsunagi::scenario {
namespace {

bool is_rank_label(const std::string& label, int processes) {
  if (label.size() < 2 || label[0] != 'r') return false;
  if (!std::all_of(label.begin() + 1, label.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  if (label.size() > 10) return false;
  return std::stoll(label.substr(1)) < processes;
}

bool known_label(const std::string& label, const Scenario& scenario) {
  if (is_rank_label(label, scenario.protocol.processes)) return true;
  const std::vector<RelaySlot> relays = relay_slots(scenario);
  return std::any_of(relays.begin(), relays.end(),
                     [&](const RelaySlot& r) { return r.host == label; });
}

std::string label_help(const Scenario& scenario) {
  std::string help = "use r0..r" + std::to_string(scenario.protocol.processes - 1);
  const std::vector<RelaySlot> relays = relay_slots(scenario);
  if (!relays.empty()) help += " or a relay such as " + relays.front().host;
  return help;
}

}  // namespace

std::vector<FaultSpec> read_faults(const Section& root, const Scenario& scenario) {
  std::vector<FaultSpec> out;
  const toml::array* items = root.table().get_as<toml::array>("faults");
  if (!items) return out;
  for (std::size_t i = 0; i < items->size(); ++i) {
    Section s(*(*items)[i].as_table(), "faults[" + std::to_string(i) + "]", root.file());
    if (!s.has("kill") || !s.has("at")) {
      s.fail_here(s.path() + " needs kill and at — write { kill = \"chiba-relay0\", at = \"2s\" }");
    }
    FaultSpec fault{s.string("kill", ""), s.duration("at", 0)};
    if (fault.kill == "rendezvous") {
      // Every rank needs it until the end: no backend can finish such a run (realnet refused
      // it at launch; the simulators ran out of events with every rank waiting).
      s.fail("kill", "the rendezvous cannot be killed: every rank needs it until the run ends — " +
                         label_help(scenario));
    }
    if (!known_label(fault.kill, scenario)) {
      s.fail("kill", "no process is labelled '" + fault.kill + "' — " + label_help(scenario));
    }
    out.push_back(std::move(fault));
  }
  return out;
}

}  // namespace tsunagi::scenario
