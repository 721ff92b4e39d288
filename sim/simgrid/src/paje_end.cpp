// Bringing a Paje file's last events back to the run's end (paje_end.hpp).
#include "paje_end.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string_view>

#include <sys/stat.h>  // stat, fchmod
#include <unistd.h>    // close; mkstemp is <cstdlib>'s

namespace tsunagi::sim::simgrid {
namespace {

// The event ids whose first field is `Time date` (SimGrid puts the time first when an event
// has one), read from the file's header (%EventDef NAME ID, then one %  FIELD TYPE per line).
class TimedEvents {
 public:
  void header_line(std::string_view line) {
    if (line.starts_with("%EventDef")) {
      const std::size_t space = line.rfind(' ');
      current_ = std::string(line.substr(space + 1));
      first_field_ = true;
    } else if (first_field_ && line.starts_with("%") && !line.starts_with("%EndEventDef")) {
      if (line.find("Time") != std::string_view::npos &&
          line.find("date") != std::string_view::npos)
        ids_.insert(current_);
      first_field_ = false;
    }
  }
  bool timed(std::string_view id) const { return ids_.contains(std::string(id)); }

 private:
  std::set<std::string> ids_;
  std::string current_;
  bool first_field_ = false;
};

// "7 3.000000 15 33" -> "7 0.006842192 15 33" when 3.0 s is after `end_s`.
std::string clamped(const std::string& line, const TimedEvents& events, double end_s,
                    const std::string& end_text) {
  const std::size_t id_end = line.find(' ');
  if (id_end == std::string::npos || !events.timed(std::string_view(line).substr(0, id_end)))
    return line;
  const std::size_t time_end = line.find(' ', id_end + 1);
  const std::string time = line.substr(id_end + 1, time_end - id_end - 1);
  if (std::strtod(time.c_str(), nullptr) <= end_s) return line;
  return line.substr(0, id_end + 1) + end_text +
         (time_end == std::string::npos ? "" : line.substr(time_end));
}

}  // namespace

void close_paje_at(const std::string& file, TimeNs end) {
  const double end_s = static_cast<double>(end) * 1e-9;
  char end_text[32];
  std::snprintf(end_text, sizeof end_text, "%.9f", end_s);
  // The rewrite goes to a fresh file of an unguessable name beside the trace (mkstemp: O_EXCL,
  // 0600), never to a fixed one a local user could have planted as a link when root traces
  // into a shared directory.
  std::string temporary = file + ".XXXXXX";
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) throw std::runtime_error("cannot create a temporary file beside " + file);
  // The rewritten trace keeps the mode SimGrid gave the original (the umask's), not mkstemp's
  // 0600: an interrupted run's trace, which is not rewritten, reads the same.
  struct stat original {};
  if (::stat(file.c_str(), &original) == 0) ::fchmod(fd, original.st_mode & 0777);
  ::close(fd);
  {
    std::ifstream in(file);
    std::ofstream out(temporary);
    if (!in || !out) throw std::runtime_error("cannot rewrite the Paje trace " + file);
    TimedEvents events;
    std::string line;
    while (std::getline(in, line)) {
      if (line.starts_with("%"))
        events.header_line(line);
      else if (!line.starts_with("#"))
        line = clamped(line, events, end_s, end_text);
      out << line << '\n';
    }
    if (!out) throw std::runtime_error("cannot write " + temporary);
  }
  std::filesystem::rename(temporary, file);
}

}  // namespace tsunagi::sim::simgrid
