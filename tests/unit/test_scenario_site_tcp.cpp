// Long fat WANs (issue 15): [network.cluster.tcp], site_rtt, tcp_profile and byte sizes — good
// files, the ground truth derived from them, and every error naming its line and the fix.
// Documents start on line 1 right after R"(.
#include <catch2/catch.hpp>

#include "scenario_failure.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;
using Catch::Matchers::Contains;

namespace {

// Three sites; lines 1-30. Tests append from line 31 on (more keys of [network.cluster] "c").
const std::string kSites = R"(name = "sites"
[network.wan]
rendezvous = "a"
backbone_bandwidth = "10Gbps"
tcp_profile = "tuned"
site_rtt = [
  { between = ["a", "b"], rtt = "20ms" },
  { between = ["a", "c"], rtt = "40ms" },
  { between = ["c", "b"], rtt = "10ms" },
]
[[network.cluster]]
name = "a"
hosts = 1
wan_latency = "50us"
[network.cluster.tcp]
send_buffer = "60KB"
recv_buffer = 61440
tuned = [{ peer = "b", send_buffer = "5.25MB", recv_buffer = "1MB" }]
[[network.cluster]]
name = "b"
hosts = 1
wan_latency = "50us"
[network.cluster.tcp]
window_scaling = false
sack = false
rate_limit = "100Mbps"
[[network.cluster]]
name = "c"
hosts = 2
wan_latency = "50us"
)";

using Failure = tsunagi::test::ScenarioFailure;

Failure failure_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return tsunagi::test::scenario_failure(text, "sites.toml", overrides);
}

}  // namespace

TEST_CASE("site tcp: sizes are 1024-based and refuse what is not a size", "[scenario][site_tcp]") {
  CHECK(parse_size("64KB") == 65536u);
  CHECK(parse_size("5.25MB") == 5505024u);
  CHECK(parse_size("3.375MB") == 3538944u);
  CHECK(parse_size("1MiB") == 1048576u);
  CHECK(parse_size(" 4096 ") == 4096u);
  CHECK(parse_size("1GB") == 1073741824u);
  CHECK_FALSE(parse_size("64kb"));
  CHECK_FALSE(parse_size("-1KB"));
  CHECK_FALSE(parse_size("KB"));
  CHECK_FALSE(parse_size("2000GB"));
}

TEST_CASE("site tcp: stacks, matrix and profile are read", "[scenario][site_tcp]") {
  const Scenario s = load_scenario_string(kSites, "sites.toml");
  const Network& n = s.network;
  REQUIRE(n.clusters.size() == 3);
  CHECK(has_site_rtt(n));
  CHECK(n.backbone.bandwidth == Approx(1.25e9));
  CHECK(n.backbone.profile == TcpProfile::Tuned);
  CHECK(n.backbone.rtt[0][1] == 20 * kNsPerMs);
  CHECK(n.backbone.rtt[1][2] == 10 * kNsPerMs);  // given as c <-> b
  CHECK(n.backbone.rtt[2][1] == 10 * kNsPerMs);
  CHECK(n.backbone.rtt[0][0] == 0);
  const SiteTcp& a = n.clusters[0].tcp;
  CHECK(a.send_buffer == 61440u);
  CHECK(a.recv_buffer == 61440u);
  REQUIRE(a.tuned.size() == 1);
  CHECK(a.tuned[0] == PeerBuffers{"b", 5505024, 1048576});
  const SiteTcp& b = n.clusters[1].tcp;
  CHECK_FALSE(b.window_scaling);
  CHECK_FALSE(b.sack);
  CHECK(b.rate_limit == Approx(12.5e6));
  CHECK(n.clusters[2].tcp == SiteTcp{});
}

TEST_CASE("site tcp: backbone latency, stack buffers, effective window", "[scenario][site_tcp]") {
  const Scenario s = load_scenario_string(kSites, "sites.toml");
  const Network& n = s.network;
  // 20 ms RTT: 10 ms one way less 5 us host + 50 us access on each side.
  CHECK(backbone_latency(n, 0, 1) == 10 * kNsPerMs - 2 * (5 * kNsPerUs + 50 * kNsPerUs));
  CHECK(backbone_latency(n, 1, 0) == backbone_latency(n, 0, 1));
  // Tuned a -> b; a -> c has no tuned entry: the default; inside a site: the default.
  CHECK(stack_buffers(n, 0, 1).send == 5505024u);
  CHECK(stack_buffers(n, 0, 1).recv == 1048576u);
  CHECK(stack_buffers(n, 0, 2).send == 61440u);
  CHECK(stack_buffers(n, 0, 0).send == 61440u);
  CHECK(stack_buffers(n, 2, 0).send == 0u);
  // Window = min(send, recv); without scaling at either end, at most 64 KB - 1.
  CHECK(effective_window(n, 0, 2, 4u << 20, 1u << 20) == 1u << 20);
  CHECK(effective_window(n, 0, 1, 4u << 20, 1u << 20) == kUnscaledWindowMax);
  CHECK(effective_window(n, 1, 0, 0, 0) == kUnscaledWindowMax);
  CHECK(effective_window(n, 0, 2, 0, 0) == 0u);
  CHECK(effective_window(n, 0, 2, 0, 8192) == 8192u);
  // The default profile ignores tuned entries.
  const Scenario d =
      load_scenario_string(kSites, "sites.toml", {"network.wan.tcp_profile=default"});
  CHECK(stack_buffers(d.network, 0, 1).send == 61440u);
}

