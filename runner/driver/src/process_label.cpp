// Labels of processes in traces and results.
#include <string>

#include "tsunagi/runner/driver/observer.hpp"

namespace tsunagi::runner {

std::string process_label(Rank rank) {
  if (rank == kNoRank) return "rendezvous";
  return "r" + std::to_string(rank);
}

}  // namespace tsunagi::runner
