// The measurements of `tsunagi calibrate` (docs/calibration.md): ping-pongs run by this very
// program as `tsunagi run SCENARIO --backend realnet`, so they go through the real launcher,
// daemons and sockets, and the costs fitted are those the daemons pay.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::app {

// The nominal figures of the path between ranks 0 and 1 of a switched scenario.
struct PathFigures {
  int links = 0;       // host links and uplinks crossed one way
  TimeNs latency = 0;  // their summed one-way latency, unscaled
  double rate = 0;     // the slowest link's rate, bytes/s
};

// Throws std::invalid_argument when the scenario is not a switch tree with ranks 0 and 1.
PathFigures pingpong_path(const scenario::Scenario& scenario);

struct PingPongRun {
  std::string scenario_file;
  std::string net;  // "netns" or "loopback"
  std::uint64_t bytes = 0;
  int rounds = 0;
  std::string out_dir;  // the run's --out; its log in out_dir + ".log"
};

struct PingPongResult {
  double median_round_trip_s = 0;  // median of the round trips after the first (warm-up)
  double latency_scale = 1;        // result.json's latency_scale (1 on loopback)
  double makespan_s = 0;
};

// Runs one realnet ping-pong with `program` (this executable) and reads its result.json.
// Throws std::runtime_error when the run fails, naming its log.
PingPongResult run_pingpong(const std::string& program, const PingPongRun& run);

// This executable's path (/proc/self/exe), so that calibrate measures the build it is part of.
std::string own_program();

}  // namespace tsunagi::app
