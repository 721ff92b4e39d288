// The man page and the bash completion, generated from the CLI11 definitions of the program
// (`tsunagi help --man`, `tsunagi help --bash-completion`): an option added to a command shows
// up in both without anyone editing them. The build writes them into build/share/ and
// `cmake --install` copies them (docs/cli.md, "Man page and shell completion").
#pragma once

#include <ostream>

#include <CLI/CLI.hpp>

namespace tsunagi::app {

// tsunagi(1) in roff (man macros): NAME, SYNOPSIS, DESCRIPTION, COMMANDS (each command's
// arguments and options), OPTIONS, EXIT STATUS, SEE ALSO.
void write_man_page(const CLI::App& app, const char* version, std::ostream& out);

// A bash script defining _tsunagi and `complete -F _tsunagi tsunagi`: commands, each
// command's options, scenario files (*.toml) for SCENARIO, directories for DIR.
void write_bash_completion(const CLI::App& app, std::ostream& out);

}  // namespace tsunagi::app
