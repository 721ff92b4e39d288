#include "cli_suggest.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tsunagi::app {

std::size_t typo_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: a swap looks two rows back.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string> suggest(std::string_view word,
                                 const std::vector<std::string>& candidates) {
  const std::size_t letters = word.size() - std::min(word.find_first_not_of('-'), word.size());
  std::size_t best = std::numeric_limits<std::size_t>::max();
  std::vector<std::string> nearest;
  for (const std::string& candidate : candidates) {
    const std::size_t d = typo_distance(word, candidate);
    if (d == 0 || d > 2 || 2 * d > letters) continue;
    if (d < best) best = d, nearest.clear();
    if (d == best) nearest.push_back(candidate);
  }
  if (!nearest.empty() || letters < 3) return nearest;
  for (const std::string& candidate : candidates)
    if (candidate.size() > word.size() && candidate.starts_with(word)) nearest.push_back(candidate);
  return nearest;
}

std::string did_you_mean(const std::vector<std::string>& suggestions) {
  if (suggestions.empty()) return "";
  std::string text = "did you mean ";
  for (std::size_t i = 0; i < suggestions.size(); ++i) {
    if (i > 0) text += i + 1 == suggestions.size() ? " or " : ", ";
    text += "'" + suggestions[i] + "'";
  }
  return text + "?";
}

}  // namespace tsunagi::app
