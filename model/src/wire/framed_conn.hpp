// The stream plumbing every role repeats for each connection: frames sent before an outgoing
// connect completes wait in order; a connect that has not completed by the protocol's
// connect_timeout is given up by the core itself (backends report only what the world did);
// received bytes are cut into frames for a handler that may close the connection while the loop
// runs. Private to the core's roles.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi::wire {

struct FramedConn {
  Deframer deframer;
  bool outgoing = false;
  bool up = false;  // outgoing: connected; incoming: as the role decides (accepted, greeted)
  std::vector<SendCmd> queued;  // sends issued before the connect completed
};

// Timers that guard a connect carry this bit and the connection id, so they never collide with
// a role's own timers (small numbers) and need no table.
inline constexpr std::uint64_t kConnectTimerBit = std::uint64_t{1} << 62;

// The commands that open connection `id` to `to`: the connect, and the core's deadline for it.
inline std::vector<Command> open_with_deadline(ConnId id, const Endpoint& to, TimeNs now,
                                               TimeNs timeout) {
  return {ConnectCmd{id, to}, ArmTimerCmd{kConnectTimerBit | id, now + timeout}};
}

// The connection whose connect deadline `timer` is, or nothing for any other timer.
inline std::optional<ConnId> connect_deadline_conn(std::uint64_t timer) {
  if ((timer & kConnectTimerBit) == 0) return std::nullopt;
  return timer & ~kConnectTimerBit;
}

// The deadline of connection `c` passed: true when it is still connecting, so the role gives it
// up (closes it and takes it as ConnectFailed{TimedOut}); false when it completed in time.
inline bool connect_overdue(const FramedConn& c) {
  return c.outgoing && !c.up;
}

// The send to perform now, or nothing when it waits for the connect (it is queued).
inline std::optional<SendCmd> send_or_queue(FramedConn& c, ConnId id, const Frame& frame) {
  SendCmd cmd{id, encode(frame), frame.filler};
  if (c.outgoing && !c.up) {
    c.queued.push_back(std::move(cmd));
    return std::nullopt;
  }
  return cmd;
}

// The connect completed: the queued sends, in order, to perform now.
inline std::vector<SendCmd> mark_connected(FramedConn& c) {
  c.up = true;
  return std::exchange(c.queued, {});
}

// Feeds `in` to its connection and hands every complete frame to on_frame(id, Frame). The
// connection is looked up again after each frame, since the handler may have closed it. Returns
// the reason when the stream is malformed (the caller rejects the connection).
template <class ConnMap, class OnFrame>
std::optional<std::string> drain_frames(ConnMap& conns, const ReceivedInput& in, OnFrame on_frame) {
  auto it = conns.find(in.conn);
  if (it == conns.end()) return std::nullopt;
  it->second.deframer.feed(in.bytes, in.filler);
  while (true) {
    it = conns.find(in.conn);
    if (it == conns.end()) return std::nullopt;
    auto next = it->second.deframer.next();
    if (std::holds_alternative<std::monostate>(next)) return std::nullopt;
    if (auto* error = std::get_if<DecodeError>(&next)) return error->reason;
    on_frame(in.conn, std::get<Frame>(std::move(next)));
  }
}

}  // namespace tsunagi::wire
