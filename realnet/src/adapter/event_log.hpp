// What one realnet process tells the launcher: its decisions, reports, exit and counts, as JSON
// lines (one object per line, flushed at once so a crash loses nothing written before it).
// The launcher merges every process's file into the runner's Recorder (event_replay.hpp).
//
//   {"type":"trace","proc":"r3","t_ns":123,"kind":"groups","detail":{...}}
//   {"type":"report","proc":"r3","t_ns":123,"key":"node","value":{...}}
//   {"type":"exit","proc":"r3","t_ns":123,"ok":true,"reason":""}
//   {"type":"count","proc":"r3","key":"inference.rtt_probes","value":7}
#pragma once

#include <cstdio>
#include <string>

#include "tsunagi/model/io.hpp"

namespace tsunagi::realnet {

class EventLog {
 public:
  // "-" writes to stdout; anything else is a file, created or truncated. Throws on failure.
  EventLog(const std::string& path, std::string proc);
  ~EventLog();
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  void trace(TimeNs now, const TraceCmd& trace);
  void report(TimeNs now, const ReportCmd& report);
  void exit(TimeNs now, const ExitCmd& exit);
  void count(const std::string& key, double value);

 private:
  void write(const nlohmann::json& line);
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  std::string proc_;
};

}  // namespace tsunagi::realnet
