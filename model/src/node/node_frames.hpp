// The node's frames once admitted (node_frames.cpp): a hello names the peer and the purpose of
// an accepted connection; every other kind is decoded, its ranks checked against the run's
// size, and handed to the part of the node it is about. Holds no state of its own.
#pragma once

#include "node/node_conn.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi {

class Node;

class NodeFrames {
 public:
  explicit NodeFrames(Node& node) : node_(node) {}

  void dispatch(ConnId id, NodeConn& c, wire::Frame frame);
  void on_hello(ConnId id, const wire::Frame& frame);

 private:
  Node& node_;
};

}  // namespace tsunagi
