// Fixture: the core must not open sockets.
#include <sys/socket.h>  // expect-violation: includes <sys/socket.h> (sockets)

int connect_to_peer() {
  return -1;
}
