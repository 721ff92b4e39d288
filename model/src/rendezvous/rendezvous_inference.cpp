// The rendezvous role, part two: switch groups from the nodes' views (all views, or leader
// rounds), the switch tree (exact, from throughput interference; or from representative RTTs),
// and the groups going out (paper 000 §2.1-2.2, docs/tree-inference.md).
#include <algorithm>

#include "rendezvous/rendezvous.hpp"
#include "tsunagi/model/overlay/hierarchy.hpp"
#include "tsunagi/model/topology/rtt_tree.hpp"
#include "tsunagi/model/topology/switch_inference.hpp"

namespace tsunagi {

void Rendezvous::on_rtt_report(ConnId id, const wire::Frame& frame) {
  auto msg = wire::read_rtt_report(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
  auto& report = std::get<wire::RttReportMsg>(msg);
  if (report.rank != conns_[id].rank) return reject(id, "rtt report for another rank");
  if (phase_ != Phase::Inferring) return reject(id, "rtt report outside inference");
  // Each rank's view counts once, while views are collected: a repeat would end the collection
  // early (and, once the views are combined and cleared, write past them).
  const auto slot = static_cast<std::size_t>(report.rank);
  if (reports_ >= n_ || reported_[slot]) return refuse(id, "rtt report repeated");
  reported_[slot] = true;
  near_[slot] = std::move(report.near);
  rtt_probes_ += report.probes;
  if (++reports_ < n_) return;
  const bool topology = inferred_plan(config_->overlay.plan);
  if (topology && config_->inference.groups == GroupMethod::Leaders) {
    near_.clear();
    leaders_.emplace(hosts_, config_->inference);
    return send_leader_order();
  }
  if (topology && config_->inference.groups == GroupMethod::Partition) {
    near_.clear();
    partition_.emplace(hosts_, config_->inference);
    return send_partition_orders();
  }
  Groups groups;
  if (topology) groups = combine_views(n_, near_);
  if (config_->overlay.plan == PlanKind::Relay) groups = site_groups(sites_);
  near_.clear();
  groups_ready(std::move(groups));
}

// Scalable group inference: the next leader measures the ranks not yet placed.
void Rendezvous::send_leader_order() {
  if (auto order = leaders_->next()) {
    emit(SendCmd{rank_conn_[static_cast<std::size_t>(order->leader)],
                 wire::encode(wire::make_rtt_order({0, std::move(order->targets)})), 0});
    return;
  }
  rtt_probes_ += leaders_->probes();
  Groups groups = leaders_->groups();
  for (auto& g : groups) std::sort(g.begin(), g.end());
  std::sort(groups.begin(), groups.end());
  leaders_.reset();
  groups_ready(std::move(groups));
}

// Concurrent scalable inference: every part that is ready measures, all at once; the groups go
// out when the last part has settled, with the tree the rounds' RTTs give.
void Rendezvous::send_partition_orders() {
  for (PartitionInference::Order& order : partition_->take_orders()) {
    emit(SendCmd{rank_conn_[static_cast<std::size_t>(order.from)],
                 wire::encode(wire::make_rtt_order({0, std::move(order.targets)})), 0});
  }
  // Each window's rounds go to its collector, with the endpoints of the ranks that measure.
  for (PartitionInference::Window& window : partition_->take_windows()) {
    for (std::size_t i = 0; i < window.order.ranks.size(); ++i)
      if (window.order.rep_offsets[i] == 0)
        window.order.endpoints.push_back(
            endpoints_[static_cast<std::size_t>(window.order.ranks[i])]);
    emit(SendCmd{rank_conn_[static_cast<std::size_t>(window.collector)],
                 wire::encode(wire::make_window_order(window.order)), 0});
  }
  if (!partition_->finished()) return;
  rtt_probes_ += partition_->probes();
  Groups groups = partition_->groups();
  for (auto& g : groups) std::sort(g.begin(), g.end());
  keep_partition_tree(groups);
  std::sort(groups.begin(), groups.end());
  partition_levels_ = partition_->levels();
  partition_max_probes_ = partition_->max_probes_per_rank();
  partition_windows_ = partition_->windows();
  partition_fell_back_ = partition_->fell_back();
  partition_.reset();
  groups_ready(std::move(groups));
}

// The rounds' tree has its leaves in the rounds' group order; groups_ is sorted.
void Rendezvous::keep_partition_tree(const Groups& unsorted) {
  std::vector<int> order(unsorted.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return unsorted[static_cast<std::size_t>(a)] < unsorted[static_cast<std::size_t>(b)];
  });
  std::vector<int> sorted_index(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    sorted_index[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  partition_tree_ = canonical_switch_numbers(relabel_leaves(partition_->hierarchy(), sorted_index));
}

// tree = partition: no probes, the tree is already there (start_tree_inference's caller goes
// on to finish_inference).
bool Rendezvous::report_partition_tree() {
  if (!partition_tree_ || groups_.size() < 2) return false;
  const nlohmann::json detail = {{"method", "partition"},
                                 {"leaves", partition_tree_->leaves},
                                 {"parent", partition_tree_->parent},
                                 {"complete", partition_tree_->complete}};
  emit(TraceCmd{"tree", detail});
  inference_["tree"] = detail;
  inference_["tree_end_ns"] = now_;
  return false;
}

void Rendezvous::on_rtt_column(ConnId id, const wire::Frame& frame) {
  auto msg = wire::read_rtt_column(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
  const auto& column = std::get<wire::RttColumnMsg>(msg);
  std::vector<RttSample> row;
  for (std::size_t i = 0; i < column.peers.size(); ++i)
    row.push_back({column.peers[i], static_cast<TimeNs>(column.rtts[i])});
  const Rank from = conns_[id].rank;
  if (tree_rtts_) return on_rep_row(from, row);
  if (partition_) {
    if (!partition_->on_column(from, row)) return reject(id, "rtt column nobody asked for");
    return send_partition_orders();
  }
  if (!leaders_ || !leaders_->waiting()) return reject(id, "rtt column nobody asked for");
  leaders_->on_row(from, std::move(row));
  send_leader_order();
}

void Rendezvous::on_window_groups(ConnId id, const wire::Frame& frame) {
  auto msg = wire::read_window_groups(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
  if (!partition_) return reject(id, "window groups while no partition inference runs");
  const auto& answer = std::get<wire::WindowGroupsMsg>(msg);
  const Rank from = conns_[id].rank;
  if (auto why = partition_->on_window(from, answer)) {
    // The window's groups cannot come from anyone else: the run cannot finish without them.
    reject(id, *why);
    return fail("rank " + std::to_string(from) + "'s window groups: " + *why);
  }
  send_partition_orders();
}

void Rendezvous::groups_ready(Groups groups) {
  emit(TraceCmd{"groups", {{"groups", groups}}});
  groups_ = std::move(groups);
  inference_ = {{"groups", groups_},
                {"inferred", inferred_plan(config_->overlay.plan)},
                {"rtt_probes", rtt_probes_},
                {"groups_end_ns", now_}};
  if (config_->inference.groups == GroupMethod::Partition && inference_["inferred"] == true) {
    inference_["partition_levels"] = partition_levels_;
    inference_["partition_max_probes_per_rank"] = partition_max_probes_;
    inference_["partition_windows"] = partition_windows_;
    inference_["partition_fell_back"] = partition_fell_back_;
  }
  if (!start_tree_inference()) finish_inference();
}

// The exact tree method runs between group inference and the groups going out, so its
// transfers have the network to themselves.
bool Rendezvous::start_tree_inference() {
  const InferenceConfig& cfg = config_->inference;
  if (cfg.tree == TreeMethod::Rtt && groups_.size() >= 2) return start_rtt_tree();
  if (cfg.tree == TreeMethod::Partition) return report_partition_tree();
  if (cfg.tree != TreeMethod::Exact || groups_.size() < 2) return false;
  if (static_cast<int>(groups_.size()) > cfg.exact_max_groups) {
    emit(TraceCmd{"tree_skipped", {{"groups", groups_.size()}, {"max", cfg.exact_max_groups}}});
    return false;
  }
  prober_.emplace(groups_, hosts_, cfg);
  send_probe_orders();
  return true;
}

// Scalable tree: one representative per group measures every other representative.
bool Rendezvous::start_rtt_tree() {
  const std::size_t g = groups_.size();
  tree_rtts_.emplace(g, std::vector<TimeNs>(g, -1));
  reps_waiting_ = g;
  for (std::size_t i = 0; i < g; ++i) {
    std::vector<Rank> others;
    for (std::size_t j = 0; j < g; ++j)
      if (j != i) others.push_back(groups_[j].front());
    rtt_probes_ += others.size();
    emit(SendCmd{rank_conn_[static_cast<std::size_t>(groups_[i].front())],
                 wire::encode(wire::make_rtt_order({1, std::move(others)})), 0});
  }
  return true;
}

void Rendezvous::on_rep_row(Rank from, const std::vector<RttSample>& row) {
  // One lookup per sample: a map built once per tree, not a scan of the groups (G^3).
  if (rep_group_.empty())
    for (std::size_t i = 0; i < groups_.size(); ++i)
      rep_group_.emplace(groups_[i].front(), static_cast<int>(i));
  auto group_of_rep = [&](Rank r) -> int {
    const auto it = rep_group_.find(r);
    return it == rep_group_.end() ? -1 : it->second;
  };
  const int i = group_of_rep(from);
  if (i < 0) return;
  for (const RttSample& s : row) {
    const int j = group_of_rep(s.peer);
    if (j >= 0 && s.rtt > 0)
      (*tree_rtts_)[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = s.rtt;
  }
  if (--reps_waiting_ > 0) return;
  const SwitchTree tree = tree_from_rtts(*tree_rtts_, config_->inference.rtt_tree_tolerance);
  tree_rtts_.reset();
  rep_group_.clear();
  const nlohmann::json detail = {{"method", "rtt"},
                                 {"leaves", tree.leaves},
                                 {"parent", tree.parent},
                                 {"complete", tree.complete}};
  emit(TraceCmd{"tree", detail});
  inference_["tree"] = detail;
  inference_["tree_end_ns"] = now_;
  tree_ = tree;
  finish_inference();
}

void Rendezvous::send_probe_orders() {
  for (const TreeProber::Order& order : prober_->next_orders()) {
    emit(SendCmd{rank_conn_[static_cast<std::size_t>(order.from)],
                 wire::encode(wire::make_probe_order(order.msg)), 0});
  }
}

void Rendezvous::on_probe_result(ConnId id, const wire::Frame& frame) {
  auto msg = wire::read_probe_result(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
  if (!prober_ || prober_->finished()) return reject(id, "probe result while no probe runs");
  if (!prober_->on_result(std::get<wire::ProbeResultMsg>(msg))) return;
  if (!prober_->finished()) return send_probe_orders();
  const SwitchTree tree = prober_->infer();
  const nlohmann::json detail = {{"method", "exact"},
                                 {"leaves", tree.leaves},
                                 {"parent", tree.parent},
                                 {"complete", tree.complete}};
  emit(TraceCmd{"tree", detail});
  inference_["tree"] = detail;
  inference_["throughput_transfers"] = prober_->transfers();
  inference_["throughput_failed"] = prober_->failed();
  inference_["tree_end_ns"] = now_;
  tree_ = tree;
  prober_.reset();
  finish_inference();
}

void Rendezvous::finish_inference() {
  inference_["inference_end_ns"] = now_;
  inference_["rtt_probes"] = rtt_probes_;
  emit(ReportCmd{"inference", inference_});
  phase_ = Phase::Running;
  if (config_->overlay.plan == PlanKind::Hierarchical) {
    send_placements();
  } else {
    broadcast(wire::make_groups({groups_, std::nullopt}));
  }
  groups_ = {};
  tree_.reset();
  partition_tree_.reset();
}

// Hierarchical plan: every rank hears its own group and leader links, not all N ranks. The
// tree of leaders follows the inferred switch tree: the one tree = "rtt" or "exact" measured,
// else the partition rounds' (free: from RTTs they measured anyway), else a star.
void Rendezvous::send_placements() {
  const SwitchTree* tree = tree_ ? &*tree_ : partition_tree_ ? &*partition_tree_ : nullptr;
  const HierarchyPlan plan(n_, groups_, tree);
  emit(TraceCmd{"hierarchy",
                {{"leaders", plan.groups().size()},
                 {"height", plan.height()},
                 {"star", plan.star()},
                 {"connection_ends", plan.connection_ends()}}});
  for (Rank r = 0; r < n_; ++r) {
    Placement p = plan.placement(r);
    wire::GroupsMsgBody body{{std::move(p.group)}, std::move(p.links)};
    emit(
        SendCmd{rank_conn_[static_cast<std::size_t>(r)], wire::encode(wire::make_groups(body)), 0});
  }
}

}  // namespace tsunagi
