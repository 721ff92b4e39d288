// The human summary of one run.
#include "summary.hpp"

#include <cmath>
#include <cstdio>

#include "tsunagi/runner/results/result.hpp"
#include "tsunagi/runner/results/verdicts.hpp"

namespace tsunagi::app {

namespace {

using nlohmann::ordered_json;

const ordered_json& at(const ordered_json& result, const std::string& dotted) {
  static const ordered_json null_value;
  const ordered_json* value = runner::find_dotted(result, dotted);
  return value != nullptr ? *value : null_value;
}

// Any value as a short word; "?" marks what the run did not report.
std::string text(const ordered_json& value) {
  if (value.is_null()) return "?";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float()) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", value.get<double>());
    return buffer;
  }
  return value.dump();
}

// "; tree correct (2072 throughput probes)" when the run inferred a switch tree.
std::string tree_words(const ordered_json& r) {
  const ordered_json& correct = at(r, "inference.tree_correct");
  if (!correct.is_boolean()) return "";
  return std::string("; tree ") + (correct.get<bool>() ? "correct" : "WRONG") + " (" +
         text(at(r, "inference.throughput_probes")) + " throughput probes)";
}

// Says where the groups came from: inferred from RTTs (and whether right), taken from site
// labels (relay plan), or not run at all (a plan that needs no groups).
std::string inference_line(const ordered_json& r) {
  std::string verdict = runner::groups_verdict(r);
  const std::string truth = text(at(r, "inference.true_groups_count")) + " true switch groups";
  if (verdict == "not run") return "not run (this plan needs no switch groups); " + truth;
  if (verdict == "from site labels")
    return text(at(r, "inference.groups_count")) +
           " groups from site labels (the relay plan groups ranks by site, no RTT inference); " +
           truth;
  // A wrong answer where none can be right is said so: it does not fail the run.
  const ordered_json* not_judged = runner::find_dotted(r, "inference.groups_not_judged");
  if (verdict == "WRONG" && not_judged != nullptr && not_judged->is_string())
    verdict += ", not judged: " + not_judged->get<std::string>();
  return text(at(r, "inference.groups_count")) + " switch groups inferred, " +
         text(at(r, "inference.true_groups_count")) + " true: " + verdict + " (" +
         text(at(r, "inference.rtt_probes")) + " RTT probes)" + tree_words(r);
}

// Ranks that forwarded, and (relay plan) what the relay daemons carried.
std::string messages_line(const ordered_json& r) {
  std::string line = "sent " + text(at(r, "messages.sent")) + ", delivered " +
                     text(at(r, "messages.delivered")) + ", relayed by ranks " +
                     text(at(r, "messages.relayed"));
  const ordered_json& carried = at(r, "relay.carried");
  if (carried.is_number())
    line += "; relay daemons carried " + text(carried) + " (" + text(at(r, "relay.forwarded")) +
            " relay-to-relay hops)";
  return line;
}

std::string connections_line(const ordered_json& r) {
  return "per node max " + text(at(r, "connections.max_per_node")) + ", mean " +
         text(at(r, "connections.mean_per_node")) + "; total " + text(at(r, "connections.total")) +
         " (static " + text(at(r, "connections.static")) + "); shortcuts opened " +
         text(at(r, "connections.shortcuts_opened")) + ", evicted " +
         text(at(r, "connections.shortcuts_evicted"));
}

// Real sockets measure time; simulators compute it. The summary says which.
const char* time_kind(const ordered_json& r) {
  return text(at(r, "backend")) == "realnet" ? "measured" : "simulated";
}

// Only for runs of the connectivity workload: "connectivity 462 of 462 ordered pairs, ...".
std::string connectivity_line(const ordered_json& r) {
  const ordered_json& connected = at(r, "relay.pairs_connected");
  if (!connected.is_number()) return "";
  std::string line = "connectivity " + text(connected) + " of " + text(at(r, "relay.pairs_total")) +
                     " ordered pairs reached";
  const ordered_json& forbidden = at(r, "relay.forbidden_pairs");
  if (forbidden.is_number())
    line += "; " + text(forbidden) + " forbidden by the policies, unreached = forbidden: " +
            text(at(r, "relay.unreached_match_policy"));
  return line + '\n';
}

