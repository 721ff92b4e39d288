// What a backend tells the runner while a run goes on. Every backend calls these in the order
// the events happen in its world; the runner turns them into trace.jsonl and result.json.
#pragma once

#include <cstdint>
#include <string>

#include "tsunagi/model/io.hpp"

namespace tsunagi::runner {

// One workload message seen on the wire (message_tap.hpp): it left its sender (`delivered` =
// false, at the time the sender's core handed its last byte to the backend) or it reached its
// destination (true, at the time its last byte arrived there). `seq` numbers the sender's
// messages, so (from, seq) names one message on every backend.
struct MessageEvent {
  bool delivered = false;
  Rank from = kNoRank;
  Rank to = kNoRank;
  std::uint32_t seq = 0;
  std::uint32_t tag = 0;
  std::uint64_t bytes = 0;  // what the workload sent: its body and filler, without framing
};

// Label of a process in traces: "r<rank>" for nodes, "rendezvous" for the rendezvous.
std::string process_label(Rank rank);

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // A protocol decision made by process `proc` at backend time `now`.
  virtual void on_trace(const std::string& proc, TimeNs now, const TraceCmd& trace) = 0;
  // A fact for result.json reported by process `proc`.
  virtual void on_report(const std::string& proc, TimeNs now, const ReportCmd& report) = 0;
  // The process stopped (ExitCmd, or killed by the backend with ok = false).
  virtual void on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) = 0;
  // A backend-level count for result.json, e.g. ("inference.rtt_probes", 12432).
  virtual void on_backend_count(const std::string& key, double value) = 0;
  // Human progress for long runs; printed on stderr by the CLI.
  virtual void on_progress(const std::string& message) = 0;
  // A workload message of a small run left process `proc` or reached it (message_tap.hpp says
  // which runs and how many). Most observers need no messages: ignored unless overridden.
  virtual void on_message(const std::string& /*proc*/, TimeNs /*now*/,
                          const MessageEvent& /*event*/) {}
};

}  // namespace tsunagi::runner
