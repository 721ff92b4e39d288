// A core for the adapter's tests: it runs a script that sees every input and may emit
// commands, and the loop that runs one on a real AsioProcess until it exits. Used by
// adapter_test.cpp and adapter_probe_auth_test.cpp.
#pragma once

#include <boost/asio.hpp>

#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "adapter/asio_process.hpp"
#include "tsunagi/model/io.hpp"

namespace tsunagi::realnet_test {

class ScriptedCore final : public Process {
 public:
  using Script = std::function<void(const Input&, std::function<void(Command)>)>;
  explicit ScriptedCore(Script script) : script_(std::move(script)) {}
  void handle(Input& input) override {
    script_(input, [this](Command command) { emit(std::move(command)); });
  }

 private:
  Script script_;
};

// Runs `script` as the core of one AsioProcess with `options` until the core exits (or 20 s
// pass, which fails the test); returns every input the core saw, in order.
inline std::vector<InputEvent> run_until_exit(ScriptedCore::Script script,
                                              const realnet::AdapterOptions& options) {
  boost::asio::io_context io;
  realnet::EventLog log("/dev/null", "test");
  std::vector<InputEvent> seen;
  realnet::AsioProcess process(io, std::make_unique<ScriptedCore>([&](const Input& in, auto emit) {
                                 seen.push_back(in.event);
                                 script(in, emit);
                               }),
                               options, log);
  process.open();
  process.on_exit = [&](const ExitCmd&) {
    process.shut_down();
    io.stop();
  };
  process.start();
  io.run_for(std::chrono::seconds(20));
  REQUIRE(process.exited());
  return seen;
}

}  // namespace tsunagi::realnet_test
