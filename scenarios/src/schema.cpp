// Every table and key a scenario file may contain. Keep in step with docs/scenario-format.md
// and with the readers in loader.cpp / load_network.cpp.
#include "schema.hpp"

#include <algorithm>
#include <numeric>

namespace tsunagi::scenario {
namespace {

using K = KeyKind;

// One object so that tables can point at tables defined above them, and so that it is built
// on first use (no static initialisation order to worry about).
struct Schemas {
  TableSchema pingpong{"[workload.pingpong]", {{"message_bytes"}, {"rounds"}, {"ping"}, {"pong"}}};
  TableSchema intsort{"[workload.intsort]",
                      {{"total_keys"}, {"max_key"}, {"iterations"}, {"compute_ns_per_key"}}};
  TableSchema connectivity{"[workload.connectivity]", {{"message_bytes"}, {"deadline"}}};
  TableSchema multicast{"[workload.multicast]",
                        {{"algorithms"},
                         {"sizes"},
                         {"group_sizes"},
                         {"groups"},
                         {"repeats"},
                         {"trim"},
                         {"interval"},
                         {"master"},
                         {"deadline"},
                         {"verify_bytes_max"},
                         {"binomial_max_bytes"},
                         {"binomial_below_members"},
                         {"doubling_max_bytes"},
                         {"pipeline_min_bytes"},
                         {"segment_bytes"}}};
  TableSchema lmmc{"[workload.lmmc]",
                   {{"pattern"},
                    {"sizes"},
                    {"rounds"},
                    {"warmup"},
                    {"message_bytes"},
                    {"iterations"},
                    {"procs"},
                    {"frames"},
                    {"page_size"},
                    {"policy"},
                    {"lookahead"},
                    {"send_routine"},
                    {"receive_write"},
                    {"first_touch"},
                    {"paging_trap"},
                    {"ping"},
                    {"pong"},
                    {"seed_salt"}}};
  TableSchema indices{
      "[workload.indices]",
      {{"sizes"}, {"repeats"}, {"stream_bytes"}, {"train_messages"}, {"nominal_bandwidth"}}};
  TableSchema workload{"[workload]",
                       {{"kind"},
                        {"pingpong", K::Table, &pingpong},
                        {"intsort", K::Table, &intsort},
                        {"connectivity", K::Table, &connectivity},
                        {"multicast", K::Table, &multicast},
                        {"lmmc", K::Table, &lmmc},
                        {"indices", K::Table, &indices}}};
  TableSchema inference{"[protocol.inference]",
                        {{"rtt_samples"},
                         {"rtt_timeout"},
                         {"rtt_lost_limit"},
                         {"rtt_parallel"},
                         {"min_jump_ratio"},
                         {"colocated_ratio"},
                         {"tie_tolerance"},
                         {"groups"},
                         {"tree"},
                         {"rtt_tree_tolerance"},
                         {"throughput_bytes"},
                         {"interference_drop"},
                         {"exact_max_groups"},
                         {"partition_leaders"},
                         {"partition_window_min"}}};
  TableSchema costs{"[protocol.costs]",
                    {{"relay"},
                     {"select_per_connection"},
                     {"connect"},
                     {"send_overhead"},
                     {"receive_overhead"},
                     {"copy_bandwidth"}}};
  TableSchema protocol{"[protocol]",
                       {{"plan"},
                        {"routing"},
                        {"random_k"},
                        {"shortcut_capacity"},
                        {"connect_timeout"},
                        {"connect_parallel"},
                        {"trace_full_routes"},
                        {"registration_timeout"},
                        {"directory"},
                        {"window"},
                        {"window_headroom"},
                        {"window_max"},
                        {"window_probe_bytes"},
                        {"inference", K::Table, &inference},
                        {"costs", K::Table, &costs}}};
  TableSchema placement{"[placement]", {{"procs_per_host"}, {"processes"}}};
  TableSchema simgrid{"[simgrid]",
                      {{"network_model"},
                       {"host_speed"},
                       {"rtt_probe"},
                       {"latency_only_below"},
                       {"uncontended_below"},
                       {"slow_start"}}};
  TableSchema ns3{"[ns3]", {{"rtt_probe"}, {"congestion"}}};
  TableSchema level{"network.tree.levels[]",
                    {{"fanout"}, {"uplink_bandwidth"}, {"uplink_latency"}}};
  TableSchema tree{"[network.tree]",
                   {{"levels", K::TableArray, &level},
                    {"hosts_per_leaf"},
                    {"host_bandwidth"},
                    {"host_latency"}}};
  TableSchema sw{"[[network.switch]]",
                 {{"name"},
                  {"parent"},
                  {"hosts"},
                  {"host_bandwidth"},
                  {"host_latency"},
                  {"uplink_bandwidth"},
                  {"uplink_latency"}}};
  TableSchema random_tree{"[network.random_tree]",
                          {{"seed"},
                           {"depth"},
                           {"fanout"},
                           {"hosts_per_leaf"},
                           {"uplink_bandwidth"},
                           {"uplink_latency"},
                           {"host_bandwidth"},
                           {"host_latency"}}};
  // WANs (issue 6): clusters behind routers, joined in a star by a WAN core.
  // Long fat WANs (issue 15): a per-pair RTT matrix and each site's TCP stack.
  TableSchema site_rtt{"network.wan.site_rtt[]", {{"between"}, {"rtt"}}};
  TableSchema wan{"[network.wan]",
                  {{"rendezvous"},
                   {"syn_rto"},
                   {"syn_retries"},
                   {"backbone_bandwidth"},
                   {"tcp_profile"},
                   {"site_rtt", K::TableArray, &site_rtt}}};
  TableSchema tuned{"network.cluster[].tcp.tuned[]", {{"peer"}, {"send_buffer"}, {"recv_buffer"}}};
  TableSchema tcp{"network.cluster[].tcp",
                  {{"send_buffer"},
                   {"recv_buffer"},
                   {"window_scaling"},
                   {"sack"},
                   {"rate_limit"},
                   {"tuned", K::TableArray, &tuned}}};
  TableSchema cluster_tree{"network.cluster[].tree",
                           {{"levels", K::TableArray, &level},
                            {"hosts_per_leaf"},
                            {"host_bandwidth"},
                            {"host_latency"}}};
  TableSchema connect_rate{"network.cluster[].connect_rate", {{"per_second"}, {"burst"}}};
  TableSchema cluster{"[[network.cluster]]",
                      {{"name"},
                       {"hosts"},
                       {"host_bandwidth"},
                       {"host_latency"},
                       {"tree", K::Table, &cluster_tree},
                       {"policy"},
                       {"allow"},
                       {"firewall_action"},
                       {"connect_rate", K::Table, &connect_rate},
                       {"wan_bandwidth"},
                       {"wan_latency"},
                       {"relays"},
                       {"relay_at"},
                       {"tcp", K::Table, &tcp}}};
  // Dragonfly (issue 13): one table per link class.
  TableSchema dragonfly_node{"network.dragonfly.node", {{"bandwidth"}, {"latency"}}};
  TableSchema dragonfly_green{"network.dragonfly.green", {{"count"}, {"bandwidth"}, {"latency"}}};
  TableSchema dragonfly_black{"network.dragonfly.black", {{"count"}, {"bandwidth"}, {"latency"}}};
  TableSchema dragonfly_blue{"network.dragonfly.blue", {{"count"}, {"bandwidth"}, {"latency"}}};
  TableSchema dragonfly{"[network.dragonfly]",
                        {{"groups"},
                         {"chassis"},
                         {"routers"},
                         {"nodes"},
                         {"bandwidth"},
                         {"latency"},
                         {"node", K::Table, &dragonfly_node},
                         {"green", K::Table, &dragonfly_green},
                         {"black", K::Table, &dragonfly_black},
                         {"blue", K::Table, &dragonfly_blue}}};
  // Serial links (issue 14): the layout and its figures; links is a list of node pairs.
  TableSchema serial{"[network.serial]",
                     {{"layout"},
                      {"medium"},
                      {"nodes"},
                      {"rows"},
                      {"cols"},
                      {"links"},
                      {"ports"},
                      {"bandwidth"},
                      {"latency"},
                      {"fifo"},
                      {"bus_bandwidth"},
                      {"bus_latency"},
                      {"segment_bandwidth"},
                      {"segment_latency"}}};
  TableSchema factors{"[network.factors]",
                      {{"bandwidth"}, {"latency_per_link"}, {"latency_scale"}}};
  TableSchema network{"[network]",
                      {{"loopback_bandwidth"},
                       {"loopback_latency"},
                       {"factors", K::Table, &factors},
                       {"switch", K::TableArray, &sw},
                       {"tree", K::Table, &tree},
                       {"random_tree", K::Table, &random_tree},
                       {"wan", K::Table, &wan},
                       {"cluster", K::TableArray, &cluster},
                       {"dragonfly", K::Table, &dragonfly},
                       {"serial", K::Table, &serial}}};
  TableSchema fault{"[[faults]]", {{"kill"}, {"at"}}};
  TableSchema root{"the top level",
                   {{"name"},
                    {"description"},
                    {"seed"},
                    {"network", K::Table, &network},
                    {"placement", K::Table, &placement},
                    {"protocol", K::Table, &protocol},
                    {"workload", K::Table, &workload},
                    {"simgrid", K::Table, &simgrid},
                    {"ns3", K::Table, &ns3},
                    {"faults", K::TableArray, &fault}}};
};

const Schemas& schemas() {
  static const Schemas all;
  return all;
}

// The table (other than `skip`) that holds `key`, for "it belongs in [protocol]" hints.
const TableSchema* home_of(const TableSchema& from, std::string_view key, const TableSchema& skip) {
  if (&from != &skip && find_key(from, key)) return &from;
  for (const KeySchema& k : from.keys) {
    if (!k.table) continue;
    if (const TableSchema* found = home_of(*k.table, key, skip)) return found;
  }
  return nullptr;
}

}  // namespace

const TableSchema& root_schema() {
  return schemas().root;
}

const KeySchema* find_key(const TableSchema& table, std::string_view key) {
  auto it = std::find_if(table.keys.begin(), table.keys.end(),
                         [&](const KeySchema& k) { return k.name == key; });
  return it == table.keys.end() ? nullptr : &*it;
}

std::string key_list(const TableSchema& table) {
  std::string out;
  for (const KeySchema& k : table.keys) {
    if (!out.empty()) out += ", ";
    out += k.name;
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string_view> closest_key(const TableSchema& table, std::string_view key) {
  const KeySchema* best = nullptr;
  std::size_t best_distance = 0;
  for (const KeySchema& k : table.keys) {
    std::size_t d = edit_distance(key, k.name);
    if (!best || d < best_distance) best = &k, best_distance = d;
  }
  // A third of the length catches typos ("hots", "shortcut_capacty") but not unrelated words.
  std::size_t tolerance = std::max<std::size_t>(2, key.size() / 3);
  if (!best || best_distance > tolerance) return std::nullopt;
  return best->name;
}

std::string unknown_key_message(const TableSchema& table, std::string_view key) {
  std::string msg = "unknown key '" + std::string(key) + "' in " + std::string(table.title);
  if (auto near = closest_key(table, key)) {
    return msg + " — did you mean '" + std::string(*near) + "'?";
  }
  if (const TableSchema* home = home_of(root_schema(), key, table)) {
    return msg + " — it belongs in " + std::string(home->title) + "; move it there";
  }
  return msg + " — valid keys there: " + key_list(table);
}

}  // namespace tsunagi::scenario
