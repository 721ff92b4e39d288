// Router policies as iptables rules. See netns_policy.hpp; the outcomes they must give are
// scenario::policy_outcome's (tests/realnet/wan_policy.sh checks them with real connects).
#include "netns_policy.hpp"

#include <algorithm>
#include <cmath>

namespace tsunagi::realnet {
namespace {

using Rule = std::vector<std::string>;

Rule ipt(std::initializer_list<std::string> args) {
  Rule rule{"iptables", "-w"};
  rule.insert(rule.end(), args);
  return rule;
}

int cluster_index(const scenario::Network& network, const std::string& name) {
  for (std::size_t d = 0; d < network.clusters.size(); ++d)
    if (network.clusters[d].name == name) return static_cast<int>(d);
  return -1;
}

}  // namespace

namespace {

// What a router lets through that is *not* forwarded: a Gateway relay runs on the router itself,
// so its connections pass INPUT and OUTPUT, not FORWARD. policy_outcome treats it as a host of
// its cluster except behind NAT (where it holds the public address), so a firewall must filter
// it as it filters the LAN: inbound from the WAN for both firewall kinds, outbound for a
// two-way firewall.
void gateway_rules(const scenario::ClusterSpec& cluster, const std::vector<std::string>& allowed,
                   std::vector<Rule>& rules) {
  struct Way {
    const char* chain;
    const char* iface_flag;
    const char* peer_flag;
  };
  std::vector<Way> ways{{"INPUT", "-i", "-s"}};
  if (cluster.policy == scenario::ClusterPolicy::Firewall) ways.push_back({"OUTPUT", "-o", "-d"});
  for (const Way& way : ways) {
    rules.push_back(ipt({"-A", way.chain, way.iface_flag, kRouterWan, "-m", "conntrack",
                         "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"}));
    for (const std::string& peer : allowed)
      rules.push_back(
          ipt({"-A", way.chain, way.iface_flag, kRouterWan, way.peer_flag, peer, "-j", "ACCEPT"}));
    if (cluster.firewall_rejects)
      rules.push_back(ipt({"-A", way.chain, way.iface_flag, kRouterWan, "-p", "tcp", "-j", "REJECT",
                           "--reject-with", "tcp-reset"}));
    rules.push_back(ipt({"-A", way.chain, way.iface_flag, kRouterWan, "-j", "DROP"}));
  }
}

}  // namespace

std::vector<std::vector<std::string>> router_rules(
    const scenario::Network& network, int c,
    const std::function<std::vector<std::string>(int)>& addresses) {
  const auto& cluster = network.clusters[static_cast<std::size_t>(c)];
  std::vector<Rule> rules;
  // Bursts of connection attempts beyond the rate: SYNs crossing the router in either direction
  // share one token bucket; a SYN finding it empty is dropped (the sender retransmits it).
  if (cluster.connect_rate.per_second > 0) {
    const long rate = std::max(1L, std::lround(cluster.connect_rate.per_second));
    const int burst = std::max(1, cluster.connect_rate.burst);
    rules.push_back(ipt({"-A", "FORWARD", "-p", "tcp", "--syn", "-m", "hashlimit",
                         "--hashlimit-above", std::to_string(rate) + "/sec", "--hashlimit-burst",
                         std::to_string(burst), "--hashlimit-name", "tsgrate", "-j", "DROP"}));
  }
  if (cluster.policy == scenario::ClusterPolicy::Open) return rules;
  rules.push_back(ipt(
      {"-A", "FORWARD", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"}));
  // NAT: private addresses are not reachable from outside whatever `allow` says (policy_outcome).
  const bool nat = cluster.policy == scenario::ClusterPolicy::Nat;
  std::vector<std::string> allowed;  // every address of the allowed clusters (LAN and gateway)
  for (const std::string& name : nat ? std::vector<std::string>{} : cluster.allow) {
    const int d = cluster_index(network, name);
    if (d < 0) continue;  // the loader already named unknown clusters
    for (const std::string& a : addresses(d)) allowed.push_back(a);
  }
  for (const std::string& a : allowed) {
    rules.push_back(ipt({"-A", "FORWARD", "-s", a, "-j", "ACCEPT"}));
    rules.push_back(ipt({"-A", "FORWARD", "-d", a, "-j", "ACCEPT"}));
  }
  // Firewall: both directions blocked; the others: what leaves the LAN passes.
  if (cluster.policy != scenario::ClusterPolicy::Firewall)
    rules.push_back(ipt({"-A", "FORWARD", "-i", kRouterLan, "-j", "ACCEPT"}));
  // Blocked SYNs: refused (RST from the router) or silently dropped (the sender times out).
  if (cluster.firewall_rejects && !nat)
    rules.push_back(
        ipt({"-A", "FORWARD", "-p", "tcp", "-j", "REJECT", "--reject-with", "tcp-reset"}));
  rules.push_back(ipt({"-P", "FORWARD", "DROP"}));
  if (nat)
    rules.push_back(ipt({"-t", "nat", "-A", "POSTROUTING", "-o", kRouterWan, "-j", "MASQUERADE"}));
  else
    gateway_rules(cluster, allowed, rules);
  return rules;
}

}  // namespace tsunagi::realnet
