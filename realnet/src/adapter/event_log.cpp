#include "event_log.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tsunagi::realnet {

EventLog::EventLog(const std::string& path, std::string proc) : proc_(std::move(proc)) {
  if (path == "-") {
    file_ = stdout;
    return;
  }
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr)
    throw std::runtime_error("cannot write events to " + path + ": " + std::strerror(errno));
  owned_ = true;
}

EventLog::~EventLog() {
  if (owned_) std::fclose(file_);
}

void EventLog::write(const nlohmann::json& line) {
  const std::string text =
      line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::fwrite(text.data(), 1, text.size(), file_);
  std::fflush(file_);
}

void EventLog::on_trace(const std::string& proc, TimeNs now, const TraceCmd& trace) {
  write({{"type", "trace"},
         {"proc", proc},
         {"t_ns", now},
         {"kind", trace.kind},
         {"detail", trace.detail}});
}

void EventLog::on_report(const std::string& proc, TimeNs now, const ReportCmd& report) {
  write({{"type", "report"},
         {"proc", proc},
         {"t_ns", now},
         {"key", report.key},
         {"value", report.value}});
}

void EventLog::on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) {
  write(
      {{"type", "exit"}, {"proc", proc}, {"t_ns", now}, {"ok", exit.ok}, {"reason", exit.reason}});
}

void EventLog::on_message(const std::string& proc, TimeNs now, const runner::MessageEvent& event) {
  write({{"type", "message"},
         {"proc", proc},
         {"t_ns", now},
         {"delivered", event.delivered},
         {"from", event.from},
         {"to", event.to},
         {"seq", event.seq},
         {"tag", event.tag},
         {"bytes", event.bytes}});
}

void EventLog::on_backend_count(const std::string& key, double value) {
  write({{"type", "count"}, {"proc", proc_}, {"key", key}, {"value", value}});
}

}  // namespace tsunagi::realnet
