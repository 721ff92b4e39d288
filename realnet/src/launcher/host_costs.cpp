// Host costs on realnet: zeroed for the daemons, said once, recorded. See host_costs.hpp.
#include "host_costs.hpp"

#include <sstream>

namespace tsunagi::realnet {
namespace {

constexpr const char* kPrefix = "host_costs_not_added.";

// "2 GB/s", "850 MB/s": as a scenario would write it, not 2e+09.
std::string rate_text(double bytes_per_second) {
  std::ostringstream text;
  if (bytes_per_second >= 1e9) {
    text << bytes_per_second / 1e9 << " GB/s";
  } else if (bytes_per_second >= 1e6) {
    text << bytes_per_second / 1e6 << " MB/s";
  } else {
    text << bytes_per_second << " B/s";
  }
  return text.str();
}

}  // namespace

std::vector<std::string> host_cost_zeroing(const CostConfig& costs) {
  if (!costs.host_costs()) return {};
  return {"protocol.costs.send_overhead=0s", "protocol.costs.receive_overhead=0s",
          "protocol.costs.copy_bandwidth=0"};
}

std::string host_costs_note(const CostConfig& costs) {
  if (!costs.host_costs()) return "";
  std::ostringstream line;
  line << "host costs are the machine's own on realnet: send_overhead "
       << static_cast<double>(costs.send_overhead) / 1e3 << " us, receive_overhead "
       << static_cast<double>(costs.receive_overhead) / 1e3 << " us, copy_bandwidth ";
  line << (costs.copy_bandwidth > 0 ? rate_text(costs.copy_bandwidth) : "0 (free)");
  line << " not added (the daemons run with them at 0; result.json host_costs_not_added)";
  return line.str();
}

nlohmann::json host_costs_json(const CostConfig& costs) {
  if (!costs.host_costs()) return nullptr;
  return {{"send_overhead_ns", costs.send_overhead},
          {"receive_overhead_ns", costs.receive_overhead},
          {"copy_bandwidth_Bps", costs.copy_bandwidth}};
}

void report_host_costs(const nlohmann::json& left_out, runner::RunObserver& observer) {
  if (!left_out.is_object()) return;
  for (const auto& [key, value] : left_out.items())
    if (value.is_number()) observer.on_backend_count(kPrefix + key, value.get<double>());
}

}  // namespace tsunagi::realnet
