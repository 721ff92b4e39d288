// tsunagi-relay: one relay daemon of the relay plan (paper 001) over real TCP.
#include "daemon.hpp"

int main(int argc, char** argv) {
  return tsunagi::realnet::daemon_main(argc, argv, tsunagi::realnet::Role::Relay);
}
