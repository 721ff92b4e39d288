// [network.serial] (issue 14, paper 003): layouts as links, routes over them, the shared-segment
// variant, and every error with its line and fix. Documents start on line 1 right after R"(.
#include <catch2/catch.hpp>

#include "scenario_failure.hpp"
#include "tsunagi/scenarios/loader.hpp"
#include "tsunagi/scenarios/serial.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;
using Catch::Matchers::Contains;

namespace {

Scenario load(const std::string& text) {
  return load_scenario_string(text, "serial.toml", {});
}

tsunagi::test::ScenarioFailure failure_of(const std::string& text) {
  return tsunagi::test::scenario_failure(text, "serial.toml");
}

// Lines 1-2; tests append the keys of [network.serial] from line 3 on.
const std::string kHead = "name = \"s\"\n[network.serial]\n";

}  // namespace

TEST_CASE("serial: a hypercube of 8 has 12 links, 3 per node, routes by lowest bit first",
          "[scenario][serial]") {
  const Scenario s = load(kHead +
                          "layout = \"hypercube\"\nnodes = 8\nbandwidth = \"20Mbps\"\n"
                          "latency = \"2us\"\nfifo = 512\n");
  REQUIRE(s.network.serial);
  const SerialSpec& spec = *s.network.serial;
  CHECK(spec.bandwidth == Approx(2.5e6));
  CHECK(spec.latency == 2 * kNsPerUs);
  CHECK(spec.fifo_bytes == 512);
  CHECK(spec.ports == 4);
  CHECK(serial_links(spec).size() == 12);
  CHECK(serial_degrees(spec) == std::vector<int>(8, 3));
  // One card per node, one host each: ranks are nodes.
  REQUIRE(s.network.switches.size() == 8);
  CHECK(s.network.switches[3].name == "n3");
  CHECK(s.network.switches[3].hosts == 1);
  CHECK(s.protocol.processes == 8);
  CHECK(serial_path(spec, 0, 7) == std::vector<int>{0, 1, 3, 7});
  CHECK(serial_path(spec, 6, 1) == std::vector<int>{6, 2, 0, 1});  // 2, then 0: the lowest
  CHECK(serial_next_node(spec, 5, 2) == 1);
  CHECK(serial_hops(spec)[0][7] == 3);
}

TEST_CASE("serial: ring, mesh, torus and link lists", "[scenario][serial]") {
  const SerialSpec two = *load(kHead + "nodes = 2\n").network.serial;
  CHECK(two.layout == SerialLayout::Ring);
  CHECK(serial_links(two) == std::vector<SerialLink>{{0, 1}});

  const SerialSpec ring = *load(kHead + "nodes = 6\n").network.serial;
  CHECK(serial_links(ring).size() == 6);
  CHECK(serial_path(ring, 0, 3).size() == 4);
  CHECK(serial_path(ring, 0, 4) == std::vector<int>{0, 5, 4});

  const SerialSpec mesh = *load(kHead + "layout = \"mesh\"\nrows = 2\ncols = 3\n").network.serial;
  CHECK(mesh.nodes == 6);
  CHECK(serial_links(mesh).size() == 7);  // 2 x 2 across, 3 down
  CHECK(serial_degrees(mesh) == std::vector<int>{2, 3, 2, 2, 3, 2});

  const SerialSpec torus = *load(kHead + "layout = \"torus\"\nrows = 3\ncols = 3\n").network.serial;
  CHECK(serial_links(torus).size() == 18);
  CHECK(serial_degrees(torus) == std::vector<int>(9, 4));

  const SerialSpec list =
      *load(kHead + "layout = \"links\"\nnodes = 4\nlinks = [[0, 1], [2, 1], [3, 2]]\n")
           .network.serial;
  CHECK(serial_links(list) == std::vector<SerialLink>{{0, 1}, {1, 2}, {2, 3}});
  CHECK(serial_path(list, 3, 0) == std::vector<int>{3, 2, 1, 0});
}

