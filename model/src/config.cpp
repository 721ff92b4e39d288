// Names of config enums as they appear in scenario files and results.
#include "tsunagi/model/config.hpp"

namespace tsunagi {

const char* to_string(PlanKind plan) {
  switch (plan) {
    case PlanKind::AllToAll: return "all";
    case PlanKind::RandomK: return "random";
    case PlanKind::TopologyAware: return "topology";
  }
  return "?";
}

const char* to_string(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::None: return "none";
    case WorkloadKind::PingPong: return "pingpong";
    case WorkloadKind::IntSort: return "intsort";
  }
  return "?";
}

const char* to_string(RoutingKind kind) {
  switch (kind) {
    case RoutingKind::Rounds: return "rounds";
    case RoutingKind::FromGroups: return "groups";
  }
  return "?";
}

bool parse_routing_kind(const std::string& text, RoutingKind& out) {
  for (RoutingKind k : {RoutingKind::Rounds, RoutingKind::FromGroups}) {
    if (text == to_string(k)) {
      out = k;
      return true;
    }
  }
  return false;
}

bool parse_plan_kind(const std::string& text, PlanKind& out) {
  for (PlanKind k : {PlanKind::AllToAll, PlanKind::RandomK, PlanKind::TopologyAware}) {
    if (text == to_string(k)) {
      out = k;
      return true;
    }
  }
  return false;
}

bool parse_workload_kind(const std::string& text, WorkloadKind& out) {
  for (WorkloadKind k : {WorkloadKind::None, WorkloadKind::PingPong, WorkloadKind::IntSort}) {
    if (text == to_string(k)) {
      out = k;
      return true;
    }
  }
  return false;
}

}  // namespace tsunagi
