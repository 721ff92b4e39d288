// Issue 17: seeded fuzzing of whole roles (docs/security.md). Every role gets thousands of
// well-encoded frames of every type with ranks near and past the process count, on its
// rendezvous connection, on its own connects and on strangers' connections, interleaved with
// accepts, connects and closes. No input may crash a role (run under TSUNAGI_SANITIZE=ON it
// also may not touch memory it does not own), and every refusal carries a reason. This is how
// the relay-list, intsort and directory defects were found; they keep their own cases.
#include <catch2/catch.hpp>

#include <algorithm>

#include "hostile_harness.hpp"
#include "tsunagi/model/rng.hpp"

using namespace tsunagi;
using namespace tsunagi::hostile;
using wire::FrameType;

namespace {

constexpr int kProcesses = 4;

class Fuzzer {
 public:
  explicit Fuzzer(std::uint64_t seed) : rng_(seed) {}

  // A rank a peer might write: valid ones, and the edges a check must catch.
  Rank rank() {
    static constexpr Rank kOdd[] = {-1, kProcesses, kProcesses + 5, 1000, (1 << 20) - 1};
    if (rng_.uniform(2) == 0) return static_cast<Rank>(rng_.uniform(kProcesses));
    return kOdd[rng_.uniform(std::size(kOdd))];
  }
  std::vector<Rank> ranks() {
    std::vector<Rank> out(rng_.uniform(4));
    for (Rank& r : out) r = rank();
    return out;
  }
  std::string word() { return rng_.uniform(4) == 0 ? "" : "w" + std::to_string(rng_.uniform(3)); }

  wire::Frame frame() {
    using namespace wire;
    const std::uint64_t n = rng_.uniform(static_cast<std::uint64_t>(kLastFrameType)) + 1;
    const RelayEntry relay{word(), word(), "x:" + std::to_string(rng_.uniform(3))};
    switch (static_cast<FrameType>(n)) {
      case FrameType::Hello:
        return make_hello({rank(), static_cast<ConnPurpose>(rng_.uniform(5))});
      case FrameType::Register:
        return make_register({rank(), "e:1", word(), word()});
      case FrameType::Directory:
        return rng_.uniform(2) ? directory(kProcesses) : make_directory({{"a:1"}, {"h"}});
      case FrameType::RttReport:
        return make_rtt_report({rank(), ranks(), rng_.uniform(10)});
      case FrameType::GroupsMsg:
        return make_groups(GroupsMsgBody{Groups{ranks(), ranks()}, std::nullopt});
      case FrameType::RouteRound:
        return make_route_round(rank(), rank(),
                                {static_cast<std::uint32_t>(rng_.uniform(3)),
                                 rng_.uniform(2) == 1,
                                 {{rank(), static_cast<std::uint16_t>(rng_.uniform(3))}}});
      case FrameType::Data:
        return make_data(rank(), rank(), 0, {static_cast<std::uint32_t>(rng_.uniform(20)), {1}}, 0);
      case FrameType::ProbeOrder:
        return make_probe_order({rng_.uniform(4), rank(), rng_.uniform(1000) + 1});
      case FrameType::ProbeResult:
        return make_probe_result({rng_.uniform(4), 10, 5, rng_.uniform(2) == 1});
      case FrameType::RttOrder:
        return make_rtt_order({static_cast<std::uint32_t>(rng_.uniform(2)), ranks()});
      case FrameType::RttColumn: {
        const std::vector<Rank> peers = ranks();
        return make_rtt_column({0, peers, std::vector<std::uint64_t>(peers.size(), 7)});
      }
      case FrameType::EndpointQuery:
        return make_endpoint_query({ranks()});
      case FrameType::EndpointReply: {
        const std::vector<Rank> asked = ranks();
        return make_endpoint_reply({asked, std::vector<std::string>(asked.size(), "y:1")});
      }
      case FrameType::RelayRegister:
        return make_relay_register({relay});
      case FrameType::RelayList:
        return make_relay_list({{relay}, ranks()});
      case FrameType::RelayHello:
        return make_relay_hello({word().empty() ? "v" : word()});
      case FrameType::LinkAdvert:
        return make_link_advert({"w0", rng_.uniform(5), rng_.uniform(2) == 1, {word()}, ranks()});
      case FrameType::Undeliverable:
        return make_undeliverable(rank(), rank(), {1, 2, "why"});
      case FrameType::Done:
        return make_done(rank());
      case FrameType::Settled:
        return make_settled(rank());
      case FrameType::PeerUnreachable:
        return make_peer_unreachable(rank(), rank());
      case FrameType::Start:
        return make_start();
      case FrameType::Shutdown:
        return make_shutdown();
      case FrameType::ShutdownAck:
        return make_shutdown_ack();
      case FrameType::Release:
        return make_release();
      case FrameType::Goodbye:
        return make_goodbye();
      case FrameType::WindowOrder: {
        std::vector<Rank> window = ranks();
        std::sort(window.begin(), window.end());
        window.erase(std::unique(window.begin(), window.end()), window.end());
        return make_window_order({window, std::vector<std::int32_t>(window.size(), 0),
                                  std::vector<std::string>(window.size(), "z:1")});
      }
      case FrameType::WindowGroups:
        return make_window_groups(
            {Groups{ranks(), ranks()}, {{rank(), rank(), rng_.uniform(9)}}, 3, 1, 2});
      case FrameType::ProbeTurn: {
        Frame f = make_probe_turn(rank(), rank(), rng_.uniform(2) == 1);
        f.seq = static_cast<std::uint32_t>(rng_.uniform(3));  // 2: neither ask nor done
        return f;
      }
      case FrameType::ProbeTurnGrant:
        return make_probe_turn_grant(rank(), rank());
      case FrameType::AuthChallenge:
      case FrameType::AuthProof:
      case FrameType::AuthAccept: {
        // Handshake frames out of turn (these roles run without a secret: all are refused).
        Frame f;
        f.type = static_cast<FrameType>(n);
        f.payload.assign(rng_.uniform(60), 0xab);
        return f;
      }
    }
    return make_start();
  }

