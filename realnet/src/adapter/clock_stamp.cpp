// Per-daemon clocks and their alignment. See clock_stamp.hpp.
#include "clock_stamp.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace tsunagi::realnet {

namespace {

std::string read_boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  in >> id;
  return id;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

std::int64_t ns_of(std::chrono::nanoseconds d) {
  return static_cast<std::int64_t>(d.count());
}

}  // namespace

ClockStamp clock_stamp(std::chrono::steady_clock::time_point start) {
  // Realtime of `start`: now on both clocks, minus the time since `start`.
  const auto steady_now = std::chrono::steady_clock::now();
  const auto real_now = std::chrono::system_clock::now();
  ClockStamp stamp;
  stamp.monotonic_ns = ns_of(start.time_since_epoch());
  stamp.realtime_ns =
      ns_of(std::chrono::duration_cast<std::chrono::nanoseconds>(real_now.time_since_epoch())) -
      ns_of(steady_now - start);
  stamp.boot_id = read_boot_id();
  stamp.host = host_name();
  return stamp;
}

TimeNs clock_offset(const ClockStamp& reference, const ClockStamp& other) {
  if (!reference.boot_id.empty() && reference.boot_id == other.boot_id)
    return other.monotonic_ns - reference.monotonic_ns;
  return other.realtime_ns - reference.realtime_ns;
}

nlohmann::json clock_line(const std::string& proc, const ClockStamp& stamp) {
  return {{"type", "clock"},
          {"proc", proc},
          {"monotonic_ns", stamp.monotonic_ns},
          {"realtime_ns", stamp.realtime_ns},
          {"boot_id", stamp.boot_id},
          {"host", stamp.host}};
}

std::optional<ClockStamp> parse_clock_line(const nlohmann::json& line) {
  if (!line.is_object() || line.value("type", "") != "clock") return std::nullopt;
  const auto mono = line.find("monotonic_ns");
  const auto real = line.find("realtime_ns");
  if (mono == line.end() || real == line.end() || !mono->is_number_integer() ||
      !real->is_number_integer())
    return std::nullopt;
  return ClockStamp{mono->get<std::int64_t>(), real->get<std::int64_t>(), line.value("boot_id", ""),
                    line.value("host", "")};
}

std::string clock_words(const ClockStamp& stamp) {
  return std::to_string(stamp.monotonic_ns) + " " + std::to_string(stamp.realtime_ns) + " " +
         (stamp.boot_id.empty() ? "-" : stamp.boot_id) + " " +
         (stamp.host.empty() ? "-" : stamp.host);
}

std::optional<ClockStamp> parse_clock_words(const std::string& words) {
  std::istringstream in(words);
  ClockStamp stamp;
  if (!(in >> stamp.monotonic_ns >> stamp.realtime_ns >> stamp.boot_id >> stamp.host))
    return std::nullopt;
  if (stamp.boot_id == "-") stamp.boot_id.clear();
  if (stamp.host == "-") stamp.host.clear();
  return stamp;
}

}  // namespace tsunagi::realnet
