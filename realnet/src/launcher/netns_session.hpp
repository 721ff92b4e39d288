// Makes the emulated network of a NetnsPlan real, and removes it again: in the destructor too,
// so an exception or an interrupted run leaves no namespace, link or delay line behind.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "netns_network.hpp"
#include "supervisor.hpp"

namespace tsunagi::realnet {

// Runs a tool (ip, tc) to its end, `input` on its stdin (a batch: `ip -b -`, never a file
// another user could plant), output into `log_file` ("" = none; a symlink or FIFO there is
// refused); throws std::runtime_error with the log's tail when it fails.
void run_tool(const std::vector<std::string>& argv, const std::string& log_file,
              const std::vector<std::string>& input = {});

class NetnsSession {
 public:
  NetnsSession(const NetnsPlan& plan, std::string work_dir);
  ~NetnsSession();
  NetnsSession(const NetnsSession&) = delete;
  NetnsSession& operator=(const NetnsSession&) = delete;

  // Namespaces and veths, then the delay line (started through `supervisor`, which owns it),
  // then bridges, addresses and qdiscs. `interrupted` is checked between steps.
  void build(Supervisor& supervisor, const std::string& delayline_program,
             const std::function<bool()>& interrupted);
  // Deletes every namespace of the plan (the delay line's TAPs go with its process).
  void tear_down();

 private:
  const NetnsPlan& plan_;
  std::string work_dir_;
  bool created_ = false;
};

}  // namespace tsunagi::realnet
