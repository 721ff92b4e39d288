// Issue 17: the rendezvous faced with strangers and repeating ranks (docs/security.md). Before
// the fix it answered endpoint queries on connections that never registered, ended the run on
// n Done frames from one connection, let one connection register twice, and stored near sets
// naming ranks that do not exist.
#include <catch2/catch.hpp>

#include "hostile_harness.hpp"

using namespace tsunagi;
using namespace tsunagi::hostile;
using wire::ConnPurpose;
using wire::FrameType;

namespace {

struct Run {
  Driven rv{make_rendezvous()};
  std::vector<ConnId> ranks;  // the connection each rank registered on
};

// A rendezvous of `n` ranks with every rank registered (the directory is out); with `running`,
// also past inference (plan all: empty views), so the groups are out and Done counts.
Run registered(int n, bool running, RoutingKind routing = RoutingKind::Rounds) {
  auto cfg = config(n);
  cfg->overlay.routing = routing;
  Run run;
  run.rv.input(StartedInput{kNoRank, "rv:7000", "", "rv", "", cfg, "", 0});
  for (Rank r = 0; r < n; ++r) {
    const ConnId id = run.rv.accept(static_cast<std::uint64_t>(r) + 1);
    run.rv.frame(id, wire::make_hello({r, ConnPurpose::Control}));
    run.rv.frame(id, wire::make_register({r, endpoint_of(r), "h" + std::to_string(r), ""}));
    run.ranks.push_back(id);
  }
  REQUIRE(run.rv.traces("directory").size() == 1);
  if (running) {
    for (Rank r = 0; r < n; ++r) run.rv.frame(run.ranks[r], wire::make_rtt_report({r, {}, 0}));
    REQUIRE(run.rv.traces("groups").size() == 1);
  }
  return run;
}

bool shutdown_sent(const Run& run, std::size_t mark) {
  for (ConnId id : run.ranks)
    if (has_type(run.rv.sent(id, mark), FrameType::Shutdown)) return true;
  return false;
}

}  // namespace

TEST_CASE("hostile rendezvous: endpoint queries from unregistered connections are refused",
          "[hostile][rendezvous]") {
  Run run = registered(2, true);
  const ConnId evil = run.rv.accept(100);
  run.rv.frame(evil, wire::make_hello({0, ConnPurpose::Control}));
  const std::size_t mark = run.rv.mark();
  run.rv.frame(evil, wire::make_endpoint_query({{0, 1}}));
  CHECK(run.rv.rejections(mark) ==
        std::vector<std::string>{
            "endpoint_query from a connection that has not registered as a rank"});
  CHECK(run.rv.sent(evil, mark).empty());  // no endpoint leaked
  CHECK(run.rv.closed(evil, mark));
  // A registered rank still gets its answer.
  run.rv.frame(run.ranks[0], wire::make_endpoint_query({{1}}));
  const auto reply = run.rv.sent(run.ranks[0], mark);
  REQUIRE(reply.size() == 1);
  CHECK(reply[0].type == FrameType::EndpointReply);
}

TEST_CASE("hostile rendezvous: each rank's done counts once, from its own connection",
          "[hostile][rendezvous]") {
  Run run = registered(2, true);
  const std::size_t mark = run.rv.mark();
  // Eight Done frames from rank 0 used to end a run of two.
  for (int i = 0; i < 8; ++i) run.rv.frame(run.ranks[0], wire::make_done(0));
  CHECK_FALSE(shutdown_sent(run, mark));
  CHECK(run.rv.rejections(mark) == std::vector<std::string>(7, "done twice"));
  CHECK_FALSE(run.rv.closed(run.ranks[0], mark));  // the rank itself stays in the run
  // A stranger's Done, or a rank's Done for another rank, counts for nobody.
  const ConnId evil = run.rv.accept(100);
  run.rv.frame(evil, wire::make_done(1));
  CHECK(mentions(run.rv.rejections(mark), "done from a connection that has not registered"));
  CHECK_FALSE(shutdown_sent(run, mark));
  // The run ends when the last rank is really done.
  run.rv.frame(run.ranks[1], wire::make_done(1));
  CHECK(shutdown_sent(run, mark));
  CHECK(run.rv.traces("shutdown", mark).size() == 1);
}

