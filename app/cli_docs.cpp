#include "cli_docs.hpp"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli_choices.hpp"
#include "cli_typos.hpp"
#include "exit_codes.hpp"

namespace tsunagi::app {
namespace {

// Options shown in --help: CLI11 hides those whose group is empty.
std::vector<const CLI::Option*> visible(const CLI::App& command, bool positional) {
  return command.get_options([positional](const CLI::Option* option) {
    return !option->get_group().empty() && option->get_positional() == positional;
  });
}

// CLI11's type name is "FLOAT:FLOAT in [0 - 1e+06]": the name, then the check's words.
std::string value_name(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  return type.substr(0, type.find(':'));
}

std::string value_check(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const std::size_t colon = type.find(':');
  return colon == std::string::npos ? "" : type.substr(colon + 1);
}

// ---------------------------------------------------------------------------- roff

// Text safe in roff: backslashes escaped, a line never starting with a request's '.' or '\'',
// and anything outside ASCII as \[uXXXX] so groff needs no input encoding.
std::string roff(std::string_view text, bool literal_dashes = false) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-' && literal_dashes) {
      out += "\\-";  // a minus sign, so option names can be searched for and pasted
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      // UTF-8: a lead byte says how many continuation bytes follow.
      const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
      unsigned code = c & (0x3Fu >> extra);
      for (int k = 0; k < extra && i + 1 < text.size(); ++k)
        code = (code << 6) | (static_cast<unsigned char>(text[++i]) & 0x3Fu);
      char buffer[16];
      std::snprintf(buffer, sizeof buffer, "\\[u%04X]", code);
      out += buffer;
    }
  }
  return out;
}

// The description as one paragraph: CLI11 descriptions wrap with '\n' for --help.
std::string paragraph(std::string text) {
  for (char& c : text)
    if (c == '\n') c = ' ';
  return roff(text);
}

void write_option(const CLI::Option& option, std::ostream& out) {
  out << ".TP\n";
  std::string head;
  for (const std::string& name : names_of(option))
    head += (head.empty() ? "\\fB" : ", \\fB") + roff(name, true) + "\\fR";
  if (takes_value(option)) head += " \\fI" + roff(value_name(option), true) + "\\fR";
  out << head << "\n" << paragraph(option.get_description());
  const std::string check = value_check(option);
  if (!check.empty()) out << " (" << roff(check) << ")";
  if (!option.get_default_str().empty())
    out << " (default: " << roff(option.get_default_str()) << ")";
  out << "\n";
}

void write_positional(const CLI::Option& option, std::ostream& out) {
  out << ".TP\n\\fI" << roff(option.get_name(), true) << "\\fR"
      << (option.get_required() ? "" : " (optional)") << "\n"
      << paragraph(option.get_description()) << "\n";
}

std::string synopsis_of(const CLI::App& command) {
  std::string line = "\\fBtsunagi " + roff(command.get_name(), true) + "\\fR";
  for (const CLI::Option* option : visible(command, true)) {
    const std::string name = "\\fI" + roff(option->get_name(), true) + "\\fR";
    line += option->get_required() ? " " + name : " [" + name + "]";
  }
  return line + " [\\fIOPTIONS\\fR]";
}

// ---------------------------------------------------------------------------- bash

std::string words(const std::vector<std::string>& list) {
  std::string text;
  for (const std::string& word : list) text += (text.empty() ? "" : " ") + word;
  return text;
}

// What a command's positional arguments complete to: scenario files, directories or files.
std::string positional_kind(const CLI::App& command) {
  for (const CLI::Option* option : visible(command, true)) {
    const std::string name = option->get_name();
    if (name == "SCENARIO") return "scenario";
    if (name.starts_with("DIR")) return "directory";
    if (name == "COMMAND") return "command";
  }
  return "file";
}

// An option with named choices (cli_choices.hpp) completes to them: `run --backend <TAB>`.
void write_choice_cases(const CLI::App& app, std::ostream& out) {
  out << "  case \"$command $prev\" in\n";
  for (const CLI::App* command : commands_of(app))
    for (const CLI::Option* option : visible(*command, false)) {
      const std::vector<std::string> choices = choices_of(*option);
      if (choices.empty()) continue;
      for (const std::string& name : names_of(*option))
        out << "    \"" << command->get_name() << " " << name
            << "\") mapfile -t COMPREPLY < <(compgen -W \"" << words(choices)
            << "\" -- \"$cur\"); return ;;\n";
    }
  out << "  esac\n";
}

}  // namespace

