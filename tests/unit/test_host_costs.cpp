// Host costs (issue 32): LogGP's o_s, o_r and G in protocol.costs. The arithmetic of one
// message's cost, the CPU queue charging it in a whole run of the core (toy world), and the
// loader refusing bad values and costs files with their place.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <limits>

#include "toy_world.hpp"
#include "tsunagi/model/wire.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

constexpr std::uint64_t kMaxBytes = std::numeric_limits<std::uint64_t>::max();
constexpr TimeNs kCap = CostConfig::kMaxCostNs;

CostConfig host_costs(TimeNs send, TimeNs receive, double copy_bandwidth) {
  CostConfig costs;
  costs.send_overhead = send;
  costs.receive_overhead = receive;
  costs.copy_bandwidth = copy_bandwidth;
  return costs;
}

}  // namespace

TEST_CASE("host costs: bytes / copy_bandwidth, rounded, free at 0, capped", "[costs]") {
  struct Row {
    std::uint64_t bytes;
    double bandwidth;  // bytes/s
    TimeNs expected;
  };
  const Row rows[] = {
      {0, 1e9, 0},                                     // nothing to copy
      {1000, 0, 0},                                    // copy_bandwidth 0: copying is free
      {kMaxBytes, 0, 0},                               // ... whatever the size
      {1000, 1e9, 1000},                               // 1 GB/s: 1 ns a byte
      {80'000, 10e9, 8000},                            // 80 KB at 10 GB/s: 8 us
      {1, 3e9, 0},                                     // 0.33 ns rounds down
      {2, 3e9, 1},                                     // 0.67 ns rounds up
      {std::uint64_t{1} << 40, 1e9, TimeNs{1} << 40},  // 1 TiB: exact, no overflow
      {kMaxBytes, 125, kCap},                          // 1.5e26 ns: capped, not overflowed
      {kMaxBytes, 1e15, 18'446'744'073'710},           // 2^64 B at 1 PB/s still fits
  };
  for (const Row& row : rows) {
    CAPTURE(row.bytes, row.bandwidth);
    CHECK(host_costs(0, 0, row.bandwidth).copy_time(row.bytes) == row.expected);
  }
}

TEST_CASE("host costs: a send pays o_s + copy, a receive o_r + copy, both capped", "[costs]") {
  const CostConfig costs = host_costs(5 * kNsPerUs, 7 * kNsPerUs, 1e9);
  CHECK(costs.send_cost(0) == 5 * kNsPerUs);
  CHECK(costs.receive_cost(0) == 7 * kNsPerUs);
  CHECK(costs.send_cost(2000) == 7 * kNsPerUs);
  CHECK(costs.receive_cost(2000) == 9 * kNsPerUs);
  CHECK(host_costs(kCap, 0, 125).send_cost(kMaxBytes) == kCap);
  CHECK(host_costs(0, kCap - 1, 1e9).receive_cost(10) == kCap);
  CHECK_FALSE(CostConfig{}.any());
  CHECK(host_costs(0, 0, 1e9).any());
  CHECK(host_costs(1, 0, 0).host_costs());
  CHECK_FALSE(CostConfig{100, 5, 7}.host_costs());
}

namespace {

struct PingPongRun {
  TimeNs makespan = 0;
  int relayed = 0;  // messages the ranks forwarded for others, all of them
};

// Ping-pong between ranks 0 and `pong` of a toy network; shortcut_capacity 0 keeps a relayed
// pair relayed in every round.
PingPongRun ping_pong(CostConfig costs, std::vector<int> switch_of, int pong, std::uint64_t bytes) {
  ProtocolConfig cfg;
  cfg.costs = costs;
  cfg.overlay.shortcut_capacity = 0;
  cfg.workload.kind = WorkloadKind::PingPong;
  cfg.workload.pingpong.rounds = 4;
  cfg.workload.pingpong.pong = pong;
  cfg.workload.pingpong.message_bytes = bytes;
  std::vector<int> host_of(switch_of.size());
  for (std::size_t r = 0; r < host_of.size(); ++r) host_of[r] = static_cast<int>(r);
  tsunagi::testing::ToyWorld w(cfg, std::move(switch_of), host_of);
  REQUIRE(w.run());
  REQUIRE(w.reports["workload"].size() == 1);
  REQUIRE(w.reports["workload"][0]["verified"] == true);
  PingPongRun run;
  run.makespan = w.reports["workload"][0]["makespan_ns"].get<TimeNs>();
  for (const auto& node : w.reports["node"]) run.relayed += node["messages_relayed"].get<int>();
  return run;
}

}  // namespace

TEST_CASE("host costs: a ping-pong's makespan grows by exactly what the CPU queue charges",
          "[costs][protocol]") {
  // One message in flight at a time, so every charge lies on the critical path: per message
  // o_s + copy at its sender, o_r + copy at its receiver, and both at every rank relaying it.
  const std::uint64_t bytes = 20'000;  // 2 us to copy at 10 GB/s
  const CostConfig costs = host_costs(3 * kNsPerUs, 5 * kNsPerUs, 10e9);
  const TimeNs per_end = 3 * kNsPerUs + 5 * kNsPerUs + 2 * 2 * kNsPerUs;  // o_s + o_r + 2 copies
  const int messages = 2 * 4;
  SECTION("direct: two ranks") {
    const PingPongRun free = ping_pong({}, {0, 0}, 1, bytes);
    const PingPongRun paid = ping_pong(costs, {0, 0}, 1, bytes);
    CHECK(free.relayed == 0);
    CHECK(paid.makespan - free.makespan == messages * per_end);
  }
  SECTION("relayed: every forward pays a receive and a send") {
    // Two switches: the topology plan links a rank to one rank of the other group, so 0 and 5
    // talk through others.
    const std::vector<int> switch_of{0, 0, 0, 1, 1, 1};
    const PingPongRun free = ping_pong({}, switch_of, 5, bytes);
    const PingPongRun paid = ping_pong(costs, switch_of, 5, bytes);
    REQUIRE(free.relayed > 0);
    CHECK(paid.relayed == free.relayed);
    CHECK(paid.makespan - free.makespan == (messages + paid.relayed) * per_end);
  }
  SECTION("all three 0: the same run as without the table") {
    CHECK(ping_pong(host_costs(0, 0, 0), {0, 0}, 1, bytes).makespan ==
          ping_pong({}, {0, 0}, 1, bytes).makespan);
  }
}

namespace {

const std::string kScenario = R"(name = "hc"
[network]
[[network.switch]]
name = "s"
hosts = 2
[protocol.costs]
)";

std::string load_error(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    scenario::load_scenario_string(text, "hc.toml", overrides);
  } catch (const scenario::ScenarioError& e) {
    return e.what();
  }
  FAIL("loaded without error");
  return {};
}

