// Names of config enums as they appear in scenario files and results; the host costs' arithmetic.
#include "tsunagi/model/config.hpp"

#include <algorithm>
#include <cmath>

namespace tsunagi {

const char* to_string(PlanKind plan) {
  switch (plan) {
    case PlanKind::AllToAll:
      return "all";
    case PlanKind::RandomK:
      return "random";
    case PlanKind::TopologyAware:
      return "topology";
    case PlanKind::Relay:
      return "relay";
    case PlanKind::Hierarchical:
      return "hierarchical";
  }
  return "?";
}

const char* to_string(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::None:
      return "none";
    case WorkloadKind::PingPong:
      return "pingpong";
    case WorkloadKind::IntSort:
      return "intsort";
    case WorkloadKind::Connectivity:
      return "connectivity";
    case WorkloadKind::Multicast:
      return "multicast";
    case WorkloadKind::Lmmc:
      return "lmmc";
    case WorkloadKind::Indices:
      return "indices";
  }
  return "?";
}

const char* to_string(WindowMode mode) {
  switch (mode) {
    case WindowMode::Default:
      return "default";
    case WindowMode::Fixed:
      return "fixed";
    case WindowMode::Auto:
      return "auto";
  }
  return "?";
}

const char* to_string(RoutingKind kind) {
  switch (kind) {
    case RoutingKind::Rounds:
      return "rounds";
    case RoutingKind::FromGroups:
      return "groups";
    case RoutingKind::Direct:
      return "direct";
  }
  return "?";
}

bool parse_routing_kind(const std::string& text, RoutingKind& out) {
  for (RoutingKind k : {RoutingKind::Rounds, RoutingKind::FromGroups, RoutingKind::Direct}) {
    if (text == to_string(k)) {
      out = k;
      return true;
    }
  }
  return false;
}

const char* to_string(DirectoryMode mode) {
  switch (mode) {
    case DirectoryMode::Full:
      return "full";
    case DirectoryMode::OnDemand:
      return "on_demand";
  }
  return "?";
}

bool parse_directory_mode(const std::string& text, DirectoryMode& out) {
  for (DirectoryMode m : {DirectoryMode::Full, DirectoryMode::OnDemand}) {
    if (text == to_string(m)) {
      out = m;
      return true;
    }
  }
  return false;
}

const char* to_string(TreeMethod method) {
  switch (method) {
    case TreeMethod::None:
      return "none";
    case TreeMethod::Exact:
      return "exact";
    case TreeMethod::Rtt:
      return "rtt";
    case TreeMethod::Partition:
      return "partition";
  }
  return "?";
}

bool parse_tree_method(const std::string& text, TreeMethod& out) {
  for (TreeMethod m :
       {TreeMethod::None, TreeMethod::Exact, TreeMethod::Rtt, TreeMethod::Partition}) {
    if (text == to_string(m)) {
      out = m;
      return true;
    }
  }
  return false;
}

const char* to_string(GroupMethod method) {
  switch (method) {
    case GroupMethod::Leaders:
      return "leaders";
    case GroupMethod::Partition:
      return "partition";
    case GroupMethod::AllPairs:
      break;
  }
  return "all_pairs";
}

bool parse_group_method(const std::string& text, GroupMethod& out) {
  for (GroupMethod m : {GroupMethod::AllPairs, GroupMethod::Leaders, GroupMethod::Partition}) {
    if (text == to_string(m)) {
      out = m;
      return true;
    }
  }
  return false;
}

bool parse_plan_kind(const std::string& text, PlanKind& out) {
  for (PlanKind k : {PlanKind::AllToAll, PlanKind::RandomK, PlanKind::TopologyAware,
                     PlanKind::Relay, PlanKind::Hierarchical}) {
    if (text == to_string(k)) {
      out = k;
      return true;
    }
  }
  return false;
}

bool parse_workload_kind(const std::string& text, WorkloadKind& out) {
  for (WorkloadKind k : {WorkloadKind::None, WorkloadKind::PingPong, WorkloadKind::IntSort,
                         WorkloadKind::Connectivity, WorkloadKind::Multicast, WorkloadKind::Lmmc,
                         WorkloadKind::Indices}) {
    if (text == to_string(k)) {
      out = k;
      return true;
    }
  }
  return false;
}

namespace {

// a + b for costs, both >= 0: capped at kMaxCostNs instead of overflowing.
TimeNs add_costs(TimeNs a, TimeNs b) {
  const TimeNs cap = CostConfig::kMaxCostNs;
  return a >= cap - std::min(b, cap) ? cap : a + b;
}

}  // namespace

// In double: bytes up to 2^64 over a rate of 125 B/s and more is at most ~1.5e26 ns, finite,
// and the cap keeps the result representable.
TimeNs CostConfig::copy_time(std::uint64_t bytes) const {
  if (copy_bandwidth <= 0 || bytes == 0) return 0;
  const double ns = std::round(static_cast<double>(bytes) / copy_bandwidth * 1e9);
  return ns >= static_cast<double>(kMaxCostNs) ? kMaxCostNs : static_cast<TimeNs>(ns);
}

TimeNs CostConfig::send_cost(std::uint64_t bytes) const {
  return add_costs(send_overhead, copy_time(bytes));
}

TimeNs CostConfig::receive_cost(std::uint64_t bytes) const {
  return add_costs(receive_overhead, copy_time(bytes));
}

}  // namespace tsunagi
