// Host files with slots. See hosts_file.hpp.
#include "hosts_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tsunagi::realnet {

namespace {

constexpr int kMaxSlots = 1 << 16;

int parse_slots(const std::string& value, const std::string& where) {
  std::size_t used = 0;
  int slots = 0;
  try {
    slots = std::stoi(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || slots < 1 || slots > kMaxSlots)
    throw std::invalid_argument(where + ": slots=" + value + " is not a whole number in 1.." +
                                std::to_string(kMaxSlots) + " (e.g. 'node01 slots=4')");
  return slots;
}

}  // namespace

std::vector<HostLine> read_hosts_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("--hosts " + path + ": cannot read the file");
  std::vector<HostLine> hosts;
  std::string text;
  int number = 0;
  while (std::getline(in, text)) {
    ++number;
    const std::string where = path + ":" + std::to_string(number);
    std::istringstream words(text.substr(0, text.find('#')));
    HostLine host;
    host.line = number;
    if (!(words >> host.name)) continue;
    if (host.name[0] == '-')  // ssh would read it as an option (-oProxyCommand=... runs a command)
      throw std::invalid_argument(where + ": '" + host.name +
                                  "' is not a host name (it starts with '-'); a line is 'HOST' "
                                  "or 'HOST slots=N'");
    std::string word;
    while (words >> word) {
      // Open MPI's max_slots / max-slots bound oversubscription,
      // which a tsunagi run never does, so they are accepted and ignored.
      const auto eq = word.find('=');
      const std::string key = word.substr(0, eq);
      if (eq == std::string::npos || (key != "slots" && key != "max_slots" && key != "max-slots"))
        throw std::invalid_argument(where + ": '" + word +
                                    "' is not understood; a line is 'HOST' or 'HOST slots=N'");
      if (key == "slots") host.slots = parse_slots(word.substr(eq + 1), where);
    }
    hosts.push_back(host);
  }
  if (hosts.empty())
    throw std::invalid_argument("--hosts " + path +
                                ": no host names (one per line, 'HOST slots=N', '#' comments)");
  return hosts;
}

std::vector<std::string> map_scenario_hosts(const std::vector<HostLine>& machines,
                                            std::size_t scenario_hosts, const std::string& path) {
  std::vector<std::string> machine_of;
  machine_of.reserve(scenario_hosts);
  for (const HostLine& machine : machines)
    for (int s = 0; s < machine.slots && machine_of.size() < scenario_hosts; ++s)
      machine_of.push_back(machine.name);
  if (machine_of.size() < scenario_hosts)
    throw std::invalid_argument(
        "--hosts " + path + " has " + std::to_string(machine_of.size()) +
        " slots; the scenario has " + std::to_string(scenario_hosts) +
        " hosts (add machines or raise slots=N: one slot per scenario host)");
  return machine_of;
}

}  // namespace tsunagi::realnet
