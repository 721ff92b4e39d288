// Socket buffers and windows a connection is given (issue 15): SO_SNDBUF / SO_RCVBUF and the
// advertised window on a TCP socket, and the bytes a sender still holds.
#pragma once

#include <cstdint>

namespace tsunagi::realnet {

// Sets the send and receive buffers of socket `fd` for windows of these byte counts (0 = leave
// it at the stack's default, net.ipv4.tcp_wmem / tcp_rmem with autotuning). The *FORCE options
// go past the host-wide net.core.wmem_max / rmem_max caps when the process may
// (CAP_NET_ADMIN), so no host-wide setting has to change; otherwise the capped SO_SNDBUF /
// SO_RCVBUF is used. Linux doubles the value for its bookkeeping and then advertises about
// 0.7 of the doubled receive buffer (1.5 x the window asked for, measured at 42 ms with jumbo
// frames), so the receive side is also clamped with TCP_WINDOW_CLAMP: the window the peer
// sees is the one asked for. Returns false when even the plain buffer option failed.
bool size_socket_buffers(int fd, std::uint64_t send_bytes, std::uint64_t recv_bytes);

// Bytes written to TCP socket `fd` and not yet acknowledged by the peer (SIOCOUTQ: unsent plus
// in flight). A sender that keeps this at or below W has at most W bytes in flight — what a
// send window of W means; Linux's send buffer alone does not bound it (docs/realnet.md).
std::uint64_t unacknowledged_bytes(int fd);

}  // namespace tsunagi::realnet
