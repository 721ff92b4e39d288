// Did-you-mean for mistyped command-line words: `tsunagi rnu` -> run, `--backnd` -> --backend.
// Pure: no CLI11, so the unit tests check it on a table of typos.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tsunagi::app {

// Edits (insert, delete, substitute, swap two neighbours) from a to b: the optimal string
// alignment variant of Damerau-Levenshtein. A swap counts as one edit, so "rnu" is one edit
// from "run" where plain Levenshtein says two.
std::size_t typo_distance(std::string_view a, std::string_view b);

// The candidates `word` is most likely a typo of, in the candidates' order: those at the
// smallest distance, when it is at most 2 edits and at most half the word (so "xy" suggests
// nothing); else those `word` is a prefix of (3 characters at least: "comp" -> compare).
// Empty when nothing is close. Callers pass whole option names ("--backnd"); the leading
// dashes are compared but do not count in the word's length, so "-x" suggests nothing.
std::vector<std::string> suggest(std::string_view word, const std::vector<std::string>& candidates);

// "did you mean 'run'?", "did you mean 'run' or 'report'?", or "" for no suggestions.
std::string did_you_mean(const std::vector<std::string>& suggestions);

}  // namespace tsunagi::app
