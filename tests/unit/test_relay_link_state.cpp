// Relay link-state database: advert ordering, shortest paths (fewest hops, ties by label), and a
// dead relay routed around once its neighbours withdraw their links to it.
#include <catch2/catch.hpp>

#include "tsunagi/model/relay/link_state.hpp"

using tsunagi::relay::Advert;
using tsunagi::relay::LinkState;
using Path = std::vector<std::string>;

TEST_CASE("adverts: only newer sequence numbers are stored") {
  LinkState ls;
  CHECK(ls.accept({"a", 2, {"b"}}));
  CHECK_FALSE(ls.accept({"a", 2, {"c"}}));
  CHECK_FALSE(ls.accept({"a", 1, {}}));
  CHECK(ls.accept({"a", 3, {}}));
  CHECK(ls.seq_of("a") == 3u);
  CHECK_FALSE(ls.seq_of("z").has_value());
}

TEST_CASE("paths use links both ends advertise, fewest hops") {
  // The paper's layout in small: chiba and logos both reach kototoi, not each other.
  LinkState ls;
  ls.accept({"chiba", 1, {"kototoi"}});
  ls.accept({"kototoi", 1, {"chiba", "logos"}});
  ls.accept({"logos", 1, {"kototoi"}});
  CHECK(ls.path("chiba", "logos") == Path{"chiba", "kototoi", "logos"});
  CHECK(ls.next_hop("chiba", "logos") == std::string("kototoi"));
  CHECK(ls.path("chiba", "chiba") == Path{"chiba"});
  // A one-sided claim is not a link.
  ls.accept({"imade", 1, {"chiba"}});
  CHECK(ls.path("imade", "chiba").empty());
}

TEST_CASE("equal-length paths: smallest labels win, a dead relay is routed around") {
  LinkState ls;
  ls.accept({"a", 1, {"b", "c"}});
  ls.accept({"b", 1, {"a", "d"}});
  ls.accept({"c", 1, {"a", "d"}});
  ls.accept({"d", 1, {"b", "c"}});
  CHECK(ls.path("a", "d") == Path{"a", "b", "d"});
  // b dies: a and d withdraw it, b's stale advert stays but no longer forms links.
  ls.accept({"a", 2, {"c"}});
  ls.accept({"d", 2, {"c"}});
  CHECK(ls.path("a", "d") == Path{"a", "c", "d"});
  // c dies too: unreachable, reported as an empty path.
  ls.accept({"a", 3, {}});
  CHECK(ls.path("a", "d").empty());
  CHECK_FALSE(ls.next_hop("a", "d").has_value());
}