TEST_CASE("hostile rendezvous: a rank cannot report done for another", "[hostile][rendezvous]") {
  Run run = registered(3, true);
  const std::size_t mark = run.rv.mark();
  run.rv.frame(run.ranks[0], wire::make_done(1));
  CHECK(run.rv.rejections(mark) ==
        std::vector<std::string>{"done for rank 1 from rank 0's connection"});
  run.rv.frame(run.ranks[1], wire::make_done(1));
  run.rv.frame(run.ranks[2], wire::make_done(2));
  CHECK_FALSE(shutdown_sent(run, mark));  // rank 0 is not done
}

TEST_CASE("hostile rendezvous: settled counts once per rank", "[hostile][rendezvous]") {
  Run run = registered(2, true, RoutingKind::Direct);
  const std::size_t mark = run.rv.mark();
  run.rv.frame(run.ranks[0], wire::make_settled(0));
  run.rv.frame(run.ranks[0], wire::make_settled(0));
  CHECK(run.rv.traces("all_settled", mark).empty());
  CHECK(run.rv.rejections(mark) == std::vector<std::string>{"settled twice"});
  run.rv.frame(run.ranks[1], wire::make_settled(1));
  CHECK(run.rv.traces("all_settled", mark).size() == 1);
}

TEST_CASE("hostile rendezvous: a connection registers one identity", "[hostile][rendezvous]") {
  auto cfg = config(3);
  Driven rv(make_rendezvous());
  rv.input(StartedInput{kNoRank, "rv:7000", "", "rv", "", cfg, "", 0});
  const ConnId c = rv.accept(1);
  rv.frame(c, wire::make_register({0, "n0:7000", "h0", ""}));
  const std::size_t mark = rv.mark();
  // Taking rank 2's slot too would let one process speak for two.
  rv.frame(c, wire::make_register({2, "evil:1", "h0", ""}));
  CHECK(rv.rejections(mark) == std::vector<std::string>{"this connection registered already"});
  // Rank 2 can still register itself.
  const ConnId two = rv.accept(2);
  rv.frame(two, wire::make_register({2, "n2:7000", "h2", ""}));
  CHECK(rv.rejections(mark).size() == 1);
}

TEST_CASE("hostile rendezvous: reports naming ranks past the process count are refused",
          "[hostile][rendezvous]") {
  Run run = registered(2, false);
  const std::size_t mark = run.rv.mark();
  run.rv.frame(run.ranks[0], wire::make_rtt_report({0, {1, 5000}, 3}));
  CHECK(run.rv.rejections(mark) ==
        std::vector<std::string>{"near rank 5000 is not a process of this run (2 processes)"});
  // Unregistered connections report nothing.
  const ConnId evil = run.rv.accept(100);
  run.rv.frame(evil, wire::make_rtt_column({0, {1}, {5}}));
  CHECK(mentions(run.rv.rejections(mark), "rtt_column from a connection that has not registered"));
  run.rv.frame(run.rv.accept(101), wire::make_probe_result({0, 1, 1, true}));
  CHECK(mentions(run.rv.rejections(mark), "probe_result from a connection that has not"));
}

TEST_CASE("hostile rendezvous: a rank's rtt report counts once", "[hostile][rendezvous]") {
  // Before: a second report counted as another rank's, so inference ended without every view;
  // one after the views were combined wrote past them (a double free under ASan).
  Run run = registered(3, false);
  const std::size_t mark = run.rv.mark();
  run.rv.frame(run.ranks[0], wire::make_rtt_report({0, {}, 0}));
  run.rv.frame(run.ranks[0], wire::make_rtt_report({0, {}, 0}));
  run.rv.frame(run.ranks[1], wire::make_rtt_report({1, {}, 0}));
  CHECK(run.rv.rejections(mark) == std::vector<std::string>{"rtt report repeated"});
  CHECK(run.rv.traces("groups", mark).empty());  // rank 2 has not reported yet
  run.rv.frame(run.ranks[2], wire::make_rtt_report({2, {}, 0}));
  CHECK(run.rv.traces("groups", mark).size() == 1);
  run.rv.frame(run.ranks[2], wire::make_rtt_report({2, {}, 0}));  // after the views are combined
  CHECK(run.rv.rejections(mark).size() == 2);
}

