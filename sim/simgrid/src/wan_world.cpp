// The World's WAN part (issue 6): where each process sits for the cluster policies, relay
// processes, router SYN rate limits, the kernel's SYN schedule and [[faults]] kill times.
#include <algorithm>

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "world.hpp"

namespace tsunagi::sim::simgrid {

void SynBucket::refill(TimeNs now) {
  if (now <= refilled_at) return;
  tokens = std::min(burst, tokens + per_second * static_cast<double>(now - refilled_at) / 1e9);
  refilled_at = now;
}

// Relays come after the rendezvous, each on its own host (platform.relays), labelled by it.
void World::add_relays(const scenario::Scenario& scenario, const Platform& platform) {
  network_ = scenario.network;
  faults_ = scenario.faults;
  if (!has_wan()) return;
  for (const scenario::ClusterSpec& cluster : network_.clusters) {
    SynBucket bucket;
    bucket.per_second = cluster.connect_rate.per_second;
    bucket.burst = bucket.tokens = cluster.connect_rate.burst;
    buckets_.push_back(bucket);
  }
  wan_connections_.assign(network_.clusters.size(), 0);
  const std::vector<int> clusters = scenario::rank_clusters(scenario);
  for (std::size_t r = 0; r < clusters.size(); ++r) {
    processes_[r].place = {clusters[r], false};
    processes_[r].site = network_.clusters[static_cast<std::size_t>(clusters[r])].name;
  }
  ProcessEntry& rendezvous = processes_[static_cast<std::size_t>(rendezvous_index_)];
  for (std::size_t c = 0; c < network_.clusters.size(); ++c) {
    if (network_.clusters[c].name != network_.rendezvous_cluster) continue;
    rendezvous.place = {static_cast<int>(c), false};
    rendezvous.site = network_.clusters[c].name;
  }
  const std::vector<scenario::RelaySlot> slots = scenario::relay_slots(scenario);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    ProcessEntry entry;
    entry.rank = kNoRank;
    entry.label = slots[i].host;
    entry.host = platform.relays.at(i);
    entry.endpoint = slots[i].host + ":0";
    entry.inbox = sg4::Mailbox::by_name(entry.endpoint);
    entry.place = {slots[i].cluster, slots[i].at == scenario::RelayPlacement::Gateway};
    entry.site = network_.clusters[static_cast<std::size_t>(slots[i].cluster)].name;
    entry.relay = true;
    processes_.push_back(std::move(entry));
  }
}

scenario::ConnectOutcome World::policy(int from, int to) const {
  return scenario::policy_outcome(network_, processes_[static_cast<std::size_t>(from)].place, processes_[static_cast<std::size_t>(to)].place);
}

bool World::pass_syn(int from, int to, TimeNs now) {
  const scenario::Place a = processes_[static_cast<std::size_t>(from)].place;
  const scenario::Place b = processes_[static_cast<std::size_t>(to)].place;
  if (a.cluster < 0 || a.cluster == b.cluster) return true;
  // The routers the SYN crosses: the source's on the way out, the target's on the way in. A
  // gateway process is the router itself: its own bucket does not apply to it.
  std::vector<SynBucket*> crossed;
  if (!a.gateway) crossed.push_back(&buckets_[static_cast<std::size_t>(a.cluster)]);
  if (!b.gateway) crossed.push_back(&buckets_[static_cast<std::size_t>(b.cluster)]);
  for (SynBucket* bucket : crossed) {
    if (!bucket->limited()) continue;
    bucket->refill(now);
    if (bucket->tokens < 1) return false;
  }
  for (SynBucket* bucket : crossed)
    if (bucket->limited()) bucket->tokens -= 1;
  return true;
}

// After the last retry the kernel waits one more doubled interval: 1 s and 6 retries give up
// after 127 s, 3 s and 5 retries (the paper's Linux 2.6.18) after 189 s.
TimeNs World::syn_give_up() const {
  return network_.syn.syn_rto * ((TimeNs{1} << (network_.syn.syn_retries + 1)) - 1);
}

TimeNs World::kill_time(int index) const {
  for (const scenario::FaultSpec& fault : faults_)
    if (fault.kill == processes_[static_cast<std::size_t>(index)].label) return fault.at;
  return -1;
}

void World::count_wan_connection(int from, int to) {
  const scenario::Place a = processes_[static_cast<std::size_t>(from)].place;
  const scenario::Place b = processes_[static_cast<std::size_t>(to)].place;
  if (a.cluster < 0 || a.cluster == b.cluster) return;
  ++wan_connections_[static_cast<std::size_t>(a.cluster)];
  ++wan_connections_[static_cast<std::size_t>(b.cluster)];
}

}  // namespace tsunagi::sim::simgrid
