// tsunagi-node: one application process (a rank) of the protocol over real TCP.
#include "daemon.hpp"

int main(int argc, char** argv) {
  return tsunagi::realnet::daemon_main(argc, argv, tsunagi::realnet::Role::Node);
}