// Found by fuzz_rendezvous: the rendezvous passed a PeerUnreachable on as received, filler claim
// and payload included, but sent no filler bytes with it; the receiving node then read the
// frames after it as filler and dropped the connection on "bad magic byte 0".
TEST_CASE("hostile rendezvous: a peer_unreachable is passed on as a fresh frame",
          "[hostile][rendezvous]") {
  Run run = registered(3, false);
  wire::Frame claim = wire::make_peer_unreachable(0, 1);
  claim.payload.assign(192, 0x17);
  claim.seq = 0x17171717;
  claim.filler = 4096;
  const std::size_t mark = run.rv.mark();
  run.rv.frame(run.ranks[0], claim);
  run.rv.frame(run.ranks[2], wire::make_peer_unreachable(2, 1));
  const auto to_rank1 = run.rv.sent(run.ranks[1], mark);
  REQUIRE(to_rank1.size() == 2);
  for (const wire::Frame& f : to_rank1) {
    CHECK(f.type == FrameType::PeerUnreachable);
    CHECK(f.dst == 1);
    CHECK(f.payload.empty());
    CHECK(f.filler == 0);
    CHECK(f.seq == 0);
  }
  CHECK(to_rank1[0].src == 0);
  CHECK(to_rank1[1].src == 2);
}

TEST_CASE("hostile rendezvous: probe turns go to the rank that asked, in order",
          "[hostile][rendezvous][window]") {
  Run run = registered(3, true);
  const std::size_t mark = run.rv.mark();
  const auto grants = [&](Rank r) {
    std::vector<Rank> targets;
    for (const wire::Frame& f : run.rv.sent(run.ranks[r], mark))
      if (f.type == FrameType::ProbeTurnGrant && f.src == r) targets.push_back(f.dst);
    return targets;
  };
  run.rv.frame(run.ranks[0], wire::make_probe_turn(0, 2, false));
  run.rv.frame(run.ranks[1], wire::make_probe_turn(1, 2, false));
  CHECK(grants(0) == std::vector<Rank>{2});
  CHECK(grants(1).empty());  // 2 is being measured
  // A second ask while waiting is refused, and the rank kept.
  run.rv.frame(run.ranks[1], wire::make_probe_turn(1, 0, false));
  CHECK(run.rv.rejections(mark) ==
        std::vector<std::string>{"a second turn (rank 1 already asked for rank 2)"});
  CHECK_FALSE(run.rv.closed(run.ranks[1], mark));
  // Done from a rank that does not hold the turn passes nothing on.
  run.rv.frame(run.ranks[1], wire::make_probe_turn(1, 2, true));
  CHECK(grants(1).empty());
  run.rv.frame(run.ranks[0], wire::make_probe_turn(0, 2, true));
  CHECK(grants(1) == std::vector<Rank>{2});
}

TEST_CASE("hostile rendezvous: probe turns for other ranks, unknown ranks, strangers",
          "[hostile][rendezvous][window]") {
  Run run = registered(3, true);
  const std::size_t mark = run.rv.mark();
  const ConnId evil = run.rv.accept(100);
  run.rv.frame(evil, wire::make_probe_turn(0, 1, false));
  CHECK(mentions(run.rv.rejections(mark), "probe_turn from a connection that has not registered"));
  CHECK(run.rv.sent(evil, mark).empty());
  wire::Frame odd = wire::make_probe_turn(0, 1, false);
  odd.seq = 7;
  run.rv.frame(run.ranks[0], odd);
  CHECK(run.rv.rejections(mark).back() == "probe_turn with seq 7");
  Run other = registered(3, true);
  other.rv.frame(other.ranks[0], wire::make_probe_turn(0, 3, false));
  CHECK(other.rv.rejections(0).back() ==
        "probe_turn target rank 3 is not a process of this run (3 processes)");
  Run third = registered(3, true);
  third.rv.frame(third.ranks[0], wire::make_probe_turn(1, 2, false));
  CHECK(third.rv.rejections(0).back() == "probe_turn for rank 1 from rank 0's connection");
  for (ConnId id : third.ranks) CHECK_FALSE(has_type(third.rv.sent(id), FrameType::ProbeTurnGrant));
}
