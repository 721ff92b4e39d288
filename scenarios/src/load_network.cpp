// [network]: explicit switches ([[network.switch]], parents first), a generated regular tree
// ([network.tree]) or a Dragonfly ([network.dragonfly]), plus the loopback link used between
// processes of one host.
#include <limits>
#include <map>

#include "readers.hpp"
#include "schema.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"
#include "tsunagi/scenarios/serial.hpp"

namespace tsunagi::scenario {
namespace {

constexpr double kGbps = 1e9 / 8;  // bytes/s

// Names end up in SimGrid ids, host names and file names; keep them plain.
bool plain_name(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

struct NameInfo {
  std::size_t index;
  int line;
};

class SwitchListReader {
 public:
  SwitchListReader(const Section& network, const toml::array& items) : network_(network) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      sections_.emplace_back(*items[i].as_table(), "network.switch[" + std::to_string(i) + "]",
                             network.file());
    }
  }

  std::vector<SwitchSpec> read() {
    if (sections_.empty()) {
      network_.fail("switch", "network.switch is empty — add at least one [[network.switch]]");
    }
    collect_names();
    std::vector<SwitchSpec> switches;
    for (std::size_t i = 0; i < sections_.size(); ++i) switches.push_back(read_one(i));
    return switches;
  }

 private:
  void collect_names() {
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      const Section& s = sections_[i];
      if (!s.has("name")) {
        s.fail_here(s.path() +
                    " has no name — add name = \"...\" (names are how parents are "
                    "referred to)");
      }
      std::string name = s.string("name", "");
      if (!plain_name(name)) {
        s.fail("name", "switch name \"" + name +
                           "\" is not allowed — use letters, digits, "
                           "'_', '-' and '.' only");
      }
      auto [it, fresh] = names_.try_emplace(name, NameInfo{i, s.line()});
      if (!fresh) {
        s.fail("name", "switch name '" + name + "' is used twice (first at line " +
                           std::to_string(it->second.line) + ") — give each switch its own name");
      }
    }
  }

  SwitchSpec read_one(std::size_t i) {
    const Section& s = sections_[i];
    SwitchSpec sw;
    sw.name = s.string("name", "");
    sw.parent = s.string("parent", "");
    sw.hosts = s.count("hosts", sw.hosts);
    sw.host_bandwidth = s.bandwidth("host_bandwidth", sw.host_bandwidth);
    sw.host_latency = s.duration("host_latency", sw.host_latency);
    sw.uplink_bandwidth = s.bandwidth("uplink_bandwidth", sw.uplink_bandwidth);
    sw.uplink_latency = s.duration("uplink_latency", sw.uplink_latency);
    if (sw.parent.empty()) {
      check_root(s, sw);
    } else {
      check_parent(s, sw, i);
    }
    return sw;
  }

  void check_root(const Section& s, const SwitchSpec& sw) {
    if (root_) {
      s.fail_here("switch '" + sw.name + "' has no parent, but '" + root_->name + "' (line " +
                  std::to_string(root_->line) + ") is already the root — a network has one " +
                  "root; give '" + sw.name + "' a parent, e.g. parent = \"" + root_->name + "\"");
    }
    for (const char* key : {"uplink_bandwidth", "uplink_latency"}) {
      if (s.has(key)) {
        s.fail(key, "'" + sw.name + "' is the root switch and has no uplink — remove " + key +
                        " (or give the switch a parent)");
      }
    }
    root_ = RootInfo{sw.name, s.line()};
  }

  void check_parent(const Section& s, const SwitchSpec& sw, std::size_t i) {
    if (sw.parent == sw.name) {
      s.fail("parent", "switch '" + sw.name +
                           "' is its own parent — name another switch, or "
                           "remove parent to make it the root");
    }
    auto it = names_.find(sw.parent);
    if (it == names_.end()) {
      s.fail("parent", "parent '" + sw.parent + "' of switch '" + sw.name +
                           "' is not a switch in this network — " + suggest(sw.parent));
    }
    if (it->second.index > i) {
      s.fail("parent", "parent '" + sw.parent + "' of switch '" + sw.name +
                           "' is listed later (line " + std::to_string(it->second.line) +
                           ") — list every switch after its parent: move the [[network.switch]] "
                           "named '" +
                           sw.parent + "' above this one");
    }
  }

  std::string suggest(const std::string& missing) const {
    const std::string* best = nullptr;
    std::size_t best_distance = 0;
    for (const auto& [name, info] : names_) {
      std::size_t d = edit_distance(missing, name);
      if (!best || d < best_distance) best = &name, best_distance = d;
    }
    if (best && best_distance <= std::max<std::size_t>(2, missing.size() / 3)) {
      return "did you mean '" + *best + "'?";
    }
    return "define it with a [[network.switch]] (name = \"" + missing + "\") above this one";
  }

  struct RootInfo {
    std::string name;
    int line;
  };

  const Section& network_;
  std::vector<Section> sections_;
  std::map<std::string, NameInfo> names_;
  std::optional<RootInfo> root_;
};

void check_host_total(const Section& network, const std::vector<SwitchSpec>& switches) {
  std::int64_t hosts = 0;
  for (const SwitchSpec& sw : switches) hosts += sw.hosts;
  if (hosts == 0) {
    network.fail_here("the network has no hosts — give some switch hosts = N");
  }
  if (hosts > max_processes()) {
    network.fail_here("the network has " + std::to_string(hosts) + " hosts, more than " +
                      std::to_string(max_processes()) +
                      " — make it smaller (or raise the limit: TSUNAGI_MAX_PROCESSES=N in the "
                      "environment)");
  }
}

}  // namespace

