// What one process's adapter puts into another's inbox. These are the backend's own segments
// (handshake, stream data, FIN, echo); the core only ever sees the Inputs made from them.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "tsunagi/model/io.hpp"

namespace tsunagi::sim::simgrid {

// Simulated size of a handshake, FIN or RST segment.
inline constexpr std::uint64_t kControlBytes = 64;
// At most this much of a connection's queued frames leaves in one message (actor_streams.cpp).
inline constexpr std::uint64_t kStreamBatchBytes = 64 * 1024;

enum class MessageKind : std::uint8_t {
  Syn,     // conn = the connector's id; asks the target to accept
  SynAck,  // conn = the connector's id, peer_conn = the acceptor's id; opens the acceptor's stream
  Reset,   // conn = the receiver's id; the connection no longer exists on the sender's side
  Stream,  // conn = the receiver's id; the next frames of a stream, then maybe its end (fin)
  Ping,    // token = probe id, sample = sample index; answered by the target's adapter
  Pong,    // the echo of a Ping, same token and sample
  Bulk,    // token = probe id; a throughput probe's payload, dropped by the target's adapter
};

struct Frame {
  Bytes bytes;
  std::uint64_t filler = 0;  // modelled payload bytes that are not carried
};

struct Message {
  MessageKind kind = MessageKind::Stream;
  int from = -1;  // index of the sending process
  ConnId conn = 0;
  ConnId peer_conn = 0;
  std::uint64_t token = 0;
  std::uint32_t sample = 0;
  std::uint32_t echo_bytes = 0;  // Ping: size of the Pong to send back
  std::vector<Frame> frames;     // Stream: in order
  bool fin = false;              // Stream: the sender closed after these frames
};

// Owns every Message of a run and recycles them, so steady traffic allocates nothing. A message
// travels as a raw pointer beside its SimGrid transfer; the receiving adapter gives it back on
// arrival, also after its process has exited. Messages still on their way when the engine stops
// are freed with the pool at the end of the run.
class MessagePool {
 public:
  Message* take() {
    if (free_.empty()) return &storage_.emplace_back();
    Message* message = free_.back();
    free_.pop_back();
    return message;
  }
  void give_back(Message* message) {
    message->frames.clear();  // keeps the vector's capacity for the next stream message
    message->fin = false;
    free_.push_back(message);
  }

 private:
  std::deque<Message> storage_;  // deque: growing it never moves messages in flight
  std::vector<Message*> free_;
};

}  // namespace tsunagi::sim::simgrid
