// List values of a scenario table (Section::integer_list, Section::string_list): sweeps such as
// a multicast's group sizes and message sizes.
#include "error_sink.hpp"
#include "reader.hpp"

namespace tsunagi::scenario {
namespace {

// The elements of `key`: the array's, or the one bare value. Fails on an empty array.
std::vector<const toml::node*> elements_of(const Section& s, std::string_view key,
                                           const std::string& example) {
  const toml::node* node = s.table().get(key);
  std::vector<const toml::node*> out;
  if (const toml::array* items = node->as_array()) {
    for (const toml::node& item : *items) out.push_back(&item);
    if (out.empty())
      s.fail(key, s.path_of(key) + " is an empty list — leave it out for the default or write " +
                      std::string(key) + " = " + example);
  } else {
    out.push_back(node);
  }
  return out;
}

}  // namespace

std::vector<std::int64_t> Section::integer_list(std::string_view key,
                                                const std::vector<std::int64_t>& fallback,
                                                std::int64_t min, std::int64_t max) const {
  return recovering(fallback, [&]() -> std::vector<std::int64_t> {
    if (!has(key)) return fallback;
    const std::string example = "[" + std::to_string(std::max(min, std::int64_t{1})) + ", " +
                                std::to_string(std::max(min, std::int64_t{1}) + 1) + "]";
    std::vector<std::int64_t> out;
    for (const toml::node* item : elements_of(*this, key, example)) {
      auto value = item->value_exact<std::int64_t>();
      if (!value)
        fail_at(item->source(), file(),
                path_of(key) + " must list integers, not " + describe(*item) + " — e.g. " +
                    std::string(key) + " = " + example);
      if (*value < min || *value > max)
        fail_at(item->source(), file(),
                path_of(key) + " lists " + std::to_string(*value) + ", outside " +
                    std::to_string(min) + ".." + std::to_string(max) + " — use values from " +
                    std::to_string(min) + " to " + std::to_string(max));
      out.push_back(*value);
    }
    return out;
  });
}

std::vector<std::string> Section::string_list(std::string_view key,
                                              const std::vector<std::string>& fallback) const {
  return recovering(fallback, [&]() -> std::vector<std::string> {
    if (!has(key)) return fallback;
    std::vector<std::string> out;
    for (const toml::node* item : elements_of(*this, key, "[\"a\", \"b\"]")) {
      auto value = item->value<std::string>();
      if (!item->is_string() || !value)
        fail_at(item->source(), file(),
                path_of(key) + " must list strings, not " + describe(*item) + " — e.g. " +
                    std::string(key) + " = [\"" + (fallback.empty() ? "a" : fallback.front()) +
                    "\"]");
      out.push_back(*value);
    }
    return out;
  });
}

}  // namespace tsunagi::scenario
