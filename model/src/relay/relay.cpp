// PLACEHOLDER until the relay role lands (issue 6): a relay that says it is not built and exits.
// It exists only so backends can spawn relays while the role is being written.
#include "tsunagi/model/roles.hpp"

namespace tsunagi {
namespace {

class NotBuiltRelay final : public Process {
 public:
  void handle(const Input& input) override {
    if (std::holds_alternative<StartedInput>(input.event))
      emit(ExitCmd{false, "the relay role is not built yet (issue 6)"});
  }
};

}  // namespace

std::unique_ptr<Process> make_relay() { return std::make_unique<NotBuiltRelay>(); }

}  // namespace tsunagi
