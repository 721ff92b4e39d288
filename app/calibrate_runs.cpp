// The realnet ping-pongs of `tsunagi calibrate` (calibrate_runs.hpp).
#include "calibrate_runs.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

extern char** environ;

namespace tsunagi::app {
namespace {

// The switches from `s` up to the root, `s` first.
std::vector<int> up_from(int s, const std::vector<int>& parent) {
  std::vector<int> chain;
  for (; s >= 0; s = parent[static_cast<std::size_t>(s)]) chain.push_back(s);
  return chain;
}

// Runs `argv` with stdout and stderr into `log`; its exit status (-1: killed by a signal).
int spawn_and_wait(const std::vector<std::string>& argv, const std::string& log) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + argv[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed for " + argv[0]);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

PathFigures pingpong_path(const scenario::Scenario& scenario) {
  if (scenario.network.dragonfly || scenario.network.serial || !scenario.network.clusters.empty())
    throw std::invalid_argument("calibrate needs a plain switch tree");
  const scenario::SwitchTreeTruth tree = scenario::true_switch_tree(scenario);
  if (tree.switch_of_rank.size() < 2) throw std::invalid_argument("calibrate needs ranks 0 and 1");
  const std::vector<int> a = up_from(tree.switch_of_rank[0], tree.switch_parent);
  const std::vector<int> b = up_from(tree.switch_of_rank[1], tree.switch_parent);
  const auto& switches = scenario.network.switches;
  PathFigures path;
  const auto add = [&path](TimeNs latency, double rate) {
    ++path.links;
    path.latency += latency;
    path.rate = path.rate > 0 ? std::min(path.rate, rate) : rate;
  };
  add(switches[static_cast<std::size_t>(a[0])].host_latency,
      switches[static_cast<std::size_t>(a[0])].host_bandwidth);
  add(switches[static_cast<std::size_t>(b[0])].host_latency,
      switches[static_cast<std::size_t>(b[0])].host_bandwidth);
  // Up each side to the first switch the other side also passes: the uplinks crossed.
  for (const std::vector<int>* side : {&a, &b}) {
    const std::vector<int>& other = side == &a ? b : a;
    for (int s : *side) {
      if (std::find(other.begin(), other.end(), s) != other.end()) break;
      const scenario::SwitchSpec& sw = switches[static_cast<std::size_t>(s)];
      add(sw.uplink_latency, sw.uplink_bandwidth);
    }
  }
  return path;
}

std::string own_program() {
  return std::filesystem::read_symlink("/proc/self/exe").string();
}

PingPongResult run_pingpong(const std::string& program, const PingPongRun& run) {
  const std::string log = run.out_dir + ".log";
  const std::vector<std::string> argv = {
      program,           "run",
      run.scenario_file, "--backend",
      "realnet",         "--net",
      run.net,           "--out",
      run.out_dir,       "-q",
      "--set",           "workload.pingpong.message_bytes=" + std::to_string(run.bytes),
      "--set",           "workload.pingpong.rounds=" + std::to_string(run.rounds)};
  const int status = spawn_and_wait(argv, log);
  if (status != 0) {
    throw std::runtime_error("the realnet run failed (exit " + std::to_string(status) + "); see " +
                             log);
  }
  std::ifstream file(run.out_dir + "/result.json");
  const nlohmann::json result = nlohmann::json::parse(file);
  if (!result.value("ok", false))
    throw std::runtime_error("the realnet run was not ok; see " + log);
  const nlohmann::json& workload = result.at("workload");
  std::vector<double> trips;
  for (const auto& ns : workload.at("details").at("round_trip_ns"))
    trips.push_back(ns.get<double>());
  if (trips.size() < 2) throw std::runtime_error("fewer than 2 round trips in " + run.out_dir);
  trips.erase(trips.begin());  // the first pays for connection warm-up, not for the message
  std::sort(trips.begin(), trips.end());
  const std::size_t n = trips.size();
  PingPongResult out;
  out.median_round_trip_s = (n % 2 ? trips[n / 2] : (trips[n / 2 - 1] + trips[n / 2]) / 2) / 1e9;
  const auto& scale = result.value("latency_scale", nlohmann::json());
  out.latency_scale = scale.is_number() && scale.get<double>() > 0 ? scale.get<double>() : 1;
  out.makespan_s = workload.value("makespan_s", 0.0);
  return out;
}

}  // namespace tsunagi::app
