// The values an option takes, named once where the option is defined and read back by --help,
// the man page and the bash completion (issue 33: `--backend <TAB>` lists the backends).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tsunagi::app {

// Names `words` in the option's type name ("TEXT:{simgrid,ns3,realnet}") without checking the
// value: the command checks it itself, with a message that says what to do instead (CLI11's
// IsMember would answer with its bare "not in {...}").
CLI::Validator choices(const std::vector<std::string>& words);

// The words choices() (or CLI11's IsMember) put in the option's type name; empty if none.
std::vector<std::string> choices_of(const CLI::Option& option);

}  // namespace tsunagi::app
