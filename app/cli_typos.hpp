// A mistyped command or option named with what it was probably meant to be, instead of
// CLI11's bare "The following argument was not expected" (docs/cli.md, "Mistyped words").
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tsunagi::app {

// After a failed parse: "tsunagi: no command 'rnu'; did you mean 'run'?" for the first word
// that is neither a command of `app` nor an option of the command it follows, or "" when every
// word is known (the error was something else: a missing or bad value).
std::string typo_message(const CLI::App& app, int argc, const char* const* argv);

// Every command of `app`, hidden ones included, in the order they were added.
std::vector<const CLI::App*> commands_of(const CLI::App& app);

// "-q", "--quiet": an option's names as typed, short ones first.
std::vector<std::string> names_of(const CLI::Option& option);

// Whether the option reads a value ("--out DIR"); a flag ("--quiet") does not.
bool takes_value(const CLI::Option& option);

}  // namespace tsunagi::app
