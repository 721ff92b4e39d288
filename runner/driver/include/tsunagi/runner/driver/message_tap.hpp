// Workload messages of small runs, read off the byte streams of one node process as its
// driver performs its sends and delivers its inputs (process_driver.hpp), so every backend
// reports them without code of its own and the protocol core knows nothing of it.
//
// A message is a Data frame (tsunagi/model/wire.hpp). It *leaves* its sender when the
// sender's core sends it unrelayed (hops 0, src = the sender) on a connection, and *arrives*
// when the last byte of a Data frame addressed to the receiving rank reaches that rank's core,
// whichever route it took (direct, relayed by ranks, through relay daemons). Each direction of
// each connection is cut into frames with the core's own Deframer. Not seen: a message a rank
// sends to itself (it never touches the wire), and what a run sends once it has recorded
// kMessagesMax messages. The process table (process_table.hpp) keeps that budget and passes
// each event to the run's observer (RunObserver::on_message).
//
// C++17-clean: the ns-3 backend includes it.
#pragma once

#include <cstddef>
#include <map>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi::runner {

class ProcessTable;

// Messages are watched only in runs of at most this many ranks: the report draws them on a
// row per rank, which it does up to the same count (report_rows.hpp), and cutting every stream
// into frames is work a 10,000-rank run should not pay for.
inline constexpr int kMessageRanksMax = 300;
// At most this many messages are recorded per run (per process table: per realnet daemon):
// thousands of arrows still read on a timeline, messages.csv stays under 100 KB, and a long
// workload does not keep every stream watched to its end.
inline constexpr std::size_t kMessagesMax = 2000;

class MessageTap {
 public:
  // The tap of process `index` of `table` (a node: its rank is what it sends from and to).
  MessageTap(ProcessTable& table, int index);

  // The core sends `cmd` at `now`.
  void sent(TimeNs now, const SendCmd& cmd);
  // `bytes` (and `filler` modelled bytes after them) arrived on `conn` at `now`.
  void received(TimeNs now, ConnId conn, const Bytes& bytes, std::uint64_t filler);
  // `conn` is closed: neither of its streams carries anything more.
  void closed(ConnId conn);

 private:
  void read_frames(TimeNs now, wire::Deframer& stream, bool incoming);

  ProcessTable& table_;
  const int index_;
  const Rank self_;
  std::map<ConnId, wire::Deframer> out_, in_;
};

}  // namespace tsunagi::runner
