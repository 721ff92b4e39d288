// The shape of a scenario file: which keys each table may hold. Used to reject unknown keys
// (in the file and in --set overrides) with a suggestion, before any value is read.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tsunagi::scenario {

enum class KeyKind { Value, Table, TableArray };

struct TableSchema;

struct KeySchema {
  std::string_view name;
  KeyKind kind = KeyKind::Value;
  const TableSchema* table = nullptr;  // layout of the table, or of each array element
};

struct TableSchema {
  std::string_view title;  // as written in a file, e.g. "[network]" or "[[network.switch]]"
  std::vector<KeySchema> keys;
};

const TableSchema& root_schema();

const KeySchema* find_key(const TableSchema& table, std::string_view key);

// "name, description, seed, ..." in schema order.
std::string key_list(const TableSchema& table);

// The known key nearest to `key` when it looks like a typo of it.
std::optional<std::string_view> closest_key(const TableSchema& table, std::string_view key);

// "unknown key 'hots' in [[network.switch]] — did you mean 'hosts'?" (or the valid keys, or
// the table where the key does belong).
std::string unknown_key_message(const TableSchema& table, std::string_view key);

// Edit distance, for suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace tsunagi::scenario