// "×50" when realnet emulation multiplied every latency (result.json latency_scale), else "".
std::string latency_scale_words(const ordered_json& r) {
  const ordered_json& scale = at(r, "latency_scale");
  if (!scale.is_number()) return "";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "×%g", scale.get<double>());
  return buffer;
}

// ", latencies scaled ×50 by the emulation" on the backend line, or "".
std::string scale_note(const ordered_json& r) {
  const std::string scale = latency_scale_words(r);
  return scale.empty() ? "" : ", latencies scaled " + scale + " by the emulation";
}

// The makespan of a run with scaled latencies is that much longer than the scenario's: said
// beside it, with the makespan divided by the scale (only latency was scaled, so it is near,
// not equal to, what a simulator computes).
std::string scaled_makespan_words(const ordered_json& r) {
  const std::string scale = latency_scale_words(r);
  if (scale.empty()) return "";
  const ordered_json& unscaled = at(r, "workload.makespan_unscaled_s");
  return " with latencies " + scale +
         (unscaled.is_number() ? " (÷ scale: " + format_seconds(unscaled.get<double>()) + ")" : "");
}

std::string workload_line(const ordered_json& r) {
  std::string line = text(at(r, "workload.name"));
  if (line == "none") return line;
  const ordered_json& makespan = at(r, "workload.makespan_s");
  line += ": makespan " + (makespan.is_number() ? format_seconds(makespan.get<double>()) : "?") +
          " " + time_kind(r) + scaled_makespan_words(r) + ", ";
  const ordered_json& verified = at(r, "workload.verified");
  line += verified.is_boolean() ? (verified.get<bool>() ? "verified" : "NOT VERIFIED")
                                : "verification ?";
  return line;
}

std::string seconds_text(const ordered_json& value) {
  return value.is_number() ? format_seconds(value.get<double>()) : "?";
}

}  // namespace

std::string format_seconds(double seconds) {
  char buffer[48];
  const double magnitude = std::fabs(seconds);
  if (magnitude >= 1.0 || magnitude == 0.0) {
    std::snprintf(buffer, sizeof buffer, "%.3f s", seconds);
  } else if (magnitude >= 1e-3) {
    std::snprintf(buffer, sizeof buffer, "%.3f ms", seconds * 1e3);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3f us", seconds * 1e6);
  }
  return buffer;
}

void print_run_summary(std::ostream& out, const ordered_json& r,
                       const std::filesystem::path& result_file,
                       const std::filesystem::path& trace_file,
                       const std::vector<std::filesystem::path>& more_files,
                       const std::vector<std::string>& notes) {
  out << "scenario     " << text(at(r, "scenario")) << " (" << text(at(r, "scenario_path")) << ")\n"
      << "backend      " << text(at(r, "backend")) << ", seed " << text(at(r, "seed")) << ", "
      << text(at(r, "processes")) << " processes" << scale_note(r) << '\n'
      << "inference    " << inference_line(r) << '\n'
      << "connections  " << connections_line(r) << '\n'
      << "messages     " << messages_line(r) << '\n'
      << "workload     " << workload_line(r) << '\n'
      << connectivity_line(r) << "time         " << time_kind(r) << " "
      << seconds_text(at(r, "simulated_end_s")) << ", wall " << seconds_text(at(r, "wall_s"))
      << '\n'
      << "files        " << result_file.string() << '\n'
      << "             " << trace_file.string() << '\n';
  for (const auto& file : more_files) out << "             " << file.string() << '\n';
  for (const auto& note : notes) out << "note         " << note << '\n';
  const ordered_json& problems = at(r, "problems");
  if (at(r, "ok") == true) {
    out << "result       ok\n";
  } else {
    out << "result       FAILED (" << problems.size() << " problem"
        << (problems.size() == 1 ? "" : "s") << ", listed on stderr)\n";
  }
}

}  // namespace tsunagi::app
