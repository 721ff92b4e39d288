#include "tsunagi/model/relay/link_state.hpp"

#include <algorithm>
#include <deque>

namespace tsunagi::relay {

bool LinkState::accept(const Advert& advert) {
  auto it = adverts_.find(advert.origin);
  if (it != adverts_.end() && it->second.seq >= advert.seq) return false;
  adverts_[advert.origin] = advert;
  return true;
}

std::optional<std::uint64_t> LinkState::seq_of(const std::string& origin) const {
  auto it = adverts_.find(origin);
  if (it == adverts_.end()) return std::nullopt;
  return it->second.seq;
}

bool LinkState::linked(const std::string& a, const std::string& b) const {
  auto ia = adverts_.find(a);
  auto ib = adverts_.find(b);
  return ia != adverts_.end() && ib != adverts_.end() && ia->second.neighbours.count(b) &&
         ib->second.neighbours.count(a);
}

std::set<std::string> LinkState::relays() const {
  std::set<std::string> out;
  for (const auto& [origin, advert] : adverts_) {
    out.insert(origin);
    out.insert(advert.neighbours.begin(), advert.neighbours.end());
  }
  return out;
}

std::vector<std::string> LinkState::path(const std::string& from, const std::string& to) const {
  if (from == to) return {from};
  // Breadth-first search backwards from `to`: dist[x] = hops from x to `to`. Then walk forward
  // from `from`, at each step taking the smallest-labelled neighbour one hop closer; this picks
  // the label-smallest path among the shortest ones, read from the sender.
  std::map<std::string, int> dist{{to, 0}};
  std::deque<std::string> queue{to};
  const auto all = relays();
  while (!queue.empty()) {
    auto cur = queue.front();
    queue.pop_front();
    for (const auto& n : all)
      if (!dist.count(n) && linked(cur, n)) {
        dist[n] = dist[cur] + 1;
        queue.push_back(n);
      }
  }
  if (!dist.count(from)) return {};
  std::vector<std::string> out{from};
  while (out.back() != to) {
    const auto& cur = out.back();
    for (const auto& n : all)  // std::set: ascending labels
      if (dist.count(n) && dist[n] == dist[cur] - 1 && linked(cur, n)) {
        out.push_back(n);
        break;
      }
  }
  return out;
}

std::optional<std::string> LinkState::next_hop(const std::string& from,
                                               const std::string& to) const {
  auto p = path(from, to);
  if (p.size() < 2) return std::nullopt;
  return p[1];
}

}  // namespace tsunagi::relay
