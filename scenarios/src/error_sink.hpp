// The errors of one scenario load, collected so that a file with several mistakes is reported
// whole (issue 33) instead of one error per run of the program. Readers still throw a
// ScenarioError at the bad value; a typed read (Section::integer, ::bandwidth, ...) catches its
// own and records it here, then goes on with the default, so the next values are checked too.
// Checks that combine values are where errors cascade (a refused `hosts` read as its default
// makes `processes` look too large): they run only while nothing has been refused.
#pragma once

#include <cstddef>
#include <vector>

#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::scenario {

// At most this many errors are listed; the rest are counted ("… and 3 more errors").
inline constexpr std::size_t kMaxListedErrors = 20;

class ErrorSink {
 public:
  // Becomes the sink of this thread's typed reads until destroyed.
  ErrorSink();
  ~ErrorSink();
  ErrorSink(const ErrorSink&) = delete;
  ErrorSink& operator=(const ErrorSink&) = delete;

  // The sink of the load running on this thread, or nullptr (reads then throw as before).
  static ErrorSink* current();

  void add(const ScenarioError& error) { errors_.push_back(error); }
  bool empty() const { return errors_.empty(); }

  // Runs one part of the file that reads on its own (a table and its checks). An error the part
  // throws ends the part and is kept, unless a value it read had already been refused: then it
  // may be that refusal's consequence, and the next run reports it if it is not.
  template <class Part>
  void part(Part&& read) {
    const std::size_t before = errors_.size();
    try {
      read();
    } catch (const ScenarioError& error) {
      if (errors_.size() == before) add(error);
    }
  }

  // Throws what was collected, if anything: the one error as it is, several as ScenarioErrors
  // in file order (overrides last).
  void throw_if_any() const;

 private:
  std::vector<ScenarioError> errors_;
  ErrorSink* previous_;
};

// A typed read's value, or `fallback` when a sink collects its error.
template <class T, class Read>
T recovering(const T& fallback, Read&& read) {
  ErrorSink* sink = ErrorSink::current();
  if (sink == nullptr) return read();
  try {
    return read();
  } catch (const ScenarioError& error) {
    sink->add(error);
    return fallback;
  }
}

}  // namespace tsunagi::scenario
