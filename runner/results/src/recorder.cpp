// Recorder: the in-memory log of one run, and its trace.jsonl form.
#include "tsunagi/runner/results/recorder.hpp"

#include <algorithm>
#include <iterator>
#include <ostream>

#include "tsunagi/runner/driver/message_tap.hpp"

namespace tsunagi::runner {

namespace {

// Protocol details may carry bytes from the wire; a bad UTF-8 sequence must not abort the
// whole output, so it is replaced rather than thrown.
std::string dump_compact(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

void Recorder::on_trace(const std::string& proc, TimeNs now, const TraceCmd& trace) {
  std::uint64_t& seq = next_seq_[proc];
  trace_.push_back(TraceLine{proc, seq, trace.kind, trace.detail, now});
  ++seq;
}

void Recorder::on_report(const std::string& proc, TimeNs now, const ReportCmd& report) {
  reports_.push_back(ReportEntry{proc, now, report.key, report.value});
}

void Recorder::on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) {
  exits_.push_back(ExitEntry{proc, now, exit.ok, exit.reason});
}

void Recorder::on_backend_count(const std::string& key, double value) {
  backend_counts_[key] = value;
}

void Recorder::on_progress(const std::string& message) {
  if (progress_) progress_(message);
}

void Recorder::on_message(const std::string& /*proc*/, TimeNs now, const MessageEvent& event) {
  auto [it, fresh] = message_index_.try_emplace({event.from, event.seq}, messages_.size());
  if (fresh) {
    if (messages_.size() == kMessagesMax) {
      message_index_.erase(it);
      return;
    }
    messages_.push_back({event.from, event.to, event.seq, event.tag, event.bytes});
  }
  MessageLine& line = messages_[it->second];
  (event.delivered ? line.received_ns : line.sent_ns) = now;
}

std::vector<MessageLine> Recorder::messages() const {
  std::vector<MessageLine> sent;
  std::copy_if(messages_.begin(), messages_.end(), std::back_inserter(sent),
               [](const MessageLine& line) { return line.sent_ns >= 0; });
  std::stable_sort(sent.begin(), sent.end(), [](const MessageLine& a, const MessageLine& b) {
    return a.sent_ns < b.sent_ns;
  });
  return sent;
}

void Recorder::write_trace(std::ostream& out) const {
  for (const TraceLine& line : trace_) out << trace_line_json(line) << '\n';
}

// Built by hand rather than through a json object: nlohmann::json sorts keys, and the fixed
// order proc, seq, kind, detail, t_ns keeps the file readable as well as deterministic.
std::string trace_line_json(const TraceLine& line) {
  std::string text;
  text.reserve(64 + line.kind.size());
  text += "{\"proc\":";
  text += dump_compact(line.proc);
  text += ",\"seq\":";
  text += std::to_string(line.seq);
  text += ",\"kind\":";
  text += dump_compact(line.kind);
  text += ",\"detail\":";
  text += dump_compact(line.detail);
  text += ",\"t_ns\":";
  text += std::to_string(line.t_ns);
  text += '}';
  return text;
}

}  // namespace tsunagi::runner
