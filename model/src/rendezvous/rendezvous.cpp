// The rendezvous role: registration, directory, combination of the nodes' switch views into
// groups (paper 000 §2.1), and the end-of-run barrier. It is the only process every node
// must reach, and the only one that sees every node's measurements.
#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/roles.hpp"
#include "tsunagi/model/topology/switch_inference.hpp"
#include "rendezvous/leader_rounds.hpp"
#include "rendezvous/relay_registry.hpp"
#include "wire/framed_conn.hpp"
#include "rendezvous/tree_prober.hpp"
#include "tsunagi/model/topology/rtt_tree.hpp"

namespace tsunagi {
namespace {

constexpr std::uint64_t kRegistrationTimer = 1;

class Rendezvous final : public Process {
 public:
  void handle(const Input& input) override {
    now_ = input.now;
    if (exited_) return;
    if (auto* s = std::get_if<StartedInput>(&input.event)) return on_started(*s);
    if (auto* a = std::get_if<AcceptedInput>(&input.event)) {
      conns_[a->conn];
      return;
    }
    if (auto* r = std::get_if<ReceivedInput>(&input.event)) return on_received(*r);
    if (auto* c = std::get_if<ClosedInput>(&input.event)) return on_closed(c->conn);
    if (auto* t = std::get_if<TimerFiredInput>(&input.event)) {
      if (t->timer == kRegistrationTimer) on_registration_deadline();
    }
  }

 private:
  struct Conn {
    wire::Deframer deframer;
    Rank rank = kNoRank;
  };

  void on_started(const StartedInput& in) {
    config_ = in.config;
    n_ = config_->processes;
    endpoints_.assign(static_cast<std::size_t>(n_), {});
    hosts_.assign(static_cast<std::size_t>(n_), {});
    sites_.assign(static_cast<std::size_t>(n_), {});
    relays_expected_ = config_->overlay.plan == PlanKind::Relay ? config_->relays : 0;
    rank_conn_.assign(static_cast<std::size_t>(n_), 0);
    near_.assign(static_cast<std::size_t>(n_), {});
    emit(ArmTimerCmd{kRegistrationTimer, now_ + config_->registration_timeout});
  }

  void on_received(const ReceivedInput& in) {
    auto bad = wire::drain_frames(conns_, in, [this](ConnId id, const wire::Frame& f) { on_frame(id, f); });
    if (bad) reject(in.conn, *bad);
  }

  void reject(ConnId id, const std::string& reason) {
    emit(TraceCmd{"frame_rejected", {{"peer", conns_[id].rank}, {"reason", reason}}});
    conns_.erase(id);
    relays_.remove(id);
    emit(CloseCmd{id});
  }

  void on_frame(ConnId id, const wire::Frame& frame) {
    switch (frame.type) {
      case wire::FrameType::Hello: return;  // the register frame that follows says everything
      case wire::FrameType::Register: return on_register(id, frame);
      case wire::FrameType::RttReport: return on_rtt_report(id, frame);
      case wire::FrameType::Done: return on_done(id);
      case wire::FrameType::ProbeResult: return on_probe_result(id, frame);
      case wire::FrameType::RttColumn: return on_rtt_column(id, frame);
      case wire::FrameType::EndpointQuery: return on_endpoint_query(id, frame);
      case wire::FrameType::RelayRegister: return on_relay_register(id, frame);
      case wire::FrameType::Settled: return on_settled(id);
      case wire::FrameType::PeerUnreachable: return on_peer_unreachable(id, frame);
      default:
        return reject(id, std::string("unexpected ") + wire::to_string(frame.type) + " frame");
    }
  }

  void on_register(ConnId id, const wire::Frame& frame) {
    auto msg = wire::read_register(frame);
    if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
    auto& reg = std::get<wire::RegisterMsg>(msg);
    if (reg.rank >= n_) return reject(id, "rank " + std::to_string(reg.rank) + " >= processes");
    auto slot = static_cast<std::size_t>(reg.rank);
    if (rank_conn_[slot] != 0) return reject(id, "rank " + std::to_string(reg.rank) + " registered twice");
    conns_[id].rank = reg.rank;
    rank_conn_[slot] = id;
    endpoints_[slot] = reg.endpoint;
    hosts_[slot] = reg.host;
    sites_[slot] = reg.site;
    ++registered_;
    maybe_send_directory();
  }

