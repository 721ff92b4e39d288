// A core for the adapter's tests: it runs a script that sees every input and may emit
// commands. Used by adapter_test.cpp and adapter_probe_auth_test.cpp.
#pragma once

#include <functional>
#include <utility>

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

}  // namespace tsunagi::realnet_test
