// SO_SNDBUF / SO_RCVBUF, past the host's caps when allowed (socket_buffers.hpp).
#include "socket_buffers.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <limits>

namespace tsunagi::realnet {
namespace {

bool set_buffer(int fd, int force_option, int option, std::uint64_t bytes) {
  if (bytes == 0) return true;
  const int value = static_cast<int>(std::min<std::uint64_t>(
      bytes, static_cast<std::uint64_t>(std::numeric_limits<int>::max() / 2)));
  if (setsockopt(fd, SOL_SOCKET, force_option, &value, sizeof value) == 0) return true;
  return setsockopt(fd, SOL_SOCKET, option, &value, sizeof value) == 0;
}

}  // namespace

bool size_socket_buffers(int fd, std::uint64_t send_bytes, std::uint64_t recv_bytes) {
  const bool send_ok = set_buffer(fd, SO_SNDBUFFORCE, SO_SNDBUF, send_bytes);
  const bool recv_ok = set_buffer(fd, SO_RCVBUFFORCE, SO_RCVBUF, recv_bytes);
  return send_ok && recv_ok;
}

}  // namespace tsunagi::realnet
