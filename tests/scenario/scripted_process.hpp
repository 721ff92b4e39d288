// Hand-written processes that drive the SimGrid backend in tests, before (and independently
// of) the protocol core: each reacts to inputs with a test-supplied function and records every
// input it gets.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/scenarios/scenario.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"

namespace tsunagi::test {

class ScriptedProcess;
using Script = std::function<void(ScriptedProcess& self, const Input& input)>;

class ScriptedProcess : public Process {
 public:
  ScriptedProcess(Script script, std::vector<Input>* record)
      : script_(std::move(script)), record_(record) {}

  void handle(Input& input) override;
  void command(Command command) { emit(std::move(command)); }

  Rank rank() const { return rank_; }
  const Endpoint& self() const { return self_; }

 private:
  Script script_;
  std::vector<Input>* record_;
  Rank rank_ = kNoRank;
  Endpoint self_;
};

// Runs `scenario` with the given scripts (processes without a script, the rendezvous too, exit
// at once) and keeps what every process received.
struct ScriptedRun {
  std::map<Rank, Script> scripts;  // kNoRank = the rendezvous
  std::map<Rank, std::vector<Input>> inputs;
  bool record = true;  // false: keep no inputs (scale runs)
  runner::RunSummary summary;

  void run(const scenario::Scenario& scenario, runner::RunObserver& observer);

  // The inputs of `rank` holding an event of type T, in order.
  template <class T>
  std::vector<std::pair<TimeNs, T>> of(Rank rank) const {
    std::vector<std::pair<TimeNs, T>> found;
    auto it = inputs.find(rank);
    if (it == inputs.end()) return found;
    for (const Input& input : it->second)
      if (const T* event = std::get_if<T>(&input.event)) found.emplace_back(input.now, *event);
    return found;
  }
};

// Endpoint of rank r in a one-process-per-host scenario: "<host>:0".
Endpoint endpoint_of(const scenario::Scenario& scenario, Rank rank);

// Seconds to nanoseconds, for expected times written in microseconds.
constexpr double us(double microseconds) {
  return microseconds * 1e3;
}

}  // namespace tsunagi::test
