// The World's WAN part (issue 6): where each process sits for the cluster policies, relay
// processes, router SYN rate limits and the kernel's SYN schedule.
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
  if (!has_wan()) return;
  for (const scenario::ClusterSpec& cluster : network_.clusters) {
    SynBucket bucket;
    bucket.per_second = cluster.connect_rate.per_second;
    bucket.burst = bucket.tokens = cluster.connect_rate.burst;
    buckets_.push_back(bucket);
  }
  wan_connections_.assign(network_.clusters.size(), 0);
  const std::vector<scenario::RelaySlot> relays = scenario::relay_slots(scenario);
  for (std::size_t i = 0; i < relays.size(); ++i) {
    const scenario::RelaySlot& relay = relays[i];
    add_process(runner::ProcessRow{runner::Role::Relay, kNoRank, relay.host, relay.host + ":0",
                                   relay.host, site_of(relay.cluster)},
                platform.relays.at(i),
                scenario::Place{relay.cluster, relay.at == scenario::RelayPlacement::Gateway});
  }
}

scenario::ConnectOutcome World::policy(int from, int to) const {
  return scenario::policy_outcome(network_, slots_[static_cast<std::size_t>(from)].place,
                                  slots_[static_cast<std::size_t>(to)].place);
}

bool World::pass_syn(int from, int to, TimeNs now) {
  const scenario::Place a = slots_[static_cast<std::size_t>(from)].place;
  const scenario::Place b = slots_[static_cast<std::size_t>(to)].place;
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

void World::count_wan_connection(int from, int to) {
  const scenario::Place a = slots_[static_cast<std::size_t>(from)].place;
  const scenario::Place b = slots_[static_cast<std::size_t>(to)].place;
  if (a.cluster < 0 || a.cluster == b.cluster) return;
  ++wan_connections_[static_cast<std::size_t>(a.cluster)];
  ++wan_connections_[static_cast<std::size_t>(b.cluster)];
}

}  // namespace tsunagi::sim::simgrid