// A costs file in the temporary directory, removed at the end of the test.
class CostsFile {
 public:
  explicit CostsFile(const std::string& text)
      : path_(std::filesystem::temp_directory_path() /
              ("tsunagi-costs-" + std::to_string(::getpid()) + ".toml")) {
    std::ofstream(path_) << text;
  }
  ~CostsFile() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }
  std::string override_text() const { return std::string(scenario::kCostsFileOverride) + path(); }

 private:
  std::filesystem::path path_;
};

}  // namespace

TEST_CASE("host costs: the loader reads the keys and refuses bad values at their line",
          "[costs][scenario][errors]") {
  const auto loaded =
      scenario::load_scenario_string(kScenario +
                                         "send_overhead = \"1.5us\"\nreceive_overhead = \"2us\"\n"
                                         "copy_bandwidth = \"10GBps\"\n",
                                     "hc.toml");
  CHECK(loaded.protocol.costs.send_overhead == 1500);
  CHECK(loaded.protocol.costs.receive_overhead == 2000);
  CHECK(loaded.protocol.costs.copy_bandwidth == 10e9);
  for (const char* zero : {"0", "\"0\"", "\"0GBps\"", "0.0"})
    CHECK(scenario::load_scenario_string(kScenario + "copy_bandwidth = " + zero + "\n", "hc.toml")
              .protocol.costs.copy_bandwidth == 0);
  // Each bad value is on line 7, right after the [protocol.costs] header.
  const std::pair<std::string, std::string> bad_values[] = {
      {"send_overhead = \"-5us\"", "is not a duration (>= 0)"},
      {"receive_overhead = 5", "has no unit"},
      {"copy_bandwidth = \"10GB\"", "is not a bandwidth"},
      {"copy_bandwidth = \"-1GBps\"", "is not a bandwidth"},
      {"copy_bandwidth = \"0Gbs\"", "is not a bandwidth"},
      {"send_overhed = \"1us\"", "did you mean 'send_overhead'?"},
  };
  for (const auto& [line, why] : bad_values) {
    INFO(line);
    CHECK_THAT(load_error(kScenario + line + "\n"), StartsWith("hc.toml:7:") && Contains(why));
  }
}

TEST_CASE("host costs: --costs FILE overlays [protocol.costs], errors at FILE:LINE:COL",
          "[costs][scenario][errors]") {
  SECTION("its keys win over the scenario's; a later --set over the file's") {
    CostsFile file("[protocol.costs]\nsend_overhead = \"4us\"\ncopy_bandwidth = \"1GBps\"\n");
    const auto loaded = scenario::load_scenario_string(
        kScenario + "send_overhead = \"1us\"\nrelay = \"9us\"\n", "hc.toml",
        {file.override_text(), "protocol.costs.copy_bandwidth=2GBps"});
    CHECK(loaded.protocol.costs.send_overhead == 4000);
    CHECK(loaded.protocol.costs.relay == 9000);  // kept: the file does not mention it
    CHECK(loaded.protocol.costs.copy_bandwidth == 2e9);
  }
  SECTION("a bad value names the costs file, its line and the fix") {
    CostsFile file("# measured\n[protocol.costs]\nreceive_overhead = \"3 parsecs\"\n");
    const std::string what = load_error(kScenario, {file.override_text()});
    CHECK_THAT(what, StartsWith(file.path() + ":3:"));
    CHECK_THAT(what, Contains("is not a duration") && Contains("e.g. \"5us\""));
  }
  SECTION("another table is refused where it is") {
    CostsFile file("[protocol.costs]\nrelay = \"1us\"\n[protocol.inference]\nrtt_samples = 4\n");
    const std::string what = load_error(kScenario, {file.override_text()});
    CHECK_THAT(what, StartsWith(file.path() + ":3:"));
    CHECK_THAT(what, Contains("[protocol.inference] is not allowed in a costs file") &&
                         Contains("only [protocol.costs] and [network.factors]"));
  }
  SECTION("a top-level key is refused where it is") {
    CostsFile file("seed = 4\n");
    CHECK_THAT(load_error(kScenario, {file.override_text()}),
               StartsWith(file.path() + ":1:") && Contains("'seed' is not allowed"));
  }
  SECTION("a missing file is named") {
    CHECK_THAT(load_error(kScenario, {std::string(scenario::kCostsFileOverride) + "/nonexistent"}),
               StartsWith("/nonexistent") && Contains("cannot open the file"));
  }
}
