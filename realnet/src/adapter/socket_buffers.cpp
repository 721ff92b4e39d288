// SO_SNDBUF / SO_RCVBUF past the host's caps when allowed, the advertised window, the bytes a
// sender holds (socket_buffers.hpp).
#include "socket_buffers.hpp"

#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <algorithm>
#include <limits>

namespace tsunagi::realnet {
namespace {

int as_option(std::uint64_t bytes) {
  return static_cast<int>(std::min<std::uint64_t>(
      bytes, static_cast<std::uint64_t>(std::numeric_limits<int>::max() / 2)));
}

bool set_buffer(int fd, int force_option, int option, std::uint64_t bytes) {
  if (bytes == 0) return true;
  const int value = as_option(bytes);
  if (setsockopt(fd, SOL_SOCKET, force_option, &value, sizeof value) == 0) return true;
  return setsockopt(fd, SOL_SOCKET, option, &value, sizeof value) == 0;
}

}  // namespace

bool size_socket_buffers(int fd, std::uint64_t send_bytes, std::uint64_t recv_bytes) {
  const bool send_ok = set_buffer(fd, SO_SNDBUFFORCE, SO_SNDBUF, send_bytes);
  const bool recv_ok = set_buffer(fd, SO_RCVBUFFORCE, SO_RCVBUF, recv_bytes);
  if (recv_bytes > 0) {
    // Not fatal when refused (not a TCP socket): the buffer alone then bounds the window.
    const int clamp = as_option(recv_bytes);
    setsockopt(fd, IPPROTO_TCP, TCP_WINDOW_CLAMP, &clamp, sizeof clamp);
  }
  return send_ok && recv_ok;
}

std::uint64_t unacknowledged_bytes(int fd) {
  int bytes = 0;
  if (ioctl(fd, SIOCOUTQ, &bytes) != 0 || bytes < 0) return 0;
  return static_cast<std::uint64_t>(bytes);
}

}  // namespace tsunagi::realnet
