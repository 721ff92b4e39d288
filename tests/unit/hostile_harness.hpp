// One role of the core driven by hand, the way a hostile peer sees it: the test plays the
// backend and every other process, feeds inputs one at a time and keeps every command the role
// issued. Used by the issue-17 tests (test_hostile_*.cpp, docs/security.md) to send a role
// frames no well-behaved peer sends and to check what it did about them.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/roles.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi::hostile {

class Driven {
 public:
  explicit Driven(std::unique_ptr<Process> core) : core_(std::move(core)) {}

  void input(InputEvent event) {
    Input input{now, std::move(event)};
    core_->handle(input);
    for (Command& c : core_->drain_commands()) commands.push_back(std::move(c));
  }
  void frame(ConnId conn, const wire::Frame& f) {
    input(ReceivedInput{conn, wire::encode(f), f.filler});
  }
  // A stranger connects: the backend numbers accepted connections with the top bit set.
  ConnId accept(std::uint64_t n) {
    const ConnId id = kAcceptedConnBit | n;
    input(AcceptedInput{id});
    return id;
  }

  // Commands issued from position `from` on (mark() before the step under test).
  std::size_t mark() const { return commands.size(); }
  template <class T>
  std::vector<T> all(std::size_t from = 0) const {
    std::vector<T> out;
    for (std::size_t i = from; i < commands.size(); ++i)
      if (const T* c = std::get_if<T>(&commands[i])) out.push_back(*c);
    return out;
  }
  std::vector<TraceCmd> traces(const std::string& kind, std::size_t from = 0) const {
    std::vector<TraceCmd> out;
    for (const TraceCmd& t : all<TraceCmd>(from))
      if (t.kind == kind) out.push_back(t);
    return out;
  }
  // Reasons of the frame_rejected decisions since `from`.
  std::vector<std::string> rejections(std::size_t from = 0) const {
    std::vector<std::string> out;
    for (const TraceCmd& t : traces("frame_rejected", from))
      out.push_back(t.detail.at("reason").get<std::string>());
    return out;
  }
  // Every frame sent on `conn` since `from`, decoded as the peer would.
  std::vector<wire::Frame> sent(ConnId conn, std::size_t from = 0) const {
    wire::Deframer deframer;
    std::vector<wire::Frame> out;
    for (const SendCmd& s : all<SendCmd>(from)) {
      if (s.conn != conn) continue;
      deframer.feed(s.bytes, s.filler);
      while (true) {
        auto next = deframer.next();
        // What a role sends must decode: a peer would drop the connection on the first error.
        if (const auto* error = std::get_if<wire::DecodeError>(&next))
          FAIL("the role sent an undecodable stream: " << error->reason);
        auto* f = std::get_if<wire::Frame>(&next);
        if (f == nullptr) break;
        out.push_back(std::move(*f));
      }
    }
    return out;
  }
  bool closed(ConnId conn, std::size_t from = 0) const {
    const auto closes = all<CloseCmd>(from);
    return std::any_of(closes.begin(), closes.end(),
                       [&](const CloseCmd& c) { return c.conn == conn; });
  }
  std::optional<ExitCmd> exit() const {
    const auto exits = all<ExitCmd>();
    if (exits.empty()) return std::nullopt;
    return exits.front();
  }

  std::vector<Command> commands;
  TimeNs now = 0;

 private:
  std::unique_ptr<Process> core_;
};

inline bool has_type(const std::vector<wire::Frame>& frames, wire::FrameType type) {
  return std::any_of(frames.begin(), frames.end(),
                     [&](const wire::Frame& f) { return f.type == type; });
}

inline bool mentions(const std::vector<std::string>& reasons, const std::string& text) {
  return std::any_of(reasons.begin(), reasons.end(),
                     [&](const std::string& r) { return r.find(text) != std::string::npos; });
}

inline std::shared_ptr<ProtocolConfig> config(int processes, PlanKind plan = PlanKind::AllToAll) {
  auto c = std::make_shared<ProtocolConfig>();
  c->processes = processes;
  c->overlay.plan = plan;
  c->workload.kind = WorkloadKind::None;
  return c;
}

// The connection a started node opens to the rendezvous (the core numbers its own from 1).
constexpr ConnId kToRendezvous = 1;

inline std::string endpoint_of(Rank r) {
  return "n" + std::to_string(r) + ":7000";
}

// A node of rank `rank`, started and connected to the rendezvous: it has registered.
inline Driven started_node(std::shared_ptr<const ProtocolConfig> cfg, Rank rank,
                           const std::string& site = "") {
  Driven node(make_node());
  node.input(StartedInput{rank, endpoint_of(rank), "rv:7000", "h" + std::to_string(rank), site,
                          std::move(cfg), "", 0});
  node.input(ConnectedInput{kToRendezvous});
  return node;
}

// The full directory of `n` ranks, each on its own host.
inline wire::Frame directory(int n) {
  wire::DirectoryMsg d;
  for (Rank r = 0; r < n; ++r) {
    d.endpoints.push_back(endpoint_of(r));
    d.hosts.push_back("h" + std::to_string(r));
  }
  return wire::make_directory(d);
}

}  // namespace tsunagi::hostile
