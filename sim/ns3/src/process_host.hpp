// The adapter between one core process and ns-3: its sockets, timers and command loop.
//
// Every ns-3 callback (a socket readable, a connection up, a timer) becomes one Input, handed to
// the shared runner::ProcessDriver: the commands the core answers with are performed at once,
// in order, and inputs that arise meanwhile (a refusal known at once, a callback ns-3 makes
// from inside a socket call) wait in its queue, so the core never re-enters itself.
// Connections live in host_streams.cpp, RTT and throughput probes in host_probes.cpp.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>

#include <ns3/address.h>
#include <ns3/event-id.h>
#include <ns3/ipv4-address.h>
#include <ns3/ptr.h>
#include <ns3/socket.h>

namespace ns3 {
class Packet;
class TcpHeader;
class TcpSocketBase;
}  // namespace ns3

#include "tsunagi/runner/driver/driven_process.hpp"
#include "world.hpp"

namespace tsunagi::sim::ns3 {

class ProcessHost : public runner::DrivenProcess<ProcessHost> {
 public:
  ProcessHost(World& world, int index, std::unique_ptr<Process> core);
  ~ProcessHost();
  ProcessHost(const ProcessHost&) = delete;
  ProcessHost& operator=(const ProcessHost&) = delete;

  // At time 0: opens the listening sockets and delivers StartedInput.
  void start();
  // The process exits now (its own ExitCmd, a failure, or the backend stopping it).
  void stop(const ExitCmd& exit);
  // The target of throughput probe `probe` received its last byte now.
  void on_bulk_arrived(std::uint64_t probe, bool ok);
  std::uint32_t node_id() const { return self_.node->GetId(); }

  // The commands tsunagi::perform_commands calls (DrivenProcess does trace and report), each
  // beside its part of the adapter, and the clock they run by.
  TimeNs now() const;
  // The process's timers are the driver's one queue (driven_process.hpp): one ns-3 event at a
  // time wakes it at the earliest deadline.
  void wake_at(TimeNs at);
  void on_world_timer(const runner::DueTimer& timer);  // a [[faults]] kill
  void compute(const ComputeCmd& cmd);
  void exit_process(const ExitCmd& exit) { stop(exit); }
  void apply_window(const SetWindowCmd& cmd);

 private:
  using SocketPtr = ::ns3::Ptr<::ns3::Socket>;

  // ------------------------------------------------ the loop (process_host.cpp)
  void on_wake();
  void on_compute_done(std::uint64_t task);
  // Where to reach process `target`: its address, or loopback when it runs on this node.
  ::ns3::Ipv4Address address_of(int target) const;
  SocketPtr new_tcp_socket();
  // host_windows.cpp (issue 15): socket buffers in bytes, 0 = leave that one as it is.
  static void size_buffers(const SocketPtr& socket, std::uint64_t send, std::uint64_t recv);
  // This site's stack on a socket to or from cluster `peer` (-1: unknown): window scaling, SACK
  // and its buffers towards that cluster. A listener gets scaling and SACK only, and keeps them
  // through every SYN it reads (tcp_socket.hpp).
  void apply_site_stack(const SocketPtr& socket, int peer, bool listener = false) const;
  // Only the buffers towards cluster `peer`: an accepted connection keeps the options its
  // handshake agreed on (setting them after it would pair a scaled window with a scale never
  // exchanged).
  void size_site_buffers(const SocketPtr& socket, int peer) const;

  // ------------------------------------------------ connections (host_streams.cpp)
 public:
  // `window`: the core sized the connection before connecting (the driver kept it).
  void open_connection(const ConnectCmd& cmd, const SetWindowCmd* window);
  bool has_connection(ConnId id) const { return conns_.count(id) != 0; }
  void send(SendCmd& cmd);
  // Simulated connections hold no descriptor: a refused one closes like any other.
  void close(ConnId id, bool refused = false);

