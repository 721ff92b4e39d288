// What one realnet process tells the launcher: its decisions, reports, exit and counts, as JSON
// lines (one object per line, flushed at once so a crash loses nothing written before it). It is
// the run observer of the daemon's process table, as the runner's Recorder is in a simulator.
// The launcher merges every process's file into the runner's Recorder (event_replay.hpp).
//
//   {"type":"clock","proc":"r3","monotonic_ns":…,"realtime_ns":…,"boot_id":…,"host":…}
//   {"type":"trace","proc":"r3","t_ns":123,"kind":"groups","detail":{...}}
//   {"type":"report","proc":"r3","t_ns":123,"key":"node","value":{...}}
//   {"type":"exit","proc":"r3","t_ns":123,"ok":true,"reason":""}
//   {"type":"count","proc":"r3","key":"inference.rtt_probes","value":7}
//   {"type":"message","proc":"r3","t_ns":123,"delivered":false,"from":3,"to":5,"seq":0,
//    "tag":1,"bytes":64}  (runner/driver/include/tsunagi/runner/driver/message_tap.hpp)
#pragma once

#include <cstdio>
#include <string>

#include "clock_stamp.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/driver/observer.hpp"

namespace tsunagi::realnet {

class EventLog final : public runner::RunObserver {
 public:
  // "-" writes to stdout; anything else is a file, created or truncated. Throws on failure.
  // `proc` labels the count lines.
  EventLog(const std::string& path, std::string proc);
  ~EventLog() override;
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  void on_trace(const std::string& proc, TimeNs now, const TraceCmd& trace) override;
  void on_report(const std::string& proc, TimeNs now, const ReportCmd& report) override;
  void on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) override;
  // Counts carry the process label too: the launcher sums them over processes.
  void on_backend_count(const std::string& key, double value) override;
  // A daemon's progress lines are not events: the launcher prints its own.
  void on_progress(const std::string&) override {}
  void on_message(const std::string& proc, TimeNs now, const runner::MessageEvent& event) override;
  // The process's start on its own clocks (clock_stamp.hpp): the first line of the file.
  void write_clock(const ClockStamp& stamp) { write(clock_line(proc_, stamp)); }

 private:
  void write(const nlohmann::json& line);
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  std::string proc_;
};

}  // namespace tsunagi::realnet
