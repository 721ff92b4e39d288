#include "rendezvous/relay_registry.hpp"

#include <algorithm>

namespace tsunagi {

std::optional<std::string> RelayRegistry::add(ConnId conn, wire::RelayEntry entry) {
  for (const auto& [id, known] : by_conn_) {
    if (known.label == entry.label) return "relay " + entry.label + " registered twice";
  }
  if (by_conn_.count(conn)) return "a second relay registration on one connection";
  by_conn_[conn] = std::move(entry);
  return std::nullopt;
}

std::optional<std::string> RelayRegistry::remove(ConnId conn) {
  auto it = by_conn_.find(conn);
  if (it == by_conn_.end()) return std::nullopt;
  std::string label = it->second.label;
  by_conn_.erase(it);
  return label;
}

std::vector<ConnId> RelayRegistry::conns() const {
  std::vector<ConnId> out;
  for (const auto& [id, entry] : by_conn_) out.push_back(id);
  return out;
}

std::vector<std::string> RelayRegistry::labels() const {
  std::vector<std::string> out;
  for (const wire::RelayEntry& e : all().relays) out.push_back(e.label);
  return out;
}

wire::RelayListMsg RelayRegistry::all() const {
  wire::RelayListMsg list;
  for (const auto& [id, entry] : by_conn_) list.relays.push_back(entry);
  std::sort(list.relays.begin(), list.relays.end(), [](const auto& a, const auto& b) {
    return a.site != b.site ? a.site < b.site : a.label < b.label;
  });
  return list;
}

wire::RelayListMsg RelayRegistry::for_rank(Rank rank, const std::string& site) const {
  std::vector<wire::RelayEntry> local;
  for (const wire::RelayEntry& e : all().relays) {
    if (e.site == site) local.push_back(e);
  }
  wire::RelayListMsg list;
  if (local.empty()) return list;
  const std::size_t first = static_cast<std::size_t>(rank) % local.size();
  for (std::size_t i = 0; i < local.size(); ++i)
    list.relays.push_back(local[(first + i) % local.size()]);
  return list;
}

wire::RelayListMsg RelayRegistry::for_relay(ConnId conn,
                                            const std::vector<std::string>& site_of_rank) const {
  wire::RelayListMsg list = all();
  const std::string& label = by_conn_.at(conn).label;
  for (std::size_t r = 0; r < site_of_rank.size(); ++r) {
    const auto rank = static_cast<Rank>(r);
    const wire::RelayListMsg local = for_rank(rank, site_of_rank[r]);
    if (!local.relays.empty() && local.relays.front().label == label) list.expected.push_back(rank);
  }
  return list;
}

Groups site_groups(const std::vector<std::string>& site_of_rank) {
  std::map<std::string, std::vector<Rank>> by_site;
  for (std::size_t r = 0; r < site_of_rank.size(); ++r)
    by_site[site_of_rank[r]].push_back(static_cast<Rank>(r));
  Groups groups;
  for (auto& [site, ranks] : by_site) groups.push_back(std::move(ranks));
  std::sort(groups.begin(), groups.end());  // by smallest rank: ranks are ascending in each
  return groups;
}

}  // namespace tsunagi
