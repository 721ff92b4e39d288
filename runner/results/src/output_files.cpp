// Writing result.json and trace.jsonl. Each file is written beside its final name and renamed
// into place, so a reader (`tsunagi compare`, a sweep script) never sees half a file.
#include "tsunagi/runner/results/output_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <system_error>

#include "tsunagi/runner/results/regular_file.hpp"

namespace tsunagi::runner {

namespace fs = std::filesystem;

namespace {

// Through write_file_atomically: the partial file is created O_EXCL and never followed, since a
// root run may write into a directory another user can plant links in.
void write_atomically(const fs::path& file, const std::function<void(std::ostream&)>& body) {
  try {
    write_file_atomically(file.string(), body);
  } catch (const std::runtime_error& error) {
    throw OutputError(error.what());
  }
}

bool contains_object(const nlohmann::ordered_json& value) {
  if (value.is_object()) return true;
  if (!value.is_array()) return false;
  return std::any_of(value.begin(), value.end(),
                     [](const auto& element) { return contains_object(element); });
}

// Like dump(2), but arrays without objects inside stay on one line: result.json holds rank
// lists (groups of thousands of ranks) that would otherwise take one line per rank.
void write_pretty(std::ostream& out, const nlohmann::ordered_json& value, int indent) {
  constexpr auto kReplace = nlohmann::ordered_json::error_handler_t::replace;
  if (value.empty() || !contains_object(value)) {
    out << value.dump(-1, ' ', false, kReplace);
    return;
  }
  const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
  out << (value.is_object() ? '{' : '[') << '\n';
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (it != value.begin()) out << ",\n";
    out << inner;
    if (value.is_object()) {
      out << nlohmann::ordered_json(it.key()).dump(-1, ' ', false, kReplace) << ": ";
    }
    write_pretty(out, *it, indent + 2);
  }
  out << '\n'
      << std::string(static_cast<std::size_t>(indent), ' ') << (value.is_object() ? '}' : ']');
}

}  // namespace

void prepare_output_dir(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) {
    throw OutputError("cannot create output directory " + dir.string() + ": " + error.message());
  }
  if (!fs::is_directory(dir)) {
    throw OutputError("output path " + dir.string() + " exists and is not a directory");
  }
  // Probe with a real file: permissions alone do not tell (read-only mounts, ACLs).
  const fs::path probe = dir / ".tsunagi-write-probe";
  fs::remove(probe, error);  // a link planted there is removed, never followed (O_EXCL)
  const int fd = open_regular_for_writing(probe.string(), O_CREAT | O_EXCL);
  if (fd < 0) {
    throw OutputError("cannot write into output directory " + dir.string() + ": " +
                      std::strerror(errno));
  }
  ::close(fd);
  fs::remove(probe, error);
}

void write_output_file(const fs::path& file, const std::string& text) {
  write_atomically(file, [&](std::ostream& out) { out << text; });
}

void write_result_file(const fs::path& file, const nlohmann::ordered_json& result) {
  write_atomically(file, [&](std::ostream& out) {
    write_pretty(out, result, 0);
    out << '\n';
  });
}

void write_trace_file(const fs::path& file, const Recorder& recorder) {
  write_atomically(file, [&](std::ostream& out) { recorder.write_trace(out); });
}

void write_text_file(const fs::path& file, const std::string& text) {
  write_atomically(file, [&](std::ostream& out) { out << text; });
}

}  // namespace tsunagi::runner
