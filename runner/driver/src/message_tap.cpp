// The workload messages of one node's streams. See message_tap.hpp.
#include "tsunagi/runner/driver/message_tap.hpp"

#include "tsunagi/model/messages.hpp"
#include "tsunagi/runner/driver/process_table.hpp"

namespace tsunagi::runner {

MessageTap::MessageTap(ProcessTable& table, int index)
    : table_(table), index_(index), self_(table.row(index).rank) {}

void MessageTap::sent(TimeNs now, const SendCmd& cmd) {
  wire::Deframer& stream = out_[cmd.conn];
  // A stream that is not frames (a test's scripted bytes) stays unread: nothing to resume from.
  if (stream.failed()) return;
  stream.feed(cmd.bytes, cmd.filler);
  read_frames(now, stream, false);
}

void MessageTap::received(TimeNs now, ConnId conn, const Bytes& bytes, std::uint64_t filler) {
  wire::Deframer& stream = in_[conn];
  if (stream.failed()) return;
  stream.feed(bytes, filler);
  read_frames(now, stream, true);
}

void MessageTap::closed(ConnId conn) {
  out_.erase(conn);
  in_.erase(conn);
}

void MessageTap::read_frames(TimeNs now, wire::Deframer& stream, bool incoming) {
  for (;;) {
    auto next = stream.next();
    auto* frame = std::get_if<wire::Frame>(&next);
    if (frame == nullptr) return;  // nothing complete yet, or a stream the core refuses too
    if (frame->type != wire::FrameType::Data) continue;
    if (incoming ? frame->dst != self_ : frame->src != self_ || frame->hops != 0) continue;
    auto data = wire::read_data(*frame);
    const auto* message = std::get_if<wire::DataMsg>(&data);
    if (message == nullptr) continue;
    table_.note_message(index_, now,
                        MessageEvent{incoming, frame->src, frame->dst, frame->seq, message->tag,
                                     message->body.size() + frame->filler});
  }
}

}  // namespace tsunagi::runner