 private:
  enum class ConnState : std::uint8_t { Connecting, Open, Closing };
  struct Chunk {  // one SendCmd: its bytes, then `zeros` filler bytes
    Bytes bytes;
    std::uint64_t zeros = 0;
    std::uint64_t written = 0;  // handed to the socket so far
  };
  struct Conn {
    SocketPtr socket;
    ConnState state = ConnState::Connecting;
    std::deque<Chunk> queue;  // not yet accepted by the socket's send buffer
    std::uint64_t attempt = 0;
  };
  void open_listeners();
  void on_connected(SocketPtr socket);
  void on_connect_error(SocketPtr socket);
  void on_segment(::ns3::Ptr<const ::ns3::Packet> packet, const ::ns3::TcpHeader& header,
                  ::ns3::Ptr<const ::ns3::TcpSocketBase> socket);
  void refuse_connect(ConnId id, std::uint64_t attempt);
  void give_up_connect(ConnId id, std::uint64_t attempt);
  void fail_connect(ConnId id, ConnectFailure reason);
  bool accept_request(SocketPtr listener, const ::ns3::Address& from);
  void on_accept(SocketPtr socket, const ::ns3::Address& from);
  void on_readable(SocketPtr socket);
  void on_writable(SocketPtr socket, std::uint32_t space);
  void on_normal_close(SocketPtr socket);
  void on_error_close(SocketPtr socket);
  void on_peer_gone(SocketPtr socket);
  void close_all();
  void pump(ConnId id, Conn& conn);
  void watch(ConnId id, const SocketPtr& socket);
  // Forgets the connection; the socket (if still open) is closed without telling anyone.
  void release(ConnId id, bool close_socket);
  ConnId conn_of(const SocketPtr& socket) const;

  // ------------------------------------------------ probes (host_probes.cpp)
 public:
  void start_rtt_probe(const ProbeRttCmd& cmd);
  void abandon_rtt_probe(std::uint64_t id);          // its deadline passed (the driver's)
  void on_route_echo(std::uint64_t id, TimeNs rtt);  // [ns3] rtt_probe = "route"
  void start_throughput_probe(const ProbeThroughputCmd& cmd);

 private:
  struct Probe {               // one echo in flight
    std::uint32_t sample = 0;  // the core's number of the echo, in its ping and pong
    TimeNs sent_at = 0;
  };
  struct BulkOut {
    SocketPtr socket;
    std::uint64_t bytes = 0;    // the probe's payload
    std::uint64_t written = 0;  // header + payload handed to the socket so far
    TimeNs started = -1;        // when the connection was up and the first byte written
    bool finished = false;
  };
  struct BulkIn {
    SocketPtr socket;
    std::uint64_t received = 0;  // header and payload bytes so far
    Bytes header;
    int prober = -1;
    std::uint64_t probe = 0;
    std::uint64_t bytes = 0;
  };
  void on_datagram(SocketPtr socket);
  void on_bulk_connected(SocketPtr socket);
  void on_bulk_failed(SocketPtr socket);
  void pump_bulk(SocketPtr socket, std::uint32_t space);
  void on_bulk_accept(SocketPtr socket, const ::ns3::Address& from);
  void on_bulk_readable(SocketPtr socket);
  std::uint64_t bulk_probe_of(const SocketPtr& socket) const;

  World& world_;
  const int index_;
  NodeSlot& self_;

  SocketPtr listener_;
  SocketPtr udp_;
  SocketPtr bulk_listener_;
  std::map<ConnId, Conn> conns_;
  ::ns3::EventId wake_;                         // the one pending wake-up of the driver's timers
  std::map<::ns3::Socket*, ConnId> by_socket_;  // looked up only
  std::uint64_t connect_attempts_ = 0;
  std::map<std::uint64_t, Probe> probes_;
  std::map<std::uint64_t, BulkOut> bulk_out_;                // by probe id
  std::map<::ns3::Socket*, std::uint64_t> bulk_out_socket_;  // socket -> probe id
  std::map<::ns3::Socket*, BulkIn> bulk_in_;
};

}  // namespace tsunagi::sim::ns3
