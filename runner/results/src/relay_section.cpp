// result.json "relay" and "overlay" (paper 001; docs/result-schema.md): who reached whom in the
// connectivity workload, against what the cluster policies allow; the relays' paths between
// clusters; the busiest router's WAN connections; and when the static connections settled.
#include <algorithm>
#include <map>
#include <set>

#include "result_sections.hpp"

namespace tsunagi::runner::detail {

std::set<RankPair> connectivity_pairs(const Recorder& recorder, const char* field) {
  std::set<RankPair> out;
  for (const ReportEntry& report : recorder.reports()) {
    if (report.key != "connectivity" || !report.value.contains(field)) continue;
    const Rank from = report.value.value("rank", kNoRank);
    for (const auto& to : report.value.at(field)) out.insert({from, to.get<Rank>()});
  }
  return out;
}

namespace {

using nlohmann::ordered_json;
using Pair = RankPair;

// Ordered rank pairs whose clusters the policies keep apart in both directions.
std::set<Pair> forbidden_pairs(const RunFacts& facts) {
  std::set<Pair> out;
  const auto n = static_cast<Rank>(facts.rank_cluster.size());
  for (Rank a = 0; a < n; ++a)
    for (Rank b = 0; b < n; ++b) {
      const int ca = facts.rank_cluster[static_cast<std::size_t>(a)];
      const int cb = facts.rank_cluster[static_cast<std::size_t>(b)];
      if (a == b || ca < 0 || cb < 0) continue;
      if (!facts.clusters_connectable[static_cast<std::size_t>(ca)][static_cast<std::size_t>(cb)])
        out.insert({a, b});
    }
  return out;
}

ordered_json pair_list(const std::set<Pair>& pairs) {
  ordered_json list = ordered_json::array();
  for (const auto& [a, b] : pairs) list.push_back({a, b});
  return list;
}

// "chiba->logos": the sites a message passes, from the first relay (by label) of each site.
ordered_json relay_paths(const Recorder& recorder) {
  std::map<std::string, const nlohmann::json*> first_of_site;
  for (const ReportEntry& report : recorder.reports()) {
    if (report.key != "relay") continue;
    const std::string site = report.value.value("site", "");
    auto it = first_of_site.find(site);
    if (it == first_of_site.end() ||
        report.value.value("relay", "") < it->second->value("relay", ""))
      first_of_site[site] = &report.value;
  }
  ordered_json paths = ordered_json::object();
  for (const auto& [site, report] : first_of_site) {
    if (!report->contains("paths")) continue;
    for (auto it = report->at("paths").begin(); it != report->at("paths").end(); ++it)
      paths[site + "->" + it.key()] = it.value();
  }
  return paths;
}

// Data connections crossing each cluster's router (one per relay link; one per rank pair with a
// direct connection), the rendezvous's control connections left out.
std::optional<std::uint64_t> max_wan_connections(const Recorder& recorder, const RunFacts& facts) {
  if (facts.cluster_names.empty()) return std::nullopt;
  std::set<std::pair<std::string, std::string>> relay_links;
  std::map<std::string, int> cluster_of_relay;
  std::set<std::pair<Rank, Rank>> rank_links;
  for (const ReportEntry& report : recorder.reports()) {
    if (report.key == "relay") {
      const std::string self = report.value.value("relay", "");
      const auto name = std::find(facts.cluster_names.begin(), facts.cluster_names.end(),
                                  report.value.value("site", ""));
      cluster_of_relay[self] = name == facts.cluster_names.end()
                                   ? -1
                                   : static_cast<int>(name - facts.cluster_names.begin());
      for (const auto& peer : report.value.value("links", nlohmann::json::array()))
        relay_links.insert(std::minmax(self, peer.get<std::string>()));
    } else if (report.key == "node" && report.value.contains("peers")) {
      const Rank self = report.value.value("rank", kNoRank);
      for (const auto& peer : report.value.at("peers"))
        rank_links.insert(std::minmax(self, peer.get<Rank>()));
    }
  }
  auto rank_cluster = [&](Rank r) {
    return r >= 0 && static_cast<std::size_t>(r) < facts.rank_cluster.size()
               ? facts.rank_cluster[static_cast<std::size_t>(r)]
               : -1;
  };
  auto relay_cluster = [&](const std::string& label) {
    auto it = cluster_of_relay.find(label);
    return it == cluster_of_relay.end() ? -1 : it->second;
  };
  std::vector<std::uint64_t> crossing(facts.cluster_names.size(), 0);
  auto count = [&](int a, int b) {
    if (a == b || a < 0 || b < 0) return;
    ++crossing[static_cast<std::size_t>(a)];
    ++crossing[static_cast<std::size_t>(b)];
  };
  for (const auto& [a, b] : relay_links) count(relay_cluster(a), relay_cluster(b));
  for (const auto& [a, b] : rank_links) count(rank_cluster(a), rank_cluster(b));
  return *std::max_element(crossing.begin(), crossing.end());
}

// Sum of one field over the relays' reports; null when no relay reported.
ordered_json relay_sum(const Recorder& recorder, const char* field) {
  bool any = false;
  std::uint64_t sum = 0;
  for (const ReportEntry& report : recorder.reports()) {
    if (report.key != "relay" || !report.value.is_object()) continue;
    any = true;
    const auto it = report.value.find(field);
    if (it != report.value.end() && it->is_number_integer() && it->get<std::int64_t>() >= 0)
      sum += it->get<std::uint64_t>();
  }
  return any ? ordered_json(sum) : ordered_json(nullptr);
}

}  // namespace

ordered_json relay_section(const Recorder& recorder, const RunFacts& facts) {
  ordered_json section = ordered_json::object();
  const std::set<Pair> reached = connectivity_pairs(recorder, "reached");
  const std::set<Pair> unreached = connectivity_pairs(recorder, "unreached");
  const std::set<Pair> timed_out = connectivity_pairs(recorder, "timed_out");
  const auto n = static_cast<std::uint64_t>(facts.processes);
  const bool measured = std::any_of(recorder.reports().begin(), recorder.reports().end(),
                                    [](const ReportEntry& r) { return r.key == "connectivity"; });
  section["pairs_total"] = n * (n > 0 ? n - 1 : 0);
  section["pairs_connected"] = measured ? ordered_json(reached.size()) : ordered_json(nullptr);
  section["unreached"] = pair_list(unreached);
  section["timed_out_pairs"] = timed_out.size();
  if (!facts.cluster_names.empty()) {
    const std::set<Pair> forbidden = forbidden_pairs(facts);
    section["forbidden_pairs"] = forbidden.size();
    section["unreached_match_policy"] =
        measured ? ordered_json(unreached == forbidden) : ordered_json(nullptr);
  }
  const auto wan = max_wan_connections(recorder, facts);
  section["max_wan_connections"] = wan ? ordered_json(*wan) : ordered_json(nullptr);
  section["paths"] = relay_paths(recorder);
  // What the relay daemons carried (messages.relayed counts forwarding by ranks only).
  section["carried"] = relay_sum(recorder, "delivered");
  section["forwarded"] = relay_sum(recorder, "forwarded");
  return section;
}

ordered_json overlay_section(const ReportIndex& reports) {
  std::optional<std::int64_t> latest;
  for (const nlohmann::json* node : reports.nodes) {
    if (node == nullptr || !node->contains("settled_ns")) continue;
    const auto at = node->at("settled_ns").get<std::int64_t>();
    if (at >= 0 && (!latest || at > *latest)) latest = at;
  }
  ordered_json section = ordered_json::object();
  section["connected_ns"] = latest ? ordered_json(*latest) : ordered_json(nullptr);
  return section;
}

}  // namespace tsunagi::runner::detail