TEST_CASE("serial: the shared segment puts the same nodes on one switch", "[scenario][serial]") {
  const Scenario s = load(kHead +
                          "layout = \"hypercube\"\nnodes = 16\nmedium = \"shared\"\n"
                          "segment_bandwidth = \"10Mbps\"\n");
  const SerialSpec& spec = *s.network.serial;
  CHECK(spec.medium == SerialMedium::Shared);
  CHECK(serial_links(spec).empty());
  REQUIRE(s.network.switches.size() == 1);
  CHECK(s.network.switches[0].hosts == 16);
  CHECK(s.network.switches[0].host_bandwidth == Approx(1.25e6));
  CHECK(s.protocol.processes == 16);
}

TEST_CASE("serial: errors name the line and the fix", "[scenario][serial]") {
  auto f = failure_of(kHead + "layout = \"hypercube\"\nnodes = 6\n");
  CHECK(f.line == 4);
  CHECK_THAT(f.what, Contains("power of two") && Contains("2, 4, 8"));

  f = failure_of(kHead + "layout = \"hypercube\"\nnodes = 32\n");
  CHECK(f.line == 3);
  CHECK_THAT(f.what, Contains("5 serial links but ports = 4") && Contains("raise ports"));
  CHECK_NOTHROW(load(kHead + "layout = \"hypercube\"\nnodes = 32\nports = 5\n"));

  f = failure_of(kHead + "layout = \"cube\"\nnodes = 8\n");
  CHECK(f.line == 3);
  CHECK_THAT(f.what, Contains("\"hypercube\""));

  f = failure_of(kHead + "layout = \"links\"\nnodes = 3\nlinks = [[0, 1],\n [1, 1]]\n");
  CHECK(f.line == 6);
  CHECK_THAT(f.what, Contains("joins a node to itself"));

  f = failure_of(kHead + "layout = \"links\"\nnodes = 3\nlinks = [[0, 1], [1, 0]]\n");
  CHECK_THAT(f.what, Contains("listed twice"));

  f = failure_of(kHead + "layout = \"links\"\nnodes = 3\nlinks = [[0, 3]]\n");
  CHECK_THAT(f.what, Contains("from 0 to 2"));

  f = failure_of(kHead + "layout = \"links\"\nnodes = 4\nlinks = [[0, 1], [2, 3]]\n");
  CHECK(f.line == 5);
  CHECK_THAT(f.what, Contains("node 2 cannot reach node 0") && Contains("add a link"));

  f = failure_of(kHead + "layout = \"mesh\"\nrows = 3\n");
  CHECK(f.line == 2);
  CHECK_THAT(f.what, Contains("rows and cols"));

  f = failure_of(kHead + "layout = \"torus\"\nrows = 2\ncols = 2\nnodes = 5\n");
  CHECK(f.line == 6);
  CHECK_THAT(f.what, Contains("rows x cols = 4"));

  f = failure_of(kHead + "nodes = 4\nmedium = \"bus\"\n");
  CHECK(f.line == 4);
  CHECK_THAT(f.what, Contains("\"shared\""));

  f = failure_of(kHead + "nodes = 4\nlinks = [[0, 1]]\n");
  CHECK_THAT(f.what, Contains("only read with layout = \"links\""));

  f = failure_of(kHead + "nodes = 4\nfifo = 8\n");
  CHECK(f.line == 4);

  f = failure_of(
      "name = \"s\"\n[network]\nswitch = [{ name = \"a\", hosts = 2 }]\n"
      "[network.serial]\nnodes = 4\n");
  CHECK(f.line == 3);
  CHECK_THAT(f.what, Contains("cannot go with [[network.switch]]"));

  f = failure_of(kHead + "nodes = 4\nbandwith = \"1Mbps\"\n");
  CHECK_THAT(f.what, Contains("bandwidth"));
}
