// `--set dotted.key=value` overrides, applied to the parsed document before validation so that
// an overridden value goes through exactly the checks a value in the file would.
#include <cctype>
#include <charconv>
#include <cstdio>

#include "document.hpp"
#include "reader.hpp"
#include "schema.hpp"

namespace tsunagi::scenario {
namespace {

std::string trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

// Writes `raw` as a TOML basic string, so a bare word keeps a source path like parsed values.
std::string quoted(const std::string& raw) {
  std::string out = "\"";
  for (char c : raw) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(u));
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The value as TOML if it is one (42, 1.5, true, [1, 2], { a = 1 }, "text"), else a string.
// Dates count as strings: no scenario key takes a date.
toml::table parse_value(const std::string& raw, const std::string& origin) {
  try {
    toml::table holder = toml::parse("v = " + raw, std::string_view(origin));
    const toml::node* v = holder.get("v");
    if (holder.size() == 1 && v && !v->is_date() && !v->is_time() && !v->is_date_time()) {
      return holder;
    }
  } catch (const toml::parse_error&) {
    // Not a TOML value: a bare word such as 10Gbps or topology.
  }
  return toml::parse("v = " + quoted(raw), std::string_view(origin));
}

// "network.switch[1].hosts" → {"network", "switch", "1", "hosts"}.
std::vector<std::string> split_key(std::string key) {
  for (char& c : key) {
    if (c == '[') c = '.';
  }
  std::erase(key, ']');
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = key.find('.', start);
    parts.push_back(trim(std::string_view(key).substr(start, dot - start)));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

class Override {
 public:
  explicit Override(const std::string& text) : origin_(std::string(kOverridePrefix) + text) {}

  void apply(toml::table& document, const std::string& text) {
    std::size_t eq = text.find('=');
    if (eq == std::string::npos || trim(std::string_view(text).substr(0, eq)).empty()) {
      fail("expected dotted.key=value — e.g. --set protocol.shortcut_capacity=4");
    }
    auto parts = split_key(text.substr(0, eq));
    toml::table value = parse_value(trim(std::string_view(text).substr(eq + 1)), origin_);
    walk(document, parts, *value.get("v"));
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw ScenarioError(origin_, 0, 0, message);
  }

  void walk(toml::table& document, const std::vector<std::string>& parts, toml::node& value) {
    toml::table* table = &document;
    const TableSchema* schema = &root_schema();
    std::string path;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string& part = parts[i];
      path += (path.empty() ? "" : ".") + part;
      if (part.empty()) fail("empty key segment — write keys as a.b.c");
      const KeySchema* spec = find_key(*schema, part);
      if (!spec) fail(unknown(*schema, part));
      bool last = i + 1 == parts.size();
      if (last) return assign(*table, part, value);
      if (spec->kind == KeyKind::Value) {
        fail("'" + part + "' is a single value; nothing can follow it — drop the rest of the key");
      }
      if (spec->kind == KeyKind::Table) {
        table = &sub_table(*table, part);
      } else {
        ++i;
        toml::array& items = array_of(*table, part, path);
        std::size_t index = element(items, path, parts[i]);
        if (i + 1 == parts.size()) return replace(items, index, value);
        table = items[index].as_table();
        path += "[" + std::to_string(index) + "]";
        if (!table) fail(path + " is not a table");
      }
      schema = spec->table;
    }
  }

  static std::string unknown(const TableSchema& schema, const std::string& key) {
    std::string msg = "unknown key '" + key + "' in " + std::string(schema.title);
    if (auto near = closest_key(schema, key))
      msg += " (did you mean '" + std::string(*near) + "'?)";
    return msg + " — valid keys there: " + key_list(schema);
  }

  static void assign(toml::table& table, const std::string& key, toml::node& value) {
    value.visit([&](auto& v) { table.insert_or_assign(key, std::move(v)); });
  }

  static void replace(toml::array& items, std::size_t index, toml::node& value) {
    value.visit(
        [&](auto& v) { items.replace(items.cbegin() + static_cast<long>(index), std::move(v)); });
  }

  // Creates the table when the file left it out (all its keys then take their defaults).
  toml::table& sub_table(toml::table& parent, const std::string& key) {
    if (!parent.contains(key)) parent.insert(key, toml::table{});
    toml::table* table = parent.get_as<toml::table>(key);
    if (!table)
      fail("'" + key + "' is " + describe(*parent.get(key)) + " in the file, not a table");
    return *table;
  }

  toml::array& array_of(toml::table& parent, const std::string& key, const std::string& path) {
    toml::array* items = parent.get_as<toml::array>(key);
    if (!items || items->empty()) {
      fail(path +
           " has no entries to change — add them to the file (--set can change "
           "entries, not add them)");
    }
    return *items;
  }

  // An index ("1") or, for lists of named tables such as switches, a name ("edge1").
  // `key` is the array's dotted path, for messages.
  std::size_t element(const toml::array& items, const std::string& key, const std::string& which) {
    std::size_t index = 0;
    auto [end, ec] = std::from_chars(which.data(), which.data() + which.size(), index);
    if (ec == std::errc{} && end == which.data() + which.size()) {
      if (index >= items.size()) {
        fail(key + " has " + std::to_string(items.size()) + " entries, numbered 0 to " +
             std::to_string(items.size() - 1) + " — use one of those");
      }
      return index;
    }
    std::string names;
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto name =
          items[i].as_table() ? (*items[i].as_table())["name"].value<std::string>() : std::nullopt;
      if (name && *name == which) return i;
      if (name) names += (names.empty() ? "" : ", ") + *name;
    }
    fail("no entry of " + key + " is named or numbered '" + which + "' — use an index from 0 to " +
         std::to_string(items.size() - 1) +
         (names.empty() ? std::string() : " or a name: " + names));
  }

  std::string origin_;
};

}  // namespace

void apply_overrides(toml::table& document, const std::vector<std::string>& overrides) {
  for (const std::string& text : overrides) {
    if (text.starts_with(kCostsFileOverride)) {
      apply_costs_file(document, text.substr(kCostsFileOverride.size()));
      continue;
    }
    Override(text).apply(document, text);
  }
}

}  // namespace tsunagi::scenario
