// The runner's RunObserver: keeps everything a backend reports during one run, in arrival
// order, so result.json and trace.jsonl can be written from it afterwards.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tsunagi/runner/driver/observer.hpp"

namespace tsunagi::runner {

// One protocol decision as it appears in trace.jsonl.
struct TraceLine {
  std::string proc;       // process_label() of the deciding process
  std::uint64_t seq = 0;  // per-process decision number, from 0
  std::string kind;
  nlohmann::json detail;
  TimeNs t_ns = 0;  // backend time; never compared by `tsunagi compare`
};

struct ReportEntry {
  std::string proc;
  TimeNs t_ns = 0;
  std::string key;
  nlohmann::json value;
};

struct ExitEntry {
  std::string proc;
  TimeNs t_ns = 0;
  bool ok = true;
  std::string reason;
};

// One workload message as messages.csv has it: sent_ns and received_ns on the run's clock,
// received_ns -1 when its arrival was not seen (lost, or after its receiver stopped watching).
struct MessageLine {
  Rank from = kNoRank;
  Rank to = kNoRank;
  std::uint32_t seq = 0;
  std::uint32_t tag = 0;
  std::uint64_t bytes = 0;
  TimeNs sent_ns = -1;
  TimeNs received_ns = -1;
};

class Recorder final : public RunObserver {
 public:
  using ProgressSink = std::function<void(const std::string&)>;

  Recorder() = default;
  // `progress` receives every on_progress message; empty = drop them.
  explicit Recorder(ProgressSink progress) : progress_(std::move(progress)) {}

  void on_trace(const std::string& proc, TimeNs now, const TraceCmd& trace) override;
  void on_report(const std::string& proc, TimeNs now, const ReportCmd& report) override;
  void on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) override;
  void on_backend_count(const std::string& key, double value) override;
  void on_progress(const std::string& message) override;
  // Pairs each message's departure and arrival, in whichever order they come (a realnet run's
  // events come from many clocks); keeps at most kMessagesMax messages (message_tap.hpp).
  void on_message(const std::string& proc, TimeNs now, const MessageEvent& event) override;

  const std::vector<TraceLine>& trace() const { return trace_; }
  // The messages whose departure was seen, in the order they left.
  std::vector<MessageLine> messages() const;
  const std::vector<ReportEntry>& reports() const { return reports_; }
  const std::vector<ExitEntry>& exits() const { return exits_; }
  // Later counts for the same key overwrite earlier ones.
  const std::map<std::string, double>& backend_counts() const { return backend_counts_; }

  // trace.jsonl: one compact object per line, keys always in the order proc, seq, kind, detail,
  // t_ns, so the same run gives the same bytes.
  void write_trace(std::ostream& out) const;

 private:
  ProgressSink progress_;
  std::vector<TraceLine> trace_;
  std::unordered_map<std::string, std::uint64_t> next_seq_;
  std::vector<ReportEntry> reports_;
  std::vector<ExitEntry> exits_;
  std::map<std::string, double> backend_counts_;
  std::vector<MessageLine> messages_;
  std::map<std::pair<Rank, std::uint32_t>, std::size_t> message_index_;  // (from, seq)
};

// The trace.jsonl form of one line, without the newline.
std::string trace_line_json(const TraceLine& line);

}  // namespace tsunagi::runner