  // `steps` inputs against roles made by `make` (own connects numbered from 1). A role that
  // exits (a bad directory, a lost rendezvous, a lost rank) is replaced by a fresh one, so the
  // inputs keep reaching live roles. Returns every frame_rejected reason.
  template <class Make>
  std::vector<std::string> run(Make make, int steps) {
    std::vector<std::string> reasons;
    Driven role = make();
    std::vector<ConnId> conns{kToRendezvous};
    std::uint64_t strangers = 0;
    for (int i = 0; i < steps; ++i) {
      const std::uint64_t what = rng_.uniform(20);
      if (what == 0) {
        conns.push_back(role.accept(++strangers));
      } else if (what == 1) {
        role.input(ConnectedInput{rng_.uniform(8) + 1});
      } else if (what == 2 && conns.size() > 1) {
        role.input(ClosedInput{conns[rng_.uniform(conns.size())]});
      } else if (what == 3) {
        role.input(TimerFiredInput{rng_.uniform(4)});
      } else {
        const ConnId to =
            rng_.uniform(4) == 0 ? rng_.uniform(8) + 1 : conns[rng_.uniform(conns.size())];
        role.frame(to, frame());
      }
      role.now += 1000;
      if (role.exit()) {
        for (std::string& r : role.rejections()) reasons.push_back(std::move(r));
        role = make();
        conns = {kToRendezvous};
      }
    }
    for (std::string& r : role.rejections()) reasons.push_back(std::move(r));
    return reasons;
  }

 private:
  Rng rng_;
};

// Every refusal says why, and there were refusals: the fuzzer reached the checks.
void check_reasons(const std::vector<std::string>& reasons) {
  CHECK(reasons.size() > 20);
  for (const std::string& reason : reasons) CHECK_FALSE(reason.empty());
}

}  // namespace

TEST_CASE("hostile fuzz: nodes of every plan survive any frame on any connection",
          "[hostile][fuzz]") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const PlanKind plan = seed % 3 == 0   ? PlanKind::Relay
                          : seed % 3 == 1 ? PlanKind::AllToAll
                                          : PlanKind::TopologyAware;
    auto cfg = config(kProcesses, plan);
    cfg->relays = 1;
    cfg->overlay.shortcut_capacity = 2;
    const auto rank = static_cast<Rank>(seed % kProcesses);
    check_reasons(Fuzzer(seed).run([&] { return started_node(cfg, rank, "w0"); }, 3000));
  }
}

TEST_CASE("hostile fuzz: the rendezvous survives any frame on any connection", "[hostile][fuzz]") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    auto cfg = config(kProcesses, seed % 2 ? PlanKind::Relay : PlanKind::TopologyAware);
    cfg->relays = 1;
    const auto make = [&] {
      Driven rv(make_rendezvous());
      rv.input(StartedInput{kNoRank, "rv:7000", "", "rv", "", cfg, "", 0});
      return rv;
    };
    check_reasons(Fuzzer(seed).run(make, 3000));
  }
}

TEST_CASE("hostile fuzz: relays survive any frame on any connection", "[hostile][fuzz]") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    auto cfg = config(kProcesses, PlanKind::Relay);
    cfg->relays = 2;
    const auto make = [&] {
      Driven relay(make_relay());
      relay.input(StartedInput{kNoRank, "w0:1", "rv:7000", "w0", "w0", cfg, "", 0});
      relay.input(ConnectedInput{kToRendezvous});
      return relay;
    };
    check_reasons(Fuzzer(seed).run(make, 3000));
  }
}
