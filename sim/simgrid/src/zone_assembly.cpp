// Zones built apart from SimGrid's tree, joined and sealed at the end (zone_assembly.hpp).
#include "zone_assembly.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

namespace tsunagi::sim::simgrid {
namespace {

using ZoneHosts = std::unordered_map<const sg4::NetZone*, std::vector<sg4::Host*>>;

void seal_depth_first(const sg4::NetZone* zone, ZoneHosts& hosts) {
  if (auto it = hosts.find(zone); it != hosts.end()) {
    std::vector<sg4::Host*>& own = it->second;
    // Engine::get_filtered_hosts, which NetZoneImpl::seal uses, sorts by name.
    std::sort(own.begin(), own.end(),
              [](const sg4::Host* a, const sg4::Host* b) { return a->get_name() < b->get_name(); });
    for (sg4::Host* host : own) host->seal();
  }
  for (const sg4::NetZone* child : zone->get_children()) seal_depth_first(child, hosts);
}

}  // namespace

void seal_hosts_in_seal_order(const sg4::NetZone* root, const std::vector<sg4::Host*>& hosts) {
  ZoneHosts by_zone;
  for (sg4::Host* host : hosts) by_zone[host->get_englobing_zone()].push_back(host);
  seal_depth_first(root, by_zone);
}

sg4::NetZone* ZoneAssembly::adopt(sg4::NetZone* zone) {
  if (root_ == nullptr) {
    // The first zone of the platform: SimGrid made it the engine's root and gave it the models.
    root_ = sg4::Engine::get_instance()->get_netzone_root();
    if (root_ != zone)
      throw std::logic_error(
          "the platform's first zone must be the engine's root: build the "
          "platform before any other zone");
    return zone;
  }
  // What set_parent would copy from the parent: every zone of the tree shares the root's models.
  ::simgrid::kernel::routing::NetZoneImpl* impl = zone->get_impl();
  const ::simgrid::kernel::routing::NetZoneImpl* root = root_->get_impl();
  impl->set_network_model(root->get_network_model());
  impl->set_cpu_pm_model(root->get_cpu_pm_model());
  impl->set_cpu_vm_model(root->get_cpu_vm_model());
  impl->set_disk_model(root->get_disk_model());
  impl->set_host_model(root->get_host_model());
  return zone;
}

sg4::NetZone* ZoneAssembly::star_zone(const std::string& name) {
  return adopt(sg4::create_star_zone(name));
}

sg4::NetZone* ZoneAssembly::full_zone(const std::string& name) {
  return adopt(sg4::create_full_zone(name));
}

void ZoneAssembly::join(sg4::NetZone* child, sg4::NetZone* parent) {
  steps_.push_back({parent, child, [child, parent] { child->set_parent(parent); }});
}

void ZoneAssembly::then(sg4::NetZone* zone, std::function<void()> step) {
  steps_.push_back({zone, nullptr, std::move(step)});
}

void ZoneAssembly::run_steps(bool in_root) {
  for (const Step& step : steps_)
    if ((step.zone == root_) == in_root) step.run();
}

void ZoneAssembly::seal_below_root_children() {
  // The root has no children yet, so each seal's walk over the tree's hosts finds none; the
  // hosts are sealed by finish() instead. The root's children stay open: SimGrid refuses to
  // give a sealed zone a parent.
  for (const Step& step : steps_) {
    if (step.zone != root_ || step.child == nullptr) continue;
    for (sg4::NetZone* below : step.child->get_children()) below->seal();
  }
}

void ZoneAssembly::finish(const std::vector<sg4::Host*>& hosts) {
  run_steps(false);
  seal_below_root_children();
  run_steps(true);
  steps_.clear();
  seal_hosts_in_seal_order(root_, hosts);
  root_->seal();
}

}  // namespace tsunagi::sim::simgrid
