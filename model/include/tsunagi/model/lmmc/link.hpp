// Both ends of one link direction with the wire between them collapsed: every message is
// delivered at once and in order, as on a FIFO serial link without loss. The trace replay and
// the tests drive this; a backend instead carries each message over its link and charges time.
#pragma once

#include <string>
#include <vector>

#include "tsunagi/model/lmmc/recv_end.hpp"
#include "tsunagi/model/lmmc/send_end.hpp"

namespace tsunagi::lmmc {

struct Link {
  Link(LinkConfig config, PolicyKind policy) : sender(config, policy), receiver(config) {}

  // Runs both initialisation routines and opens `ports` at both ends.
  std::string start(const std::vector<PortId>& ports);
  // Hands the writer's messages to the reader. Returns "" or the first rejection; adds the
  // reader's costs and the bytes its page-outs saved.
  std::string to_receiver(const std::vector<Bytes>& messages, TimeNs& cost,
                          std::uint64_t& bytes_saved);
  // Hands the reader's credits to the writer.
  std::string to_sender(const std::vector<Bytes>& messages);

  // Each end's own check, then that they agree once nothing is in flight: the writer's frame
  // table is the reader's, both counted the same paging requests, and for every port the
  // writer's unread count is the reader's.
  std::string check_consistency() const;

  SendEnd sender;
  RecvEnd receiver;
};

}  // namespace tsunagi::lmmc
