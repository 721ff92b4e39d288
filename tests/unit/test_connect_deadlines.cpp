// The core's connect deadlines on one timer: every connect is given up exactly at its deadline,
// in (deadline, id) order, and a burst of connects arms one timer, not one each.
#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <vector>

#include "wire/framed_conn.hpp"

using tsunagi::ArmTimerCmd;
using tsunagi::ConnId;
using tsunagi::TimeNs;
using tsunagi::wire::ConnectDeadlines;

TEST_CASE("connect deadlines: a burst arms one timer, settled connects are forgotten") {
  ConnectDeadlines deadlines;
  const std::optional<ArmTimerCmd> first = deadlines.add(1, 1000);
  REQUIRE(first);
  CHECK(first->at == 1000);
  CHECK(ConnectDeadlines::is_deadline_timer(first->timer));
  CHECK_FALSE(ConnectDeadlines::is_deadline_timer(7));  // a role's own timer
  for (ConnId id = 2; id <= 290; ++id) CHECK_FALSE(deadlines.add(id, 1000 + id));
  for (ConnId id = 1; id <= 290; ++id)
    if (id != 5) deadlines.settle(id);
  std::optional<ArmTimerCmd> next;
  CHECK(deadlines.fire(first->timer, 1000, next).empty());  // conn 5 is due at 1005
  REQUIRE(next);
  CHECK(next->at == 1005);
  CHECK(deadlines.fire(next->timer, 1005, next) == std::vector<ConnId>{5});
  CHECK_FALSE(next);  // nothing pending: nothing armed
}

TEST_CASE("connect deadlines: an earlier deadline re-arms, the superseded timer is ignored") {
  ConnectDeadlines deadlines;
  const auto late = deadlines.add(1, 5000);
  const auto early = deadlines.add(2, 2000);  // a shorter timeout, or clock skew in tests
  REQUIRE(late);
  REQUIRE(early);
  CHECK(early->at == 2000);
  std::optional<ArmTimerCmd> next;
  CHECK(deadlines.fire(late->timer, 5000, next).empty());  // superseded
  CHECK_FALSE(next);
  CHECK(deadlines.fire(early->timer, 2000, next) == std::vector<ConnId>{2});
  REQUIRE(next);
  CHECK(next->at == 5000);
  CHECK(deadlines.fire(next->timer, 5000, next) == std::vector<ConnId>{1});
}

TEST_CASE("connect deadlines: property: each unsettled connect is due exactly once, at its time") {
  // Deadlines from a fixed pseudo-random table with ties; every third connect settles.
  ConnectDeadlines deadlines;
  std::optional<ArmTimerCmd> armed;
  std::vector<TimeNs> deadline_of(200);
  for (ConnId id = 0; id < 200; ++id) {
    deadline_of[id] = 1000 + static_cast<TimeNs>((id * 7919) % 37) * 10;
    if (auto timer = deadlines.add(id, deadline_of[id])) armed = timer;
  }
  for (ConnId id = 0; id < 200; id += 3) deadlines.settle(id);
  std::vector<int> times_due(200, 0);
  TimeNs last = 0;
  while (armed) {
    std::optional<ArmTimerCmd> next;
    CHECK(armed->at >= last);
    last = armed->at;
    std::vector<ConnId> due = deadlines.fire(armed->timer, armed->at, next);
    for (std::size_t i = 0; i < due.size(); ++i) {
      CHECK(deadline_of[due[i]] == armed->at);  // given up exactly at its own deadline
      if (i > 0) CHECK(due[i - 1] < due[i]);    // ties in id order
      ++times_due[due[i]];
    }
    armed = next;
  }
  for (ConnId id = 0; id < 200; ++id) CHECK(times_due[id] == (id % 3 == 0 ? 0 : 1));
}

// Found by fuzz_node: the role's callbacks erase the connection they are given, and expire()
// read the erased entry to decide whether the other callback applied (use after free).
TEST_CASE(
    "connect deadlines: expire hands each overdue connection to one callback, which may "
    "erase it") {
  struct Conn {
    bool outgoing = false;
    bool up = false;
    tsunagi::auth::Handshake auth;
  };
  std::map<ConnId, Conn> conns;
  conns[1].outgoing = true;  // still connecting
  conns[2].outgoing = true;  // connected in time
  conns[2].up = true;
  conns[3].auth.stage = tsunagi::auth::Stage::AwaitProof;  // accepted, never proved itself
  conns[4];                                                // accepted and proven
  ConnectDeadlines deadlines;
  std::optional<ArmTimerCmd> timer;
  for (ConnId id = 1; id <= 4; ++id)
    if (auto armed = deadlines.add(id, 1000)) timer = armed;
  REQUIRE(timer);
  std::vector<ConnId> given_up, refused;
  const auto next = deadlines.expire(
      timer->timer, 1000, conns,
      [&](ConnId id) {
        given_up.push_back(id);
        conns.erase(id);
      },
      [&](ConnId id) {
        refused.push_back(id);
        conns.erase(id);
      });
  CHECK_FALSE(next);
  CHECK(given_up == std::vector<ConnId>{1});
  CHECK(refused == std::vector<ConnId>{3});
  CHECK(conns.size() == 2);
}

// Issue 29, item 5: the initiator's side has a deadline too. A connection that connected but
// whose acceptor has not proven the run's secret is overdue like one still connecting.
TEST_CASE(
    "connect deadlines: an outgoing connection whose acceptor never proved itself is given up") {
  struct Conn {
    bool outgoing = false;
    bool up = false;
    tsunagi::auth::Handshake auth;
  };
  std::map<ConnId, Conn> conns;
  conns[1].outgoing = true;  // connected, the acceptor silent
  conns[1].up = true;
  conns[1].auth.stage = tsunagi::auth::Stage::AwaitChallenge;
  conns[2].outgoing = true;  // connected and proved itself: open
  conns[2].up = true;
  conns[3].outgoing = true;  // proved itself, never answered the proof
  conns[3].up = true;
  conns[3].auth.stage = tsunagi::auth::Stage::AwaitAccept;
  ConnectDeadlines deadlines;
  std::optional<ArmTimerCmd> timer;
  for (ConnId id = 1; id <= 3; ++id)
    if (auto armed = deadlines.add(id, 1000)) timer = armed;
  REQUIRE(timer);
  std::vector<ConnId> given_up;
  deadlines.expire(
      timer->timer, 1000, conns, [&](ConnId id) { given_up.push_back(id); },
      [&](ConnId) { FAIL("no accepted connection here"); });
  CHECK(given_up == std::vector<ConnId>{1, 3});
}
