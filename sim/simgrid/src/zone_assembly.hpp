// Zones built apart from SimGrid's tree and joined to it at the end, so that building a platform
// costs time linear in its hosts and links (issue 30; docs/simgrid.md, "Construction cost").
//
// SimGrid 3.32 checks every new host and link name by walking every zone below the engine's root
// zone (HostImpl's and StandardLinkImpl's constructors call Host::by_name_or_null and
// Link::by_name_or_null), so N hosts in a tree of about N/40 zones cost O(N²): 7 minutes of CPU
// at 100,000 hosts. A zone made here has no parent while its hosts and links are created, and
// the root zone has no children yet, so each walk sees one zone. Joins (set_parent) and the
// routes that need them are queued in creation order and replayed by finish(): every zone gets
// the same components in the same order as if each had been joined at once, so the routes, the
// ids and the order of links and hosts are the same as the direct build.
//
// Sealing has the same trap: NetZoneImpl::seal lists a zone's hosts by walking every host of the
// tree (get_all_hosts), once per zone. finish() seals the zones below the root's children before
// those join the root (the walk then sees none of them), seals every host itself in the order
// the root's seal takes them (zones depth first, hosts by name in each), then joins the root's
// children and seals the root: the walk runs once for the root and once per child of it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <simgrid/s4u/NetZone.hpp>

#include "platform.hpp"

namespace tsunagi::sim::simgrid {

class ZoneAssembly {
 public:
  // A star zone named `name`. The platform's first zone is the engine's root and is made as
  // usual; any other has no parent until finish(), and the root's models, so that it can already
  // hold hosts and links.
  sg4::NetZone* star_zone(const std::string& name);
  sg4::NetZone* full_zone(const std::string& name);

  // `child` becomes a child of `parent` at finish(), in the order of the calls.
  void join(sg4::NetZone* child, sg4::NetZone* parent);

  // A change to `zone` (a route naming child zones or their gateways) that needs the joins queued
  // before it: run at finish(), in order with them.
  void then(sg4::NetZone* zone, std::function<void()> step);

  // Replays the queue, seals every zone and every host. `hosts`: all the platform's hosts.
  void finish(const std::vector<sg4::Host*>& hosts);

 private:
  struct Step {
    sg4::NetZone* zone = nullptr;   // the zone the step changes (a join: the parent)
    sg4::NetZone* child = nullptr;  // a join's child; nullptr for other steps
    std::function<void()> run;
  };

  sg4::NetZone* adopt(sg4::NetZone* zone);
  void run_steps(bool in_root);
  void seal_below_root_children();

  sg4::NetZone* root_ = nullptr;
  std::vector<Step> steps_;
};

// Seals `hosts` in the order NetZoneImpl::seal of `root` would: zones depth first from `root`
// (children in order), the hosts of each zone by name.
void seal_hosts_in_seal_order(const sg4::NetZone* root, const std::vector<sg4::Host*>& hosts);

}  // namespace tsunagi::sim::simgrid