void write_man_page(const CLI::App& app, const char* version, std::ostream& out) {
  out << ".\\\" Generated by `tsunagi help --man` from the program's command-line definitions.\n"
      << ".TH TSUNAGI 1 \"\" \"tsunagi " << roff(version)
      << "\" \"User Commands\"\n"
      // Left-aligned: long defaults (sweep --columns) cannot be stretched to a justified line.
      << ".ad l\n"
      << ".SH NAME\ntsunagi \\- connection-managed message passing, simulated or real\n"
      << ".SH SYNOPSIS\n";
  for (const CLI::App* command : commands_of(app)) out << synopsis_of(*command) << "\n.br\n";
  out << "\\fBtsunagi \\-\\-version\\fR\n"
      << ".SH DESCRIPTION\n"
      << paragraph(app.get_description()) << "\n"
      << ".SH COMMANDS\n";
  for (const CLI::App* command : commands_of(app)) {
    out << ".SS \"tsunagi " << roff(command->get_name(), true) << "\"\n"
        << paragraph(command->get_description()) << "\n";
    for (const CLI::Option* option : visible(*command, true)) write_positional(*option, out);
    for (const CLI::Option* option : visible(*command, false)) write_option(*option, out);
  }
  out << ".SH OPTIONS\n";
  for (const CLI::Option* option : visible(app, false)) write_option(*option, out);
  out << ".SH EXIT STATUS\n"
      << ".TP\n"
      << kExitOk << "\nThe run succeeded; compare: the runs made the same decisions.\n"
      << ".TP\n"
      << kExitFailed << "\nThe run failed; compare: the runs differ.\n"
      << ".TP\n"
      << kExitBadInput << "\nBad arguments, scenario or files; nothing was run.\n"
      << ".SH SEE ALSO\n"
      << "The documentation installed in \\fIshare/doc/tsunagi\\fR beside \\fIshare/man\\fR: "
         "cli.md (this program), scenario\\-format.md (scenario files), result\\-schema.md "
         "(result.json, trace.jsonl). Scenario files are installed in "
         "\\fIshare/tsunagi/scenarios\\fR.\n";
}

void write_bash_completion(const CLI::App& app, std::ostream& out) {
  std::vector<std::string> command_words;
  for (const CLI::App* command : commands_of(app)) command_words.push_back(command->get_name());
  out << "# bash completion for tsunagi. Generated by `tsunagi help --bash-completion` from the\n"
         "# program's command-line definitions: regenerate it, do not edit it.\n"
         "_tsunagi_files() {  # $1: a compgen -X filter for files (directories always listed)\n"
         "  compopt -o filenames 2>/dev/null\n"
         "  if [[ -n $1 ]]; then\n"
         "    mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"; compgen -f -X \"$1\" -- \"$cur\")\n"
         "  else\n"
         "    mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
         "  fi\n"
         "}\n"
         "_tsunagi() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
         "  local command=\"\" i options values positional\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    case ${COMP_WORDS[i]} in\n"
         "      -*) ;;\n"
         "      *) command=${COMP_WORDS[i]}; break ;;\n"
         "    esac\n"
         "  done\n"
         "  case $command in\n";
  std::vector<std::string> app_options;
  for (const CLI::Option* option : visible(app, false))
    for (const std::string& name : names_of(*option)) app_options.push_back(name);
  out << "    \"\") options=\"" << words(app_options) << "\"; values=\"\"; positional=command ;;\n";
  for (const CLI::App* command : commands_of(app)) {
    std::vector<std::string> options, values;
    for (const CLI::Option* option : visible(*command, false))
      for (const std::string& name : names_of(*option)) {
        options.push_back(name);
        if (takes_value(*option)) values.push_back(name);
      }
    out << "    " << command->get_name() << ") options=\"" << words(options) << "\"; values=\""
        << words(values) << "\"; positional=" << positional_kind(*command) << " ;;\n";
  }
  out << "    *) return ;;\n"
         "  esac\n";
  write_choice_cases(app, out);
  out << "  if [[ $cur == -* ]]; then\n"
         "    mapfile -t COMPREPLY < <(compgen -W \"$options\" -- \"$cur\")\n"
         "  elif [[ -n $prev && \" $values \" == *\" $prev \"* ]]; then\n"
         "    _tsunagi_files \"\"  # an option's value: a file or directory more often than not\n"
         "  else\n"
         "    case $positional in\n"
         "      command) mapfile -t COMPREPLY < <(compgen -W \""
      << words(command_words)
      << "\" -- \"$cur\") ;;\n"
         "      scenario) _tsunagi_files '!*.toml' ;;\n"
         "      directory) compopt -o filenames 2>/dev/null;"
         " mapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;\n"
         "      *) _tsunagi_files \"\" ;;\n"
         "    esac\n"
         "  fi\n"
         "}\n"
         "complete -F _tsunagi tsunagi\n";
}

}  // namespace tsunagi::app
