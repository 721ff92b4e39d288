// The rendezvous's relay registry: who attaches where, what each relay is told, site groups.
#include <catch2/catch.hpp>

#include "rendezvous/relay_registry.hpp"

using namespace tsunagi;

TEST_CASE("relay registry: ranks spread over their site's relays, fall-backs in order", "[relay]") {
  RelayRegistry reg;
  REQUIRE_FALSE(reg.add(10, {"b-relay1", "b", "e3"}));
  REQUIRE_FALSE(reg.add(11, {"a-relay0", "a", "e1"}));
  REQUIRE_FALSE(reg.add(12, {"b-relay0", "b", "e2"}));
  CHECK(reg.add(13, {"a-relay0", "a", "e9"}).value() == "relay a-relay0 registered twice");
  CHECK(reg.labels() == std::vector<std::string>{"a-relay0", "b-relay0", "b-relay1"});

  // Rank r of site b takes relay r mod 2 (label order), then the other one.
  const auto for4 = reg.for_rank(4, "b").relays;
  const auto for5 = reg.for_rank(5, "b").relays;
  REQUIRE(for4.size() == 2);
  CHECK(for4[0].label == "b-relay0");
  CHECK(for4[1].label == "b-relay1");
  CHECK(for5[0].label == "b-relay1");
  CHECK(for5[1].label == "b-relay0");
  CHECK(reg.for_rank(3, "nowhere").relays.empty());

  const std::vector<std::string> sites{"a", "a", "b", "b", "b", "b"};
  CHECK(reg.for_relay(12, sites).expected == std::vector<Rank>{2, 4});
  CHECK(reg.for_relay(10, sites).expected == std::vector<Rank>{3, 5});
  CHECK(reg.for_relay(11, sites).expected == std::vector<Rank>{0, 1});
  CHECK(reg.for_relay(11, sites).relays.size() == 3);

  CHECK(reg.remove(12).value() == "b-relay0");
  CHECK_FALSE(reg.remove(12));
  CHECK(reg.for_rank(4, "b").relays.size() == 1);
}

TEST_CASE("site groups: ranks by site, ordered by smallest rank", "[relay]") {
  CHECK(site_groups({"b", "a", "b", "c", "a"}) == Groups{{0, 2}, {1, 4}, {3}});
  CHECK(site_groups({"", "", ""}) == Groups{{0, 1, 2}});
  CHECK(site_groups({}).empty());
}
