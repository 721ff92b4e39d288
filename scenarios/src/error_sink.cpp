// Collecting the errors of one scenario load (error_sink.hpp).
#include "error_sink.hpp"

#include <algorithm>
#include <tuple>

namespace tsunagi::scenario {
namespace {

thread_local ErrorSink* current_sink = nullptr;

// File positions in reading order; errors in --set overrides (line 0) after them.
auto order_key(const ScenarioError& error) {
  return std::tuple{error.line() <= 0, error.line(), error.column()};
}

}  // namespace

ErrorSink::ErrorSink() : previous_(current_sink) {
  current_sink = this;
}

ErrorSink::~ErrorSink() {
  current_sink = previous_;
}

ErrorSink* ErrorSink::current() {
  return current_sink;
}

void ErrorSink::throw_if_any() const {
  if (errors_.empty()) return;
  if (errors_.size() == 1) throw errors_.front();
  std::vector<ScenarioError> sorted = errors_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return order_key(a) < order_key(b); });
  throw ScenarioErrors(std::move(sorted), kMaxListedErrors);
}

}  // namespace tsunagi::scenario
