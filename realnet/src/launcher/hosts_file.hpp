// --hosts FILE: the real machines of a cluster run, as MPI hostfiles write them.
//
//   # comment
//   node01 slots=4      four scenario hosts on node01
//   node02              one (slots=1 is the default)
//
// Scenario hosts (scenario::enumerate_hosts order) fill the machines in file order, each up to
// its slots ("by slot", as mpirun maps ranks), so 8 scenario hosts fit on `a slots=4` +
// `b slots=4`. The rendezvous runs on the first machine. docs/realnet.md, "Host files".
#pragma once

#include <string>
#include <vector>

namespace tsunagi::realnet {

struct HostLine {
  std::string name;
  int slots = 1;
  int line = 0;  // in the file, for messages
};

// Throws std::invalid_argument naming FILE:LINE for an unreadable file, an empty list, a bad
// slots= value or an unknown key.
std::vector<HostLine> read_hosts_file(const std::string& path);

// The machine of every scenario host (index = scenario host). Throws std::invalid_argument
// when the slots add up to fewer than `scenario_hosts`, saying how many are missing.
std::vector<std::string> map_scenario_hosts(const std::vector<HostLine>& machines,
                                            std::size_t scenario_hosts, const std::string& path);

}  // namespace tsunagi::realnet
