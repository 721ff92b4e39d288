// Turns for measuring paths (protocol.window = "auto", issue 32): one node at a time measures a
// given rank's path. Two nodes measuring the same peer at once share its link and each reads
// about half of it; on realnet at 60 ms a node's three passes over one peer all overlapped
// another node's (0.46, 0.38, 0.74 of the link), and the window it chose filled 0.72 of the
// link. The rendezvous, which every node reaches anyway, hands out turns: a measured rank has
// one measurer at a time, the others wait in the order they asked. A pure table; the
// rendezvous sends the grants it returns. (A node that leaves fails the run: no turn outlives it.)
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <string>

#include "tsunagi/model/types.hpp"

namespace tsunagi {

class ProbeTurns {
 public:
  // A rank asks to measure `target`: nullopt when the turn is its now (grant it), else it
  // waits. A rank holds or waits for one turn at a time: a second ask is refused (the reason).
  struct Asked {
    bool granted = false;
    std::optional<std::string> refused;
  };
  Asked ask(Rank from, Rank target);
  // `from` is done with `target`: the rank whose turn it is now, if one waited. Done from a
  // rank that does not hold that turn changes nothing (nullopt, and `refused` says why).
  std::optional<Rank> done(Rank from, Rank target, std::string* refused = nullptr);
  std::size_t waiting() const;

 private:
  std::optional<Rank> pass_on(Rank target);

  std::map<Rank, Rank> holder_;               // target -> the rank measuring it
  std::map<Rank, std::deque<Rank>> waiting_;  // target -> ranks waiting, in the order they asked
  std::map<Rank, Rank> asked_;                // rank -> the target it holds or waits for
};

}  // namespace tsunagi
