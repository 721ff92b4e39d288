// Factories for the roles a backend runs. Backends create processes only through these, so
// they never depend on a role's internals.
#pragma once

#include <memory>

#include "tsunagi/model/io.hpp"

namespace tsunagi {

// An application process (a rank): registration, inference, overlay, workload.
std::unique_ptr<Process> make_node();
// The bootstrap server: registration, directory, coordination of inference.
std::unique_ptr<Process> make_rendezvous();
// A relay daemon (paper 001's ssockd): registers with the rendezvous, connects to every other
// relay it can reach, floods link-state adverts and forwards traffic between LANs for the nodes
// of its site that attach to it. Started with rank = kNoRank and its site label.
std::unique_ptr<Process> make_relay();

}  // namespace tsunagi
