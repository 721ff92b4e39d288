// Prints every key a scenario file may hold, one per line as `dotted.path kind`, kind being
// `value`, `table` or `array` (an array of tables: its entries' keys follow under the same
// path). Read by tests/docs/check_docs.py to check the keys the docs name against the schema
// the loader really uses.
#include <iostream>
#include <string>

#include "schema.hpp"

namespace {

using tsunagi::scenario::KeyKind;
using tsunagi::scenario::TableSchema;

void print(const TableSchema& table, const std::string& prefix) {
  for (const auto& key : table.keys) {
    const std::string path =
        prefix.empty() ? std::string(key.name) : prefix + "." + std::string(key.name);
    const char* kind = key.kind == KeyKind::Value   ? "value"
                       : key.kind == KeyKind::Table ? "table"
                                                    : "array";
    std::cout << path << ' ' << kind << '\n';
    if (key.table) print(*key.table, path);
  }
}

}  // namespace

int main() {
  print(tsunagi::scenario::root_schema(), "");
  return 0;
}
