// Shape check: every key known, tables where tables belong. Runs on the whole document before
// values are read, so a typo is reported as a typo rather than as a silently used default.
#include <vector>

#include "document.hpp"
#include "error_sink.hpp"
#include "reader.hpp"
#include "schema.hpp"

namespace tsunagi::scenario {
namespace {

struct Problem {
  toml::source_region where;
  std::string message;
};

class ShapeChecker {
 public:
  void table(const toml::table& table, const TableSchema& schema, const std::string& path) {
    for (auto&& [key, node] : table) {
      const KeySchema* spec = find_key(schema, key.str());
      if (!spec) {
        report(key.source(), unknown_key_message(schema, key.str()));
        continue;
      }
      entry(node, *spec, join(path, key.str()));
    }
  }

  // In the order they were found; the error sink sorts them into file order.
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  static std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  void entry(const toml::node& node, const KeySchema& spec, const std::string& path) {
    switch (spec.kind) {
      case KeyKind::Value:
        if (node.is_table()) {
          report(node.source(), path + " is a single value, not a table — write " +
                                    std::string(spec.name) + " = ... in its parent table");
        }
        break;
      case KeyKind::Table:
        if (const toml::table* t = node.as_table()) {
          table(*t, *spec.table, path);
        } else {
          report(node.source(), path + " must be a table, not " + describe(node) +
                                    " — start it with a [" + path + "] header");
        }
        break;
      case KeyKind::TableArray:
        array(node, *spec.table, path);
        break;
    }
  }

  void array(const toml::node& node, const TableSchema& schema, const std::string& path) {
    const toml::array* items = node.as_array();
    if (!items) {
      report(node.source(), path + " must be a list of tables, not " + describe(node) +
                                " — see docs/scenario-format.md for " + std::string(schema.title));
      return;
    }
    for (std::size_t i = 0; i < items->size(); ++i) {
      std::string item_path = path + "[" + std::to_string(i) + "]";
      if (const toml::table* t = (*items)[i].as_table()) {
        table(*t, schema, item_path);
      } else {
        report((*items)[i].source(), item_path + " must be a table such as { " +
                                         std::string(schema.keys.front().name) + " = ... }, not " +
                                         describe((*items)[i]));
      }
    }
  }

  void report(const toml::source_region& where, std::string message) {
    problems_.push_back(Problem{where, std::move(message)});
  }

  std::vector<Problem> problems_;
};

}  // namespace

toml::table parse_document(const std::string& text, const std::string& file) {
  try {
    return toml::parse(text, std::string_view(file));
  } catch (const toml::parse_error& e) {
    fail_at(e.source(), file,
            std::string(e.description()) + " — this is not valid TOML (https://toml.io)");
  }
}

void check_shape(const toml::table& document, const std::string& file) {
  ShapeChecker checker;
  checker.table(document, root_schema(), "");
  ErrorSink* sink = ErrorSink::current();
  for (const Problem& problem : checker.problems()) {
    if (sink == nullptr) fail_at(problem.where, file, problem.message);
    sink->add(error_at(problem.where, file, problem.message));
  }
}

}  // namespace tsunagi::scenario
