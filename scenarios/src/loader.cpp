// Scenario loading: parse, apply overrides, check the shape, read each part, cross-check.
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <limits>

#include "document.hpp"
#include "error_sink.hpp"
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

// Placement against the network: the requested processes must fit into the host slots, and
// there must not be more of them than a run can hold.
void check_placement(const Section& root, const Scenario& scenario) {
  std::int64_t hosts = 0;
  for (const SwitchSpec& sw : scenario.network.switches) hosts += sw.hosts;
  std::int64_t slots = hosts * scenario.placement.procs_per_host;
  auto placement = root.sub("placement");
  const std::int64_t processes =
      scenario.placement.processes > 0 ? scenario.placement.processes : slots;
  if (processes > max_processes()) {
    const std::string message = std::to_string(processes) + " processes are more than " +
                                std::to_string(max_processes()) +
                                " (the limit of a run; TSUNAGI_MAX_PROCESSES=N raises it)";
    if (!placement) root.fail_here(message + " — add [placement] processes = N with a smaller N");
    if (scenario.placement.processes > 0)
      placement->fail("processes", message + " — lower processes");
    placement->fail("procs_per_host", message + " — lower procs_per_host, or set processes");
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
    out.uncontended_below = static_cast<std::uint64_t>(
        s->integer("uncontended_below", static_cast<std::int64_t>(out.uncontended_below), 0,
                   std::numeric_limits<std::int64_t>::max()));
    out.slow_start = s->boolean("slow_start", out.slow_start);
  }
  return out;
}

Ns3Config read_ns3(const Section& root) {
  Ns3Config out;
  if (auto s = root.sub("ns3")) {
    out.rtt_probe = s->string("rtt_probe", out.rtt_probe);
    if (out.rtt_probe != "packets" && out.rtt_probe != "route")
      s->fail("rtt_probe",
              "unknown probe mode \"" + out.rtt_probe + "\" — use \"packets\" or \"route\"");
    out.congestion = s->string("congestion", out.congestion);
    if (out.congestion != "cubic" && out.congestion != "reno")
      s->fail("congestion", "unknown congestion control \"" + out.congestion +
                                "\" — use \"cubic\" (ns-3's default) or \"reno\"");
  }
  return out;
}

// The name becomes a directory (out/<name>) when --out is not given, so it must be one plain
// path component: no separators (an absolute or ../.. name would write outside out/), not "."
// or "..", no control characters. Refused, not sanitised: a changed name would surprise.
void check_name(const Section& root, const std::string& name) {
  if (name.empty()) root.fail("name", "name is empty — give the scenario a name");
  const bool separator = name.find_first_of("/\\") != std::string::npos;
  const bool control = std::any_of(name.begin(), name.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  if (separator || name == "." || name == ".." || control || name.size() > 255) {
    root.fail("name", "name \"" + name +
                          "\" cannot name the output directory — use one plain word without "
                          "'/', '\\' or control characters, not \".\" or \"..\", e.g. name = "
                          "\"my-run\"");
  }
}

// Each table is read on its own, so that its errors are reported with the others' (issue 33);
// the checks across tables follow only when every table read cleanly (error_sink.hpp).
Scenario read_scenario(const toml::table& document, const std::string& file, ErrorSink& errors) {
  Section root(document, "", file);
  Scenario out;
  out.path = file;
  errors.part([&] {
    out.name = root.string("name", std::filesystem::path(file).stem().string());
    check_name(root, out.name);
  });
  out.description = root.string("description", "");
  out.seed = static_cast<std::uint64_t>(
      root.integer("seed", 1, 0, std::numeric_limits<std::int64_t>::max()));
  errors.part([&] { out.network = read_network(root); });
  errors.part([&] { out.placement = read_placement(root); });
  errors.part([&] { out.protocol = read_protocol(root); });
  errors.part([&] { out.simgrid = read_simgrid(root); });
  errors.part([&] { out.ns3 = read_ns3(root); });
  if (!errors.empty()) return out;
  const bool shared_segment =
      out.network.serial && out.network.serial->medium == SerialMedium::Shared;
  if (out.ns3.rtt_probe == "route" && (!out.network.clusters.empty() || shared_segment))
    root.sub("ns3")->fail("rtt_probe",
                          "rtt_probe = \"route\" reads switch trees, Dragonflies and serial links "
                          "only — use \"packets\" for WAN clusters and a shared segment");
  check_placement(root, out);
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

namespace {

std::string list_errors(const std::vector<ScenarioError>& errors, std::size_t listed) {
  std::string text;
  for (std::size_t i = 0; i < errors.size() && i < listed; ++i)
    text += (i == 0 ? "" : "\n") + std::string(errors[i].what());
  if (errors.size() > listed)
    text += "\n… and " + std::to_string(errors.size() - listed) + " more errors";
  return text;
}

}  // namespace

ScenarioErrors::ScenarioErrors(std::vector<ScenarioError> errors, std::size_t listed)
    : ScenarioError(errors.at(0)),
      errors_(std::move(errors)),
      text_(list_errors(errors_, listed)) {}

Scenario load_scenario_string(const std::string& toml_text, const std::string& name_for_errors,
                              const std::vector<std::string>& overrides) {
  toml::table document = parse_document(toml_text, name_for_errors);
  apply_overrides(document, overrides);
  ErrorSink errors;
  check_shape(document, name_for_errors);
  errors.throw_if_any();
  Scenario scenario = read_scenario(document, name_for_errors, errors);
  errors.throw_if_any();
  return scenario;
}

// Only regular files of a sane size: /dev/zero, a FIFO or a directory would be read forever
// (or block), and a huge file would be held in memory whole before the first error.
std::string read_scenario_text(const std::string& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status))
    throw ScenarioError(path, 0, 0, "cannot open the file — check the path");
  if (!std::filesystem::is_regular_file(status))
    throw ScenarioError(path, 0, 0, "is not a regular file — give a scenario file (TOML)");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error || size > kMaxScenarioFileBytes) {
    throw ScenarioError(path, 0, 0,
                        "is larger than " + std::to_string(kMaxScenarioFileBytes >> 20) +
                            " MiB — a scenario file is a few kilobytes; check the path");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path, 0, 0, "cannot open the file — check the path");
  // Read in chunks and stop past the limit: the file may have grown since it was measured.
  std::string text;
  std::array<char, 64 * 1024> chunk{};
  while (in && text.size() <= kMaxScenarioFileBytes) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw ScenarioError(path, 0, 0, "cannot read the file");
  if (text.size() > kMaxScenarioFileBytes)
    throw ScenarioError(path, 0, 0, "grew past the size limit while it was read");
  return text;
}

Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& overrides) {
  return load_scenario_string(read_scenario_text(path), path, overrides);
}

}  // namespace tsunagi::scenario
