// Whole-document steps that run before any value is read: applying --set overrides, then
// checking that every key is one the format knows, in a place where it belongs.
#pragma once

#include <string>
#include <vector>

#include <toml++/toml.h>

namespace tsunagi::scenario {

// Parses TOML text; syntax errors become ScenarioErrors at the parser's position.
toml::table parse_document(const std::string& text, const std::string& file);

// Applies "dotted.key=value" overrides in order (see loader.hpp for the syntax); an override
// "costs-file:PATH" (kCostsFileOverride) overlays a costs file there instead.
void apply_overrides(toml::table& document, const std::vector<std::string>& overrides);

// The text of a scenario (or costs) file: regular files of a sane size only (loader.cpp).
std::string read_scenario_text(const std::string& path);

// Overlays a `--costs FILE` on the document (costs_file.cpp): [protocol.costs] and
// [network.factors] only; anything else is an error at its place in the file.
void apply_costs_file(toml::table& document, const std::string& path);

// Every unknown key and table/value mix-up, into the thread's ErrorSink (without one, throws
// the first found).
void check_shape(const toml::table& document, const std::string& file);

}  // namespace tsunagi::scenario