  // Relays register like ranks (plan = relay); the run waits for all of them, so every node
  // learns every relay of its site and every relay every other relay.
  void on_relay_register(ConnId id, const wire::Frame& frame) {
    auto msg = wire::read_relay_register(frame);
    if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
    if (relays_expected_ == 0) return reject(id, "a relay registered but plan is not relay");
    if (auto why = relays_.add(id, std::get<wire::RelayRegisterMsg>(msg).relay)) return reject(id, *why);
    maybe_send_directory();
  }

  bool everyone_registered() const {
    return registered_ == n_ && relays_.size() >= relays_expected_;
  }

  void maybe_send_directory() {
    if (!everyone_registered() || directory_sent_) return;
    directory_sent_ = true;
    emit(TraceCmd{"directory", {{"processes", n_}, {"relays", relays_.labels()}}});
    if (relays_expected_ > 0) send_relay_lists();
    // On demand the frame only says "everyone is here"; nodes ask for what they use.
    if (config_->directory == DirectoryMode::OnDemand) {
      broadcast(wire::make_directory({}));
    } else {
      broadcast(wire::make_directory({endpoints_, hosts_}));
    }
  }

  void send_relay_lists() {
    for (ConnId id : relays_.conns())
      emit(SendCmd{id, wire::encode(wire::make_relay_list(relays_.for_relay(id, sites_))), 0});
    for (Rank r = 0; r < n_; ++r) {
      const auto slot = static_cast<std::size_t>(r);
      emit(SendCmd{rank_conn_[slot],
                   wire::encode(wire::make_relay_list(relays_.for_rank(r, sites_[slot]))), 0});
    }
  }

  // The waiting end of a planned pair only learns that the connect towards it failed from here:
  // the two cannot talk (that is why it failed).
  void on_peer_unreachable(ConnId id, const wire::Frame& frame) {
    const Rank from = conns_[id].rank;
    if (from == kNoRank || frame.src != from) return reject(id, "peer_unreachable from another rank");
    if (frame.dst < 0 || frame.dst >= n_) return reject(id, "peer_unreachable for rank " + std::to_string(frame.dst));
    emit(SendCmd{rank_conn_[static_cast<std::size_t>(frame.dst)], wire::encode(frame), 0});
  }

  // routing = direct: a barrier between connecting and the workload, so no rank sends before
  // every connection any peer made towards it exists (docs/relay.md).
  void on_settled(ConnId id) {
    if (conns_[id].rank == kNoRank) return reject(id, "settled before register");
    if (++settled_ < n_) return;
    emit(TraceCmd{"all_settled", {{"processes", n_}}});
    broadcast(wire::make_start());
  }

  void on_endpoint_query(ConnId id, const wire::Frame& frame) {
    auto msg = wire::read_endpoint_query(frame);
    if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
    if (registered_ < n_) return reject(id, "endpoint query before everyone registered");
    wire::EndpointReplyMsg reply;
    for (Rank r : std::get<wire::EndpointQueryMsg>(msg).ranks) {
      if (r >= n_) return reject(id, "endpoint query for rank " + std::to_string(r) + " >= processes");
      reply.ranks.push_back(r);
      reply.endpoints.push_back(endpoints_[static_cast<std::size_t>(r)]);
    }
    emit(SendCmd{id, wire::encode(wire::make_endpoint_reply(reply)), 0});
  }

