// `--costs FILE` (issue 32): a TOML file of host costs, overlaid on the scenario like --set.
// It may hold [protocol.costs] and [network.factors] only: what `tsunagi calibrate` measures
// of a machine, kept apart from the scenario that describes a network. Its values keep their
// place in FILE, so an error in one names FILE:LINE:COL as one in the scenario would.
#include <array>
#include <string_view>

#include "document.hpp"
#include "reader.hpp"

namespace tsunagi::scenario {
namespace {

// The tables a costs file may set: [parent.child].
struct Allowed {
  std::string_view parent;
  std::string_view child;
};
constexpr std::array<Allowed, 2> kAllowed{{{"protocol", "costs"}, {"network", "factors"}}};

[[noreturn]] void refuse(const toml::source_region& where, const std::string& file,
                         const std::string& what) {
  fail_at(where, file,
          what +
              " is not allowed in a costs file — it may hold only [protocol.costs] and "
              "[network.factors]; set other keys in the scenario or with --set");
}

const Allowed* allowed_child(std::string_view parent, std::string_view child) {
  for (const Allowed& allowed : kAllowed)
    if (allowed.parent == parent && allowed.child == child) return &allowed;
  return nullptr;
}

// The document's table at `key`, made when the scenario left it out.
toml::table& table_in(toml::table& parent, std::string_view key, const std::string& file) {
  if (!parent.contains(key)) parent.insert(key, toml::table{});
  toml::table* table = parent.get_as<toml::table>(key);
  if (table == nullptr)
    fail_at(parent.get(key)->source(), file,
            "'" + std::string(key) + "' is " + describe(*parent.get(key)) +
                " in the scenario, not a table — the costs file cannot add keys to it");
  return *table;
}

// Moves the file's [parent.child] into the document: whole when the scenario has no such
// table, else key by key. A move keeps each node's source region (a copy would drop it), so
// errors, an unknown key's included, point into the costs file.
void overlay(toml::table& document, toml::table& from, std::string_view parent,
             const toml::key& child, const std::string& file) {
  toml::table& parent_table = table_in(document, parent, file);
  if (!parent_table.contains(child.str())) {
    parent_table.insert(child, std::move(from));
    return;
  }
  toml::table& into = table_in(parent_table, child.str(), file);
  for (auto&& [key, value] : from)
    value.visit([&](auto& v) { into.insert_or_assign(key, std::move(v)); });
}

}  // namespace

void apply_costs_file(toml::table& document, const std::string& path) {
  toml::table costs = parse_document(read_scenario_text(path), path);
  for (auto&& [parent, node] : costs) {
    toml::table* tables = node.as_table();
    if (tables == nullptr) refuse(node.source(), path, "'" + std::string(parent.str()) + "'");
    for (auto&& [child, inner] : *tables) {
      const std::string dotted = std::string(parent.str()) + "." + std::string(child.str());
      if (!inner.is_table()) refuse(inner.source(), path, "'" + dotted + "'");
      if (allowed_child(parent.str(), child.str()) == nullptr)
        refuse(inner.source(), path, "[" + dotted + "]");
      overlay(document, *inner.as_table(), parent.str(), child, path);
    }
  }
}

}  // namespace tsunagi::scenario
