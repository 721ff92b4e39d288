#include "cli_typos.hpp"

#include <string_view>
#include <vector>

#include "cli_suggest.hpp"

namespace tsunagi::app {
namespace {

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* command : commands_of(app)) names.push_back(command->get_name());
  return names;
}

const CLI::App* find_command(const CLI::App& app, std::string_view name) {
  for (const CLI::App* command : commands_of(app))
    if (command->get_name() == name) return command;
  return nullptr;
}

std::vector<std::string> option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options())
    for (const std::string& name : names_of(*option)) names.push_back(name);
  return names;
}

std::string list(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

std::vector<const CLI::App*> commands_of(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

std::vector<std::string> names_of(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const std::string& name : option.get_snames()) names.push_back("-" + name);
  for (const std::string& name : option.get_lnames()) names.push_back("--" + name);
  return names;
}

// A flag expects no value; its type size says nothing (CLI11 gives some flags one).
bool takes_value(const CLI::Option& option) {
  return option.get_expected_max() > 0 && option.get_type_size_max() > 0;
}

std::string typo_message(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* command = &app;
  std::string where = "tsunagi";  // not app.get_name(): that is argv[0], a path
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--") break;  // positionals only from here on
    if (word.size() > 1 && word[0] == '-') {
      // "--out=DIR" is "--out"; "-j4" and "-qv" start with a short option.
      std::string name(word.substr(0, word.find('=')));
      if (name[1] != '-') name.resize(2);
      const CLI::Option* option = command->get_option_no_throw(name);
      if (option == nullptr) {
        const std::string hint = did_you_mean(suggest(name, option_names(*command)));
        return where + ": no option '" + name + "'" +
               (hint.empty() ? " (" + where + " --help lists them)" : "; " + hint);
      }
      // The option's value is not a word to check ("--seed -1", "--out run").
      if (takes_value(*option) && word.find('=') == std::string_view::npos &&
          word.size() == name.size())
        ++i;
      continue;
    }
    if (command != &app) continue;  // a positional of the command
    command = find_command(app, word);
    if (command == nullptr) {
      const std::vector<std::string> commands = command_names(app);
      const std::string hint = did_you_mean(suggest(word, commands));
      return where + ": no command '" + std::string(word) + "'; " +
             (hint.empty() ? "commands: " + list(commands) : hint);
    }
    where += " " + command->get_name();
  }
  return "";
}

}  // namespace tsunagi::app
