// Scenario loading: parse, apply overrides, check the shape, read each part, cross-check.
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "document.hpp"
#include "readers.hpp"

namespace tsunagi::scenario {
namespace {

std::string locate(const std::string& file, int line, int column) {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// Network models SimGrid 3.3x accepts for network/model; a typo would otherwise surface as a
// SimGrid abort long after loading.
bool known_network_model(const std::string& model) {
  for (const char* known : {"LV08", "CM02", "SMPI", "IB", "Constant"}) {
    if (model == known) return true;
  }
  return false;
}

Placement read_placement(const Section& root) {
  Placement out;
  if (auto s = root.sub("placement")) {
    out.procs_per_host = s->count("procs_per_host", out.procs_per_host, 1);
    out.processes = s->count("processes", out.processes, 0);
  }
  return out;
}

// Placement against the network: the requested processes must fit into the host slots.
void check_placement(const Section& root, const Scenario& scenario) {
  std::int64_t hosts = 0;
  for (const SwitchSpec& sw : scenario.network.switches) hosts += sw.hosts;
  std::int64_t slots = hosts * scenario.placement.procs_per_host;
  auto placement = root.sub("placement");
  if (slots > kMaxProcesses) {
    placement->fail("procs_per_host", std::to_string(slots) + " processes are more than " +
                                          std::to_string(kMaxProcesses) +
                                          " — lower procs_per_host");
  }
  if (scenario.placement.processes > slots) {
    placement->fail("processes", "processes = " + std::to_string(scenario.placement.processes) +
                                     " but the network has only " + std::to_string(slots) +
                                     " slots (" + std::to_string(hosts) + " hosts × " +
                                     std::to_string(scenario.placement.procs_per_host) +
                                     " per host) — lower it, or use 0 for every slot");
  }
}

SimgridConfig read_simgrid(const Section& root) {
  SimgridConfig out;
  if (auto s = root.sub("simgrid")) {
    out.network_model = s->string("network_model", out.network_model);
    if (!known_network_model(out.network_model)) {
      s->fail("network_model", "unknown SimGrid network model \"" + out.network_model +
                                   "\" — use \"CM02\", \"LV08\", \"SMPI\", \"IB\" or \"Constant\"");
    }
    out.host_speed = s->number("host_speed", out.host_speed, 1, std::numeric_limits<double>::max());
    out.rtt_probe = s->string("rtt_probe", out.rtt_probe);
    if (out.rtt_probe != "flow" && out.rtt_probe != "route") {
      s->fail("rtt_probe",
              "unknown probe mode \"" + out.rtt_probe + "\" — use \"flow\" or \"route\"");
    }
    out.latency_only_below = static_cast<std::uint64_t>(
        s->integer("latency_only_below", static_cast<std::int64_t>(out.latency_only_below), 0,
                   std::numeric_limits<std::int64_t>::max()));
  }
  return out;
}

Scenario read_scenario(const toml::table& document, const std::string& file) {
  Section root(document, "", file);
  Scenario out;
  out.path = file;
  out.name = root.string("name", std::filesystem::path(file).stem().string());
  if (out.name.empty()) root.fail("name", "name is empty — give the scenario a name");
  out.description = root.string("description", "");
  out.seed = static_cast<std::uint64_t>(
      root.integer("seed", 1, 0, std::numeric_limits<std::int64_t>::max()));
  out.network = read_network(root);
  out.placement = read_placement(root);
  check_placement(root, out);
  out.protocol = read_protocol(root);
  out.simgrid = read_simgrid(root);
  out.protocol.processes = process_count(out);
  out.protocol.seed = out.seed;
  out.protocol.relays = static_cast<int>(relay_slots(out).size());
  check_workload(root, out.protocol, out.protocol.processes);
  check_relay_plan(root, out.protocol, !out.network.clusters.empty());
  out.faults = read_faults(root, out);
  return out;
}

}  // namespace

ScenarioError::ScenarioError(std::string file, int line, int column, const std::string& message)
    : std::runtime_error(locate(file, line, column) + ": " + message),
      file_(std::move(file)),
      line_(line),
      column_(column),
      message_(message) {}

Scenario load_scenario_string(const std::string& toml_text, const std::string& name_for_errors,
                              const std::vector<std::string>& overrides) {
  toml::table document = parse_document(toml_text, name_for_errors);
  apply_overrides(document, overrides);
  check_shape(document, name_for_errors);
  return read_scenario(document, name_for_errors);
}

Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path, 0, 0, "cannot open the file — check the path");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path, 0, 0, "cannot read the file");
  return load_scenario_string(text.str(), path, overrides);
}

}  // namespace tsunagi::scenario