// [network.factors] (docs/calibration.md); the defaults leave every link as the file says.
NetworkFactors read_network_factors(const Section& factors) {
  NetworkFactors out;
  // A share of 0 would make every transfer endless; below 1e-6 is surely a unit mistake.
  out.bandwidth = factors.number("bandwidth", out.bandwidth, 1e-6, 1);
  out.latency_per_link = factors.duration("latency_per_link", out.latency_per_link);
  out.latency_scale = factors.number("latency_scale", out.latency_scale, 0, 1e6);
  return out;
}

static TreeLevel read_level(const Section& level) {
  if (!level.has("fanout")) {
    level.fail_here(level.path() + " has no fanout — write { fanout = 4, ... }");
  }
  TreeLevel out;
  out.fanout = level.count("fanout", 1, 1);
  out.uplink_bandwidth = level.bandwidth("uplink_bandwidth", kGbps);
  out.uplink_latency = level.duration("uplink_latency", 5 * kNsPerUs);
  return out;
}

std::vector<SwitchSpec> read_tree(const Section& tree) {
  TreeSpec spec;
  if (const toml::array* levels = tree.table().get_as<toml::array>("levels")) {
    for (std::size_t i = 0; i < levels->size(); ++i) {
      Section level(*(*levels)[i].as_table(), tree.path() + ".levels[" + std::to_string(i) + "]",
                    tree.file());
      spec.levels.push_back(read_level(level));
    }
  }
  if (!tree.has("hosts_per_leaf")) {
    tree.fail_here("[" + tree.path() + "] has no hosts_per_leaf — add e.g. hosts_per_leaf = 14");
  }
  spec.hosts_per_leaf = tree.count("hosts_per_leaf", 1, 1);
  spec.host_bandwidth = tree.bandwidth("host_bandwidth", kGbps);
  spec.host_latency = tree.duration("host_latency", 5 * kNsPerUs);
  std::int64_t switches = tree_switch_count(spec);
  if (switches > kMaxSwitches) {
    tree.fail("levels", "this tree has " + std::to_string(switches) + " switches, more than " +
                            std::to_string(kMaxSwitches) + " — lower the fanouts or levels");
  }
  return generate_tree(spec);
}

// The ways of describing a network, with what a file calls them; a shape that replaces the
// switches (a Dragonfly, serial links) goes with none of the others.
void refuse_other_shapes(const Section& network, std::string_view own, const std::string& why) {
  constexpr std::pair<const char*, const char*> kShapes[] = {
      {"switch", "[[network.switch]]"},
      {"tree", "[network.tree]"},
      {"random_tree", "[network.random_tree]"},
      {"cluster", "[[network.cluster]]"},
      {"wan", "[network.wan]"},
      {"dragonfly", "[network.dragonfly]"},
      {"serial", "[network.serial]"}};
  const std::string own_title = "[network." + std::string(own) + "]";
  for (const auto& [key, title] : kShapes) {
    if (key == own || !network.has(key)) continue;
    network.fail(key, own_title + " cannot go with " + title + " — " + why + "; remove " + title +
                          " or " + own_title);
  }
}

Network read_network(const Section& root) {
  auto network = root.sub("network");
  if (!network) {
    root.fail_here(
        "there is no [network] — add [[network.switch]] tables, a [network.tree] or a "
        "[network.dragonfly] or a [network.serial] (docs/scenario-format.md)");
  }
  Network out;
  out.loopback_bandwidth = network->bandwidth("loopback_bandwidth", out.loopback_bandwidth);
  out.loopback_latency = network->duration("loopback_latency", out.loopback_latency);
  if (auto factors = network->sub("factors")) out.factors = read_network_factors(*factors);
  if (auto serial = network->sub("serial")) {
    out.serial = read_serial(*network, *serial);
    out.switches = serial_switches(*out.serial);
    return out;
  }
  if (auto dragonfly = network->sub("dragonfly")) {
    out.dragonfly = read_dragonfly(*network, *dragonfly);
    out.switches = dragonfly_switches(*out.dragonfly);
    return out;
  }
  if (const toml::array* clusters = network->table().get_as<toml::array>("cluster")) {
    read_wan(*network, *clusters, out);
    check_host_total(*network, out.switches);
    return out;
  }
  check_wan_only_keys(*network);
  const toml::array* items = network->table().get_as<toml::array>("switch");
  auto tree = network->sub("tree");
  if (auto random = network->sub("random_tree")) {
    if (items || tree) {
      network->fail("random_tree",
                    "[network.random_tree] cannot go with [network.tree] or "
                    "[[network.switch]] — keep one way of describing the switches");
    }
    out.switches = read_random_tree(*random);
    check_host_total(*network, out.switches);
    return out;
  }
  if (items && tree) {
    network->fail("tree",
                  "[network.tree] and [[network.switch]] are both given — use one: "
                  "list the switches, or generate a regular tree");
  }
  if (!items && !tree) {
    network->fail_here(
        "[network] has no switches — add [[network.switch]] tables or a "
        "[network.tree]");
  }
  out.switches = items ? SwitchListReader(*network, *items).read() : read_tree(*tree);
  check_host_total(*network, out.switches);
  return out;
}

}  // namespace tsunagi::scenario
