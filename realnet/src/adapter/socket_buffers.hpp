// Socket buffers a connection is given (issue 15): SO_SNDBUF / SO_RCVBUF on a TCP socket.
#pragma once

#include <cstdint>

namespace tsunagi::realnet {

// Sets the send and receive buffers of socket `fd` to these byte counts (0 = leave it at the
// stack's default, net.ipv4.tcp_wmem / tcp_rmem with autotuning). The *FORCE options go past
// the host-wide net.core.wmem_max / rmem_max caps when the process may (CAP_NET_ADMIN), so no
// host-wide setting has to change; otherwise the capped SO_SNDBUF / SO_RCVBUF is used. Linux
// doubles the value for its bookkeeping and advertises about that much window. Returns false
// when even the plain option failed.
bool size_socket_buffers(int fd, std::uint64_t send_bytes, std::uint64_t recv_bytes);

}  // namespace tsunagi::realnet
