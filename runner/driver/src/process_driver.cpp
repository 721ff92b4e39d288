// Which process each role runs. See process_driver.hpp.
#include "tsunagi/runner/driver/process_driver.hpp"

#include <set>
#include <stdexcept>

#include "tsunagi/model/roles.hpp"

namespace tsunagi::runner {

std::unique_ptr<Process> ProcessFactories::make(const ProcessRow& row) const {
  switch (row.role) {
    case Role::Node:
      return node ? node(row.rank) : make_node();
    case Role::Rendezvous:
      return rendezvous ? rendezvous() : make_rendezvous();
    case Role::Relay:
      return relay ? relay(row.host) : make_relay();
  }
  throw std::logic_error("process table: unknown role of " + row.label);
}

void claim_world_once(const std::string& run_function) {
  static std::set<std::string> claimed;
  if (!claimed.insert(run_function).second)
    throw std::logic_error(run_function + " runs once per OS process; start a new process per run");
}

}  // namespace tsunagi::runner