  void on_registration_deadline() {
    if (directory_sent_) return;  // everyone came (a relay may have died since: no matter)
    std::vector<Rank> missing;
    for (Rank r = 0; r < n_; ++r) {
      if (rank_conn_[static_cast<std::size_t>(r)] == 0) missing.push_back(r);
    }
    const int relays_missing = relays_expected_ - relays_.size();
    emit(TraceCmd{"registration_failed", {{"missing", missing}, {"relays_missing", relays_missing}}});
    fail(missing.empty() ? std::to_string(relays_missing) + " relays never registered"
                         : "ranks never registered: " + nlohmann::json(missing).dump());
  }

  void on_rtt_report(ConnId id, const wire::Frame& frame) {
    auto msg = wire::read_rtt_report(frame);
    if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
    auto& report = std::get<wire::RttReportMsg>(msg);
    if (report.rank != conns_[id].rank) return reject(id, "rtt report for another rank");
    near_[static_cast<std::size_t>(report.rank)] = std::move(report.near);
    rtt_probes_ += report.probes;
    if (++reports_ < n_) return;
    const bool topology = config_->overlay.plan == PlanKind::TopologyAware;
    if (topology && config_->inference.groups == GroupMethod::Leaders) {
      near_.clear();
      leaders_.emplace(hosts_, config_->inference);
      return send_leader_order();
    }
    Groups groups;
    if (topology) groups = combine_views(n_, near_);
    if (config_->overlay.plan == PlanKind::Relay) groups = site_groups(sites_);
    near_.clear();
    groups_ready(std::move(groups));
  }

