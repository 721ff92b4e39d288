#include "node/endpoint_book.hpp"

#include <algorithm>

namespace tsunagi {

void EndpointBook::set_all(std::vector<Endpoint> all) {
  all_ = std::move(all);
}

void EndpointBook::learn(const std::vector<Rank>& ranks, const std::vector<Endpoint>& endpoints) {
  for (std::size_t i = 0; i < ranks.size() && i < endpoints.size(); ++i) {
    known_[ranks[i]] = endpoints[i];
    asked_.erase(ranks[i]);
  }
}

const Endpoint* EndpointBook::find(Rank rank) const {
  if (rank >= 0 && static_cast<std::size_t>(rank) < all_.size())
    return &all_[static_cast<std::size_t>(rank)];
  auto it = known_.find(rank);
  return it == known_.end() ? nullptr : &it->second;
}

std::vector<Rank> EndpointBook::to_ask(const std::vector<Rank>& wanted) {
  std::vector<Rank> ask;
  for (Rank rank : wanted) {
    if (find(rank) == nullptr && asked_.insert(rank).second) ask.push_back(rank);
  }
  std::sort(ask.begin(), ask.end());
  return ask;
}

}  // namespace tsunagi
