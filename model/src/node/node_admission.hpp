// Which connection may send a node which frame (node_admission.cpp): a pure function of where
// the frame came from, so the rules read apart from the node's state.
#pragma once

#include <optional>
#include <string>

#include "node/node_conn.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi {

struct FrameSource {
  bool rendezvous = false;  // the connection the node opened to the rendezvous
  bool relay = false;       // the connection to the relay it attached to
  int processes = 0;        // ranks named in frames must be below this
};

// Why connection `c` may not send `frame`, or nothing when it may.
std::optional<std::string> node_refusal(const FrameSource& source, const NodeConn& c,
                                        const wire::Frame& frame);

}  // namespace tsunagi