  // Scalable group inference: the next leader measures the ranks not yet placed.
  void send_leader_order() {
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

  void on_rtt_column(ConnId id, const wire::Frame& frame) {
    auto msg = wire::read_rtt_column(frame);
    if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
    const auto& column = std::get<wire::RttColumnMsg>(msg);
    std::vector<RttSample> row;
    for (std::size_t i = 0; i < column.peers.size(); ++i)
      row.push_back({column.peers[i], static_cast<TimeNs>(column.rtts[i])});
    const Rank from = conns_[id].rank;
    if (tree_rtts_) return on_rep_row(from, row);
    if (!leaders_ || !leaders_->waiting()) return reject(id, "rtt column nobody asked for");
    leaders_->on_row(from, std::move(row));
    send_leader_order();
  }

  void groups_ready(Groups groups) {
    emit(TraceCmd{"groups", {{"groups", groups}}});
    groups_ = std::move(groups);
    inference_ = {{"groups", groups_},
                  {"inferred", config_->overlay.plan == PlanKind::TopologyAware},
                  {"rtt_probes", rtt_probes_},
                  {"groups_end_ns", now_}};
    if (!start_tree_inference()) finish_inference();
  }

  // The exact tree method runs between group inference and the groups going out, so its
  // transfers have the network to themselves.
  bool start_tree_inference() {
    const InferenceConfig& cfg = config_->inference;
    if (cfg.tree == TreeMethod::Rtt && groups_.size() >= 2) return start_rtt_tree();
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
  bool start_rtt_tree() {
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

  void on_rep_row(Rank from, const std::vector<RttSample>& row) {
    auto group_of_rep = [&](Rank r) -> int {
      for (std::size_t i = 0; i < groups_.size(); ++i)
        if (groups_[i].front() == r) return static_cast<int>(i);
      return -1;
    };
    const int i = group_of_rep(from);
    if (i < 0) return;
    for (const RttSample& s : row) {
      const int j = group_of_rep(s.peer);
      if (j >= 0 && s.rtt > 0) (*tree_rtts_)[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = s.rtt;
    }
    if (--reps_waiting_ > 0) return;
    const SwitchTree tree = tree_from_rtts(*tree_rtts_, config_->inference.rtt_tree_tolerance);
    tree_rtts_.reset();
    const nlohmann::json detail = {{"method", "rtt"}, {"leaves", tree.leaves},
                                   {"parent", tree.parent}, {"complete", tree.complete}};
    emit(TraceCmd{"tree", detail});
    inference_["tree"] = detail;
    inference_["tree_end_ns"] = now_;
    finish_inference();
  }

  void send_probe_orders() {
    for (const TreeProber::Order& order : prober_->next_orders()) {
      emit(SendCmd{rank_conn_[static_cast<std::size_t>(order.from)],
                   wire::encode(wire::make_probe_order(order.msg)), 0});
    }
  }

  void on_probe_result(ConnId id, const wire::Frame& frame) {
    auto msg = wire::read_probe_result(frame);
    if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
    if (!prober_ || prober_->finished()) return reject(id, "probe result while no probe runs");
    if (!prober_->on_result(std::get<wire::ProbeResultMsg>(msg))) return;
    if (!prober_->finished()) return send_probe_orders();
    const SwitchTree tree = prober_->infer();
    const nlohmann::json detail = {{"method", "exact"}, {"leaves", tree.leaves},
                                   {"parent", tree.parent}, {"complete", tree.complete}};
    emit(TraceCmd{"tree", detail});
    inference_["tree"] = detail;
    inference_["throughput_transfers"] = prober_->transfers();
    inference_["throughput_failed"] = prober_->failed();
    inference_["tree_end_ns"] = now_;
    prober_.reset();
    finish_inference();
  }

  void finish_inference() {
    inference_["inference_end_ns"] = now_;
    inference_["rtt_probes"] = rtt_probes_;
    emit(ReportCmd{"inference", inference_});
    broadcast(wire::make_groups({groups_}));
    groups_ = {};
  }

  void on_done(ConnId id) {
    if (conns_[id].rank == kNoRank) return reject(id, "done before register");
    if (++done_ < n_) return;
    emit(TraceCmd{"shutdown", {{"processes", n_}}});
    broadcast(wire::make_shutdown());
    const Bytes shutdown = wire::encode(wire::make_shutdown());
    for (ConnId relay : relays_.conns()) emit(SendCmd{relay, shutdown, 0});
    exited_ = true;
    emit(ExitCmd{true, ""});
  }

  void on_closed(ConnId id) {
    auto it = conns_.find(id);
    if (it == conns_.end()) return;
    Rank rank = it->second.rank;
    conns_.erase(it);
    // A relay that goes away is routed around by the others: the run carries on.
    if (auto relay = relays_.remove(id)) {
      if (!exited_) emit(TraceCmd{"relay_lost", {{"relay", *relay}}});
      return;
    }
    // A node that goes away before the end leaves the run unable to finish: say who.
    if (rank != kNoRank && !exited_) {
      emit(TraceCmd{"process_lost", {{"rank", rank}}});
      fail("rank " + std::to_string(rank) + " closed its connection to the rendezvous");
    }
  }

  void fail(const std::string& reason) {
    exited_ = true;
    emit(ExitCmd{false, reason});
  }

  void broadcast(const wire::Frame& frame) {
    Bytes bytes = wire::encode(frame);
    for (ConnId id : rank_conn_) emit(SendCmd{id, bytes, frame.filler});
  }

  TimeNs now_ = 0;
  int n_ = 0;
  std::shared_ptr<const ProtocolConfig> config_;
  std::unordered_map<ConnId, Conn> conns_;
  std::vector<ConnId> rank_conn_;
  std::vector<Endpoint> endpoints_;
  std::vector<std::string> hosts_;
  std::vector<std::string> sites_;
  RelayRegistry relays_;
  int relays_expected_ = 0;
  bool directory_sent_ = false;
  int settled_ = 0;
  std::vector<std::vector<Rank>> near_;
  int registered_ = 0;
  int reports_ = 0;
  int done_ = 0;
  std::uint64_t rtt_probes_ = 0;
  Groups groups_;                    // between group inference and broadcasting them
  nlohmann::json inference_;         // the "inference" report being put together
  std::optional<TreeProber> prober_;
  std::optional<LeaderRounds> leaders_;
  std::optional<std::vector<std::vector<TimeNs>>> tree_rtts_;  // tree = rtt: rep x rep
  std::size_t reps_waiting_ = 0;
  bool exited_ = false;
};

}  // namespace

std::unique_ptr<Process> make_rendezvous() { return std::make_unique<Rendezvous>(); }

}  // namespace tsunagi