TEST_CASE("site tcp: --set reaches a site's stack by name", "[scenario][site_tcp][overrides]") {
  const Scenario s = load_scenario_string(
      kSites, "sites.toml",
      {"network.cluster.b.tcp.window_scaling=true", "network.cluster.c.tcp.send_buffer=1MB"});
  CHECK(s.network.clusters[1].tcp.window_scaling);
  CHECK(s.network.clusters[2].tcp.send_buffer == 1048576u);
}

TEST_CASE("site tcp: the paper's file loads with Table 2 and Table 4", "[scenario][site_tcp]") {
  const Scenario s =
      load_scenario_file(std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/papers/supersinet-4.toml");
  const Network& n = s.network;
  REQUIRE(n.clusters.size() == 4);
  CHECK(n.backbone.rtt[0][3] == 42 * kNsPerMs);
  CHECK(n.backbone.rtt[2][3] == 10 * kNsPerMs);
  CHECK(stack_buffers(n, 3, 0).send == 5505024u);  // Kyushu -> Hokkaido 5.25 MB
  CHECK(stack_buffers(n, 2, 1).recv == 1572864u);  // Kyoto -> Tokyo 1.5 MB
  CHECK(stack_buffers(n, 1, 0).send == 262144u);   // Tokyo: its default, not enlarged
  CHECK_FALSE(n.clusters[1].tcp.window_scaling);
  CHECK(s.protocol.processes == 4);
}

TEST_CASE("site tcp: errors name the line and the fix", "[scenario][site_tcp][errors]") {
  struct Case {
    std::string append;  // from line 31 on, inside [[network.cluster]] "c"
    std::vector<std::string> overrides;
    int line;
    std::string says;
  };
  const std::vector<Case> cases{
      {"[network.cluster.tcp]\nsend_buffer = \"64 kB\"\n", {}, 32, "is not a size"},
      {"[network.cluster.tcp]\nsend_buffer = 12\n", {}, 32, "between 1KB and 1GB"},
      {"[network.cluster.tcp]\nrecv_buffer = -5\n", {}, 32, "negative"},
      {"[network.cluster.tcp]\nsack = \"yes\"\n", {}, 32, "true or false"},
      {"[network.cluster.tcp]\ntuned = [{ peer = \"x\", send_buffer = \"1MB\" }]\n",
       {},
       32,
       "not a [[network.cluster]]"},
      {"[network.cluster.tcp]\ntuned = [{ peer = \"c\", send_buffer = \"1MB\" }]\n",
       {},
       32,
       "this site itself"},
      {"[network.cluster.tcp]\ntuned = [{ peer = \"a\" }]\n", {}, 32, "sets no buffer"},
      {"[network.cluster.tcp]\ntuned = [{ send_buffer = \"1MB\" }]\n", {}, 32, "has no peer"},
      {"[network.cluster.tcp]\nwindow_scale = true\n", {}, 32, "did you mean 'window_scaling'"},
      {"", {"network.wan.tcp_profile=fast"}, 0, "use \"default\" or \"tuned\""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.append, c.overrides);
    const Failure f = failure_of(kSites + c.append, c.overrides);
    CHECK(f.line == c.line);
    CHECK_THAT(f.what, Contains(c.says));
  }
}

TEST_CASE("site tcp: the RTT matrix must be whole and long enough",
          "[scenario][site_tcp][errors]") {
  auto with_rtt = [](const std::string& lines) {
    std::string text = kSites;
    const auto from = text.find("site_rtt = [");
    const auto to = text.find("]\n[[network.cluster]]");
    return text.substr(0, from) + "site_rtt = [\n" + lines + text.substr(to);
  };
  const std::string ab = "  { between = [\"a\", \"b\"], rtt = \"20ms\" },\n";
  const std::string ac = "  { between = [\"a\", \"c\"], rtt = \"40ms\" },\n";
  const std::string bc = "  { between = [\"b\", \"c\"], rtt = \"10ms\" },\n";
  struct Case {
    std::string lines;
    int line;
    std::string says;
  };
  const std::vector<Case> cases{
      {ab + ac, 6, "no entry for b <-> c"},
      {ab + ac + bc + "  { between = [\"b\", \"a\"], rtt = \"9ms\" },\n", 10,
       "already has an rtt (line 7)"},
      {ab + ac + "  { between = [\"b\", \"c\"], rtt = \"100us\" },\n", 9, "shorter than twice"},
      {ab + ac + "  { between = [\"b\", \"b\"], rtt = \"10ms\" },\n", 9, "one site twice"},
      {ab + ac + "  { between = [\"b\", \"z\"], rtt = \"10ms\" },\n", 9, "'z' is not a"},
      {ab + ac + "  { between = [\"b\"], rtt = \"10ms\" },\n", 9, "two cluster names"},
      {ab + ac + "  { between = [\"b\", \"c\"] },\n", 9, "has no rtt"},
      {ab + ac + "  { between = [\"b\", \"c\"], rtt = \"0ms\" },\n", 9, "must be positive"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.lines);
    const Failure f = failure_of(with_rtt(c.lines));
    CHECK(f.line == c.line);
    CHECK_THAT(f.what, Contains(c.says));
  }
  // backbone_bandwidth alone (no matrix) is refused.
  std::string text = kSites;
  text.erase(text.find("site_rtt = ["),
             text.find("[[network.cluster]]") - text.find("site_rtt = ["));
  const Failure f = failure_of(text);
  CHECK(f.line == 4);
  CHECK_THAT(f.what, Contains("backbone_bandwidth needs site_rtt"));
}
