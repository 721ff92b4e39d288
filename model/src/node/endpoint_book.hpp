// Where other ranks listen, as far as this node knows. Either the whole directory the
// rendezvous broadcast (small runs, all-pairs probing), or only the endpoints this node asked
// for (directory = "on_demand": memory and traffic grow with what a node uses, not with N).
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi {

class EndpointBook {
 public:
  void set_all(std::vector<Endpoint> all);
  void learn(const std::vector<Rank>& ranks, const std::vector<Endpoint>& endpoints);
  // nullptr while unknown.
  const Endpoint* find(Rank rank) const;
  // Of `wanted`, the ranks neither known nor asked for yet, sorted; they count as asked now.
  std::vector<Rank> to_ask(const std::vector<Rank>& wanted);

 private:
  std::vector<Endpoint> all_;                 // index = rank (full directory)
  std::unordered_map<Rank, Endpoint> known_;  // on demand
  std::unordered_set<Rank> asked_;
};

}  // namespace tsunagi
