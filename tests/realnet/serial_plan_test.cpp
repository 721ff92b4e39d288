// Serial-link networks in namespaces (launcher/netns_serial.cpp), checked on the planned
// commands without root: each serial link's tbf has a bucket of one frame and the FIFO depth
// as its queue, GSO is off on it, the nodes' sockets keep at most a FIFO in flight, and a
// shared segment sends every frame of the bridge through one shaped IFB (docs/lmmc.md).
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "launcher/netns_network.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace rn = tsunagi::realnet;
using namespace tsunagi;

namespace {

rn::NetnsPlan plan_of(const std::string& relative, const std::vector<std::string>& sets) {
  const scenario::Scenario s = scenario::load_scenario_file(
      std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/" + relative, sets);
  return rn::plan_netns(s, "tsgT-", {0.0, 1000});
}

bool has(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

std::string exec_line(const rn::NetnsPlan& plan, const std::string& ns) {
  for (const auto& [where, argv] : plan.ns_exec) {
    if (where != ns) continue;
    std::string text;
    for (const std::string& word : argv) text += word + " ";
    return text;
  }
  return "";
}

}  // namespace

TEST_CASE("serial link in namespaces: tbf of one frame's bucket and the FIFO as its queue") {
  struct Row {
    std::vector<std::string> sets;
    std::string tbf;  // both ends of link s0
    std::string tsq;  // tcp_limit_output_bytes in every node
  };
  const std::vector<Row> rows = {
      {{}, "tbf rate 20000000bit burst 1600 limit 4096", "tcp_limit_output_bytes=4096"},
      {{"network.serial.fifo=65536"},
       "tbf rate 20000000bit burst 1600 limit 65536",
       "tcp_limit_output_bytes=65536"},
      // Below two frames the queue keeps two frames (TCP small queues pass a second one).
      {{"network.serial.fifo=64"},
       "tbf rate 20000000bit burst 1600 limit 3200",
       "tcp_limit_output_bytes=64"},
      // A fast link's bucket is 50 us of traffic: 125 MB/s x 50 us.
      {{"network.serial.bandwidth=\"1Gbps\""},
       "tbf rate 1000000000bit burst 6250 limit 4096",
       "tcp_limit_output_bytes=4096"},
  };
  for (const Row& row : rows) {
    const rn::NetnsPlan plan = plan_of("papers/lmmc-2node.toml", row.sets);
    for (const char* node : {"tsgT-h0", "tsgT-h1"}) {
      INFO(node << " " << row.tbf);
      CHECK(has(plan.tc_batch.at(node), "qdisc replace dev s0 root " + row.tbf));
      CHECK(has(plan.ns_batch.at(node), "link set dev s0 gso_max_segs 1"));
      CHECK(exec_line(plan, node).find(row.tsq) != std::string::npos);
    }
    // The console link to the rendezvous is no serial link: the switched links' default.
    CHECK(has(plan.tc_batch.at("tsgT-h0"),
              "qdisc replace dev c0 root tbf rate 800000000bit burst 100000 latency 50ms"));
  }
}

TEST_CASE("shared segment in namespaces: every bridge port's frames through one shaped IFB") {
  const rn::NetnsPlan plan = plan_of(
      "bench/lmmc-scaling.toml", {"network.serial.medium=\"shared\"", "network.serial.nodes=4"});
  const auto& bridge = plan.ns_batch.at("tsgT-s0");
  CHECK(has(bridge, "link add seg type ifb"));
  const auto& tc = plan.tc_batch.at("tsgT-s0");
  CHECK(has(tc, "qdisc replace dev seg root tbf rate 10000000bit burst 1600 latency 50ms"));
  // 4 nodes and the rendezvous: ports h1..h5, each redirected; no sixth port exists.
  for (int k = 1; k <= 5; ++k) {
    const std::string port = "h" + std::to_string(k);
    INFO(port);
    CHECK(has(bridge, "link set dev " + port + " master br0"));
    CHECK(has(tc, "qdisc add dev " + port + " handle ffff: ingress"));
    CHECK(has(tc, "filter add dev " + port +
                      " parent ffff: protocol all u32 match u32 0 0 action mirred egress "
                      "redirect dev seg"));
  }
  CHECK_FALSE(has(bridge, "link set dev h6 master br0"));
  CHECK(std::count_if(tc.begin(), tc.end(), [](const std::string& line) {
          return line.find("redirect dev seg") != std::string::npos;
        }) == 5);
}
