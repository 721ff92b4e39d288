// tsunagi-rendezvous: the bootstrap server of a realnet run (registration, directory,
// combination of the nodes' switch views).
#include "daemon.hpp"

int main(int argc, char** argv) {
  return tsunagi::realnet::daemon_main(argc, argv, tsunagi::realnet::Role::Rendezvous);
}
