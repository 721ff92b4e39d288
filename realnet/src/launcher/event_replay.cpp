#include "event_replay.hpp"

#include <algorithm>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "../adapter/clock_stamp.hpp"

namespace tsunagi::realnet {
namespace {

struct Event {
  TimeNs t = 0;
  std::size_t process = 0;
  std::size_t line = 0;
  nlohmann::json body;
};

std::vector<nlohmann::json> read_lines(const std::string& file,
                                       std::vector<std::string>& problems) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(file);
  if (!in) return lines;
  std::string text;
  int number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (text.empty()) continue;
    try {
      lines.push_back(nlohmann::json::parse(text));
    } catch (const nlohmann::json::exception&) {
      // A process killed while writing leaves half a last line: that is expected, not news.
      if (in.peek() != EOF)
        problems.push_back(file + ":" + std::to_string(number) + ": not a JSON line");
    }
  }
  return lines;
}

}  // namespace

bool has_exit_event(const std::string& events_file) {
  std::vector<std::string> ignored;
  for (const auto& line : read_lines(events_file, ignored))
    if (line.value("type", "") == "exit") return true;
  return false;
}

namespace {

std::optional<ClockStamp> stamp_of(const std::vector<nlohmann::json>& lines) {
  for (const nlohmann::json& line : lines)
    if (auto stamp = parse_clock_line(line)) return stamp;
  return std::nullopt;
}

// Offset of every process's clock from the reference (rendezvous first, else the first stamp).
std::vector<TimeNs> clock_offsets(const std::vector<ProcessRecord>& processes,
                                  const std::vector<std::vector<nlohmann::json>>& files) {
  std::vector<std::optional<ClockStamp>> stamps;
  std::optional<ClockStamp> reference;
  for (std::size_t p = 0; p < processes.size(); ++p) {
    stamps.push_back(stamp_of(files[p]));
    if (stamps.back() && processes[p].label == runner::process_label(kNoRank))
      reference = stamps.back();
  }
  for (const auto& stamp : stamps)
    if (!reference && stamp) reference = stamp;
  std::vector<TimeNs> offsets;
  for (const auto& stamp : stamps)
    offsets.push_back(stamp && reference ? clock_offset(*reference, *stamp) : 0);
  return offsets;
}

}  // namespace

ReplayOutcome replay_events(const std::vector<ProcessRecord>& processes,
                            runner::RunObserver& observer) {
  ReplayOutcome outcome;
  std::vector<Event> events;
  std::map<std::string, double> counts;
  std::vector<std::vector<nlohmann::json>> files;
  for (const ProcessRecord& process : processes)
    files.push_back(read_lines(process.events_file, outcome.problems));
  const std::vector<TimeNs> offsets = clock_offsets(processes, files);
  for (std::size_t p = 0; p < processes.size(); ++p) {
    const ProcessRecord& process = processes[p];
    const auto& lines = files[p];
    bool exited = false;
    TimeNs last = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const nlohmann::json& line = lines[i];
      const std::string type = line.value("type", "");
      if (type == "count") {
        counts[line.value("key", "")] += line.value("value", 0.0);
        continue;
      }
      if (type == "message") {  // on the common clock too, but not a sign of life
        events.push_back({line.value("t_ns", TimeNs{0}) + offsets[p], p, i, line});
        continue;
      }
      if (type != "trace" && type != "report" && type != "exit") continue;
      exited = exited || type == "exit";
      last = line.value("t_ns", TimeNs{0}) + offsets[p];
      events.push_back({last, p, i, line});
    }
    if (!exited) {
      if (!process.synthesize_exit) {
        outcome.missing_exits.push_back(process.label);
        continue;
      }
      events.push_back({process.died_at == kAtLastEvent ? last : process.died_at,
                        p,
                        lines.size(),
                        {{"type", "exit"}, {"ok", process.intended}, {"reason", process.death}}});
    }
  }
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.t != b.t) return a.t < b.t;
    if (a.process != b.process) return a.process < b.process;
    return a.line < b.line;
  });
  for (const Event& event : events) {
    const std::string& proc = processes[event.process].label;
    const std::string type = event.body.value("type", "");
    if (type == "trace") {
      observer.on_trace(proc, event.t,
                        TraceCmd{event.body.value("kind", ""),
                                 event.body.value("detail", nlohmann::json::object())});
    } else if (type == "message") {
      observer.on_message(
          proc, event.t,
          runner::MessageEvent{event.body.value("delivered", false),
                               event.body.value("from", kNoRank), event.body.value("to", kNoRank),
                               event.body.value("seq", std::uint32_t{0}),
                               event.body.value("tag", std::uint32_t{0}),
                               event.body.value("bytes", std::uint64_t{0})});
    } else if (type == "report") {
      observer.on_report(
          proc, event.t,
          ReportCmd{event.body.value("key", ""), event.body.value("value", nlohmann::json())});
    } else {
      observer.on_exit(proc, event.t,
                       ExitCmd{event.body.value("ok", false), event.body.value("reason", "")});
      outcome.last_exit = std::max(outcome.last_exit, event.t);
    }
  }
  for (const auto& [key, value] : counts) observer.on_backend_count(key, value);
  return outcome;
}

}  // namespace tsunagi::realnet
