// Option choices named in type names (cli_choices.hpp).
#include "cli_choices.hpp"

namespace tsunagi::app {

CLI::Validator choices(const std::vector<std::string>& words) {
  std::string set;
  for (const std::string& word : words) set += (set.empty() ? "" : ",") + word;
  return CLI::Validator([](const std::string&) { return std::string(); }, "{" + set + "}",
                        "choices");
}

std::vector<std::string> choices_of(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const std::size_t open = type.find(":{");
  const std::size_t close = type.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  std::vector<std::string> words;
  std::size_t start = open + 2;
  while (start < close) {
    const std::size_t comma = std::min(type.find(',', start), close);
    if (comma > start) words.push_back(type.substr(start, comma - start));
    start = comma + 1;
  }
  return words;
}

}  // namespace tsunagi::app
