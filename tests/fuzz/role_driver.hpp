// Drives one role of the core (node, rendezvous or relay) with a sequence of inputs decoded from
// a libFuzzer input (docs/security.md, "Fuzzing"): the run's configuration, then events —
// accepts, connects and their failures, closes, timers the role armed, probe and compute
// results, raw bytes, and well-formed frames of every type with fuzzer-chosen fields. Every
// workload kind is drawn. Half the inputs give the role the run's secret: then the driver plays
// the other end of each connection through the real handshake (challenge, proof over a fuzzed
// first frame, accept), so fuzzed frames still reach the role's logic once a connection is
// authenticated, and everything sent out of turn meets the handshake's refusals.
//
// Oracles besides the sanitizers: every frame_rejected decision has a reason, and every byte
// the role sends on a connection deframes cleanly (a role never sends a malformed stream).
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tsunagi/model/handshake.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/roles.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi::fuzz {

class RoleDriver {
 public:
  explicit RoleDriver(FuzzedDataProvider& in) : in_(in) {}

  // The configuration every role of the run shares, drawn from the input.
  std::shared_ptr<ProtocolConfig> config() {
    auto c = std::make_shared<ProtocolConfig>();
    c->processes = in_.ConsumeIntegralInRange<int>(2, 9);
    c->overlay.plan = static_cast<PlanKind>(
        in_.ConsumeIntegralInRange<int>(0, static_cast<int>(PlanKind::Hierarchical)));
    c->overlay.routing = static_cast<RoutingKind>(in_.ConsumeIntegralInRange<int>(0, 2));
    if (c->overlay.routing == RoutingKind::FromGroups && !inferred_plan(c->overlay.plan))
      c->overlay.plan = PlanKind::TopologyAware;
    c->overlay.shortcut_capacity = in_.ConsumeIntegralInRange<int>(0, 3);
    c->workload.kind = static_cast<WorkloadKind>(
        in_.ConsumeIntegralInRange<int>(0, static_cast<int>(WorkloadKind::Indices)));
    // The integer sort's default 2^20 keys made bucketing 70 % of fuzz_node's time without
    // reaching any state 4,096 keys do not (the same code paths, a shorter loop). Likewise
    // the other workloads' sizes: small ones reach the same states.
    c->workload.intsort.total_keys = 1u << 12;
    c->workload.multicast.sizes = {100, 5000};
    c->workload.multicast.group_sizes = {1, c->processes - 1};
    c->workload.multicast.repeats = 2;
    c->workload.lmmc.sizes = {1, 300};
    c->workload.indices.sizes = {64, 5000};
    c->workload.indices.repeats = 1;
    c->workload.indices.stream_bytes = 1u << 16;
    c->workload.indices.train_messages = in_.ConsumeIntegralInRange<int>(0, 2);
    c->relays = c->overlay.plan == PlanKind::Relay ? in_.ConsumeIntegralInRange<int>(1, 2) : 0;
    c->inference.groups = static_cast<GroupMethod>(
        in_.ConsumeIntegralInRange<int>(0, static_cast<int>(GroupMethod::Partition)));
    c->inference.tree = static_cast<TreeMethod>(
        in_.ConsumeIntegralInRange<int>(0, static_cast<int>(TreeMethod::Partition)));
    c->directory = static_cast<DirectoryMode>(in_.ConsumeIntegralInRange<int>(0, 1));
    // protocol.window: "auto" runs the path meter on whatever throughput outcomes the input
    // makes up (sizes, times, failures), with small probes so its pairs stay short.
    c->window.mode = static_cast<WindowMode>(
        in_.ConsumeIntegralInRange<int>(0, static_cast<int>(WindowMode::Auto)));
    c->window.bytes = 1u << 16;
    c->window.probe_bytes = 1u << 16;
    c->window.max_bytes = 1u << 20;
    n_ = c->processes;
    return c;
  }

  // Whether the role holds the run's secret, drawn from the input; the driver then holds it too.
  std::string draw_secret() {
    if (!in_.ConsumeBool()) return "";
    peer_key_ = auth::RunKey(kSecret, 7);
    return kSecret;
  }

  // Feeds events until the input is used up or the role exits.
  void run(Process& role, StartedInput started) {
    deliver(role, std::move(started));
    for (int step = 0; step < 400 && in_.remaining_bytes() > 0 && !exited_; ++step) {
      now_ += in_.ConsumeIntegralInRange<TimeNs>(0, 2'000'000'000);
      deliver(role, next_event());
    }
  }

 private:
  Rank rank() {
    if (in_.ConsumeBool()) return in_.ConsumeIntegralInRange<Rank>(0, n_ - 1);
    static constexpr Rank kOdd[] = {-1, 9, 100, (1 << 20) - 1, -7};
    return kOdd[in_.ConsumeIntegralInRange<std::size_t>(0, 4)];
  }
  std::vector<Rank> ranks() {
    std::vector<Rank> out(in_.ConsumeIntegralInRange<std::size_t>(0, 5));
    for (Rank& r : out) r = rank();
    return out;
  }
  std::string word() { return in_.ConsumeRandomLengthString(12); }
  ConnId conn() {
    if (conns_.empty() || in_.ConsumeIntegralInRange<int>(0, 7) == 0)
      return in_.ConsumeIntegralInRange<ConnId>(1, 8);
    return conns_[in_.ConsumeIntegralInRange<std::size_t>(0, conns_.size() - 1)];
  }
  template <class T>
  T pick(const std::vector<T>& armed, T otherwise) {
    if (armed.empty() || in_.ConsumeIntegralInRange<int>(0, 7) == 0) return otherwise;
    return armed[in_.ConsumeIntegralInRange<std::size_t>(0, armed.size() - 1)];
  }

  wire::Frame structured_frame();
  wire::Frame raw_frame() {
    wire::Frame f;
    f.type = static_cast<wire::FrameType>(
        in_.ConsumeIntegralInRange<int>(1, static_cast<int>(wire::kLastFrameType)));
    f.src = rank();
    f.dst = rank();
    f.seq = in_.ConsumeIntegral<std::uint32_t>();
    f.payload = in_.ConsumeBytes<std::uint8_t>(in_.ConsumeIntegralInRange<std::size_t>(0, 300));
    f.filler = in_.ConsumeBool() ? in_.ConsumeIntegralInRange<std::uint64_t>(0, 1 << 16) : 0;
    return f;
  }

  // The next handshake frame the driver owes the role as the other end of a connection.
  InputEvent owed_frame() {
    auto [conn, frame] = owed_.front();
    owed_.erase(owed_.begin());
    return ReceivedInput{conn, wire::encode(frame), frame.filler};
  }

  // As the other end of `conn`, the driver's answer to a frame the role sent there: the
  // handshake's replies, and as initiator its proof and the fuzzed first frame it covers.
  void answer(ConnId conn, const wire::Frame& frame) {
    const auto peer = peers_.find(conn);
    if (!peer_key_.required() || peer == peers_.end()) return;
    const auth::Step step = auth::on_frame(peer->second, peer_key_, frame);
    for (const wire::Frame& reply : step.send) owed_.emplace_back(conn, reply);
    if (!step.prove) return;
    const wire::Frame first = structured_frame();
    peer->second.first = auth::first_frame_bytes(first);
    owed_.emplace_back(conn, auth::prove(peer->second, peer_key_));
    owed_.emplace_back(conn, first);
  }

  InputEvent next_event() {
    const int kind = in_.ConsumeIntegralInRange<int>(0, 12);
    if (kind == 12 && !owed_.empty()) return owed_frame();
    switch (kind) {
      case 0: {
        const ConnId id = kAcceptedConnBit | ++accepted_;
        conns_.push_back(id);
        auth::begin_initiator(peers_[id], peer_key_);  // the role challenges, the driver proves
        return AcceptedInput{id};
      }
      case 1:
        return ConnectedInput{conn()};
      case 2:
        return ConnectFailedInput{conn(),
                                  static_cast<ConnectFailure>(in_.ConsumeIntegralInRange(0, 2))};
      case 3:
        return ClosedInput{conn()};
      case 4:
        return TimerFiredInput{pick<std::uint64_t>(timers_, in_.ConsumeIntegral<std::uint64_t>())};
      case 5:
        return RttMeasuredInput{pick<std::uint64_t>(probes_, in_.ConsumeIntegral<std::uint64_t>()),
                                in_.ConsumeIntegralInRange<TimeNs>(0, 10'000'000),
                                in_.ConsumeBool()};
      case 6:
        return ThroughputMeasuredInput{
            pick<std::uint64_t>(probes_, in_.ConsumeIntegral<std::uint64_t>()),
            in_.ConsumeIntegralInRange<std::uint64_t>(0, 1 << 24),
            in_.ConsumeIntegralInRange<TimeNs>(0, 1'000'000'000), in_.ConsumeBool()};
      case 7:
        return ComputeDoneInput{pick<std::uint64_t>(tasks_, in_.ConsumeIntegral<std::uint64_t>())};
      case 8:
        return ReceivedInput{conn(), in_.ConsumeBytes<std::uint8_t>(
                                         in_.ConsumeIntegralInRange<std::size_t>(0, 128))};
      case 9: {
        const wire::Frame f = raw_frame();
        return ReceivedInput{conn(), wire::encode(f), f.filler};
      }
      default: {
        const wire::Frame f = structured_frame();
        return ReceivedInput{conn(), wire::encode(f), f.filler};
      }
    }
  }

  void deliver(Process& role, InputEvent event) {
    Input input{now_, std::move(event)};
    role.handle(input);
    for (Command& command : role.drain_commands()) check(command);
  }

  void check(Command& command) {
    if (auto* c = std::get_if<ConnectCmd>(&command)) {
      conns_.push_back(c->conn);
      // The driver accepts: its challenge is owed (and may come early, late or never).
      if (auto challenge = auth::begin_acceptor(peers_[c->conn], peer_key_))
        owed_.emplace_back(c->conn, *challenge);
    }
    if (auto* t = std::get_if<ArmTimerCmd>(&command)) timers_.push_back(t->timer);
    if (auto* p = std::get_if<ProbeRttCmd>(&command)) probes_.push_back(p->probe);
    if (auto* p = std::get_if<ProbeThroughputCmd>(&command)) probes_.push_back(p->probe);
    if (auto* c = std::get_if<ComputeCmd>(&command)) tasks_.push_back(c->task);
    if (std::holds_alternative<ExitCmd>(command)) exited_ = true;
    if (auto* t = std::get_if<TraceCmd>(&command);
        t != nullptr && t->kind == "frame_rejected" && t->detail.value("reason", "").empty())
      std::abort();  // a refusal without a reason
    if (auto* s = std::get_if<SendCmd>(&command)) {
      wire::Deframer& d = sent_[s->conn];
      d.feed(s->bytes, s->filler);
      while (true) {
        auto next = d.next();
        if (const auto* error = std::get_if<wire::DecodeError>(&next)) {  // we sent garbage
          std::fprintf(stderr, "role sent an undecodable frame: %s\n", error->reason.c_str());
          std::abort();
        }
        if (std::holds_alternative<std::monostate>(next)) break;
        answer(s->conn, std::get<wire::Frame>(next));
      }
    }
  }

  FuzzedDataProvider& in_;
  int n_ = 2;
  TimeNs now_ = 0;
  bool exited_ = false;
  std::uint64_t accepted_ = 0;
  std::vector<ConnId> conns_;
  std::vector<std::uint64_t> timers_, probes_, tasks_;
  std::map<ConnId, wire::Deframer> sent_;
  static constexpr const char* kSecret = "fuzzed-run-secret-0123456789abcdef";
  auth::RunKey peer_key_;                             // empty: the run does not authenticate
  std::map<ConnId, auth::Handshake> peers_;           // the driver's end of each connection
  std::vector<std::pair<ConnId, wire::Frame>> owed_;  // handshake frames not yet delivered
};

inline wire::Frame RoleDriver::structured_frame() {
  using namespace wire;
  const wire::RelayEntry relay{word(), word(), word()};
  switch (static_cast<FrameType>(
      in_.ConsumeIntegralInRange<int>(1, static_cast<int>(kLastFrameType)))) {
    case FrameType::Hello:
      return make_hello({rank(), static_cast<ConnPurpose>(in_.ConsumeIntegralInRange(0, 4))});
    case FrameType::Register:
      return make_register({rank(), word(), word(), word()});
    case FrameType::Directory: {
      DirectoryMsg d;
      const int count = in_.ConsumeBool() ? n_ : in_.ConsumeIntegralInRange(0, 3);
      for (int i = 0; i < count; ++i) {
        d.endpoints.push_back(in_.ConsumeBool() ? "" : "p" + std::to_string(i));
        d.hosts.push_back("h" + std::to_string(in_.ConsumeIntegralInRange(0, 3)));
      }
      return make_directory(d);
    }
    case FrameType::RttReport:
      return make_rtt_report({rank(), ranks(), in_.ConsumeIntegral<std::uint8_t>()});
    case FrameType::GroupsMsg:
      if (in_.ConsumeBool()) {  // a hierarchical placement, as claimed by the sender
        LeaderLinks links{rank(),
                          in_.ConsumeBool() ? kNoRank : rank(),
                          in_.ConsumeIntegral<std::uint16_t>(),
                          in_.ConsumeIntegral<std::uint16_t>(),
                          ranks(),
                          ranks(),
                          ranks()};
        return make_groups(GroupsMsgBody{Groups{ranks()}, std::move(links)});
      }
      return make_groups(GroupsMsgBody{Groups{ranks(), ranks(), ranks()}, std::nullopt});
    case FrameType::RouteRound:
      return make_route_round(rank(), rank(),
                              {in_.ConsumeIntegralInRange<std::uint32_t>(0, 4),
                               in_.ConsumeBool(),
                               {{rank(), in_.ConsumeIntegral<std::uint16_t>()},
                                {rank(), in_.ConsumeIntegralInRange<std::uint16_t>(0, 3)}}});
    case FrameType::Data:
      return make_data(rank(), rank(), in_.ConsumeIntegral<std::uint32_t>(),
                       {in_.ConsumeIntegralInRange<std::uint32_t>(0, 40),
                        in_.ConsumeBytes<std::uint8_t>(in_.ConsumeIntegralInRange(0, 64))},
                       in_.ConsumeIntegralInRange<std::uint64_t>(0, 1 << 12));
    case FrameType::ProbeOrder:
      return make_probe_order({in_.ConsumeIntegralInRange<std::uint64_t>(0, 8), rank(),
                               in_.ConsumeIntegralInRange<std::uint64_t>(0, 1 << 20)});
    case FrameType::ProbeResult:
      return make_probe_result({in_.ConsumeIntegralInRange<std::uint64_t>(0, 8),
                                in_.ConsumeIntegralInRange<std::uint64_t>(0, 1 << 20),
                                in_.ConsumeIntegralInRange<TimeNs>(0, 1'000'000),
                                in_.ConsumeBool()});
    case FrameType::RttOrder:
      return make_rtt_order({in_.ConsumeIntegralInRange<std::uint32_t>(0, 3), ranks()});
    case FrameType::RttColumn: {
      const std::vector<Rank> peers = ranks();
      std::vector<std::uint64_t> rtts;
      for (std::size_t i = 0; i < peers.size(); ++i)
        rtts.push_back(in_.ConsumeIntegralInRange<std::uint64_t>(0, 100'000));
      return make_rtt_column({in_.ConsumeIntegralInRange<std::uint32_t>(0, 3), peers, rtts});
    }
    case FrameType::EndpointQuery:
      return make_endpoint_query({ranks()});
    case FrameType::EndpointReply: {
      const std::vector<Rank> asked = ranks();
      return make_endpoint_reply({asked, std::vector<std::string>(asked.size(), word())});
    }
    case FrameType::RelayRegister:
      return make_relay_register({relay});
    case FrameType::RelayList:
      return make_relay_list({{relay, {word(), word(), word()}}, ranks()});
    case FrameType::RelayHello:
      return make_relay_hello({word()});
    case FrameType::LinkAdvert:
      return make_link_advert({word(),
                               in_.ConsumeIntegralInRange<std::uint64_t>(0, 5),
                               in_.ConsumeBool(),
                               {word(), word()},
                               ranks()});
    case FrameType::Undeliverable:
      return make_undeliverable(rank(), rank(), {in_.ConsumeIntegral<std::uint32_t>(), 0, word()});
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
      return make_goodbye(static_cast<GoodbyeReason>(in_.ConsumeIntegralInRange(0, 2)));
    case FrameType::WindowOrder: {
      // Sorted and distinct as a real order; the offsets drawn (0: a measuring rank).
      std::vector<Rank> window = ranks();
      std::sort(window.begin(), window.end());
      window.erase(std::unique(window.begin(), window.end()), window.end());
      std::vector<std::int32_t> offsets;
      std::vector<std::string> endpoints;
      for (std::size_t i = 0; i < window.size(); ++i) {
        offsets.push_back(i > 0 && in_.ConsumeBool() ? 1 : 0);
        if (offsets.back() == 0) endpoints.push_back(word().empty() ? "e" : word());
      }
      return make_window_order({window, offsets, endpoints});
    }
    case FrameType::WindowGroups:
      return make_window_groups(
          {Groups{ranks(), ranks()},
           {{rank(), rank(), in_.ConsumeIntegralInRange<std::uint64_t>(0, 9)}},
           in_.ConsumeIntegralInRange<std::uint64_t>(0, 99),
           in_.ConsumeIntegralInRange<std::uint32_t>(0, 5),
           in_.ConsumeIntegralInRange<std::uint64_t>(0, 20)});
    case FrameType::ProbeTurn: {
      Frame f = make_probe_turn(rank(), rank(), false);
      f.seq = in_.ConsumeIntegralInRange<std::uint32_t>(0, 2);  // 2: neither ask nor done
      return f;
    }
    case FrameType::ProbeTurnGrant:
      return make_probe_turn_grant(rank(), rank());
    case FrameType::AuthChallenge:
    case FrameType::AuthProof:
    case FrameType::AuthAccept:
      return raw_frame();
  }
  return make_start();
}

// The whole body of a role's fuzz target: the run's configuration (the relay plan drawn more
// often, it has the most frame types), the role `make` builds, its start, then the events.
template <class Started>
int fuzz_role(const std::uint8_t* data, std::size_t size, std::unique_ptr<Process> (*make)(),
              Started started) {
  FuzzedDataProvider in(data, size);
  RoleDriver driver(in);
  auto cfg = driver.config();
  if (cfg->overlay.plan != PlanKind::Relay && in.ConsumeBool()) cfg->overlay.plan = PlanKind::Relay;
  std::unique_ptr<Process> role = make();
  StartedInput start = started(in, std::shared_ptr<const ProtocolConfig>(cfg));
  start.secret = driver.draw_secret();
  start.nonce_seed = 1;
  driver.run(*role, std::move(start));
  return 0;
}

}  // namespace tsunagi::fuzz
