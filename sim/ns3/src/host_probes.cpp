// RTT probes over UDP echo, throughput probes as bulk TCP transfers.
//
// RTT: one ping of `bytes` UDP payload per ProbeRttCmd to the target's probe port (its TCP
// port + kProbePortOffset); the target's adapter echoes it itself, without waking its core
// (like a kernel's echo service), so a busy process answers as fast as an idle one. The RTT runs
// from sending the ping to receiving the pong. An exited target no longer answers: the echo's
// deadline (kept by the shared driver) reports it lost, and the core's sampler decides what
// follows (model/include/tsunagi/model/topology/rtt_sampler.hpp).
//
// Throughput: a TCP connection to the target's bulk port carries a 24-byte header (prober,
// probe id, size) and then `bytes` zero bytes. Elapsed time runs from the moment the connection
// is up and the first byte is written (the handshake is not part of the transfer, as in iperf)
// to the arrival of the last byte at the target, whose adapter tells the prober's at once.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include <ns3/inet-socket-address.h>
#include <ns3/packet.h>
#include <ns3/simulator.h>
#include <ns3/udp-socket-factory.h>

#include "process_host.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

namespace {

// The same datagrams as realnet's (asio_probes.cpp), so one dissector reads both.
constexpr std::uint8_t kPing = 'P';
constexpr std::uint8_t kPong = 'Q';
constexpr std::uint32_t kProbeHeader = 13;  // type, probe id, sample
constexpr std::uint64_t kBulkHeader = 24;   // prober index, probe id, size

void put_le(std::uint8_t* out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<std::uint8_t>(value >> (8 * i));
}
std::uint64_t get_le(const std::uint8_t* in, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= std::uint64_t{in[i]} << (8 * i);
  return value;
}

}  // namespace

void ProcessHost::start_rtt_probe(const ProbeRttCmd& cmd) {
  const int target = world_.find(cmd.to);
  if (target < 0) return rtt_measured(cmd.probe, 0, false);
  if (const TimeNs rtt = world_.route_rtt(index_, target, cmd.bytes); rtt >= 0) {
    // Read off the route (as SimGrid's route probes); the echo still takes one round trip, and
    // an exited target answers nothing (the driver's deadline says so).
    if (!world_.exited(target))
      n3::Simulator::Schedule(n3::NanoSeconds(rtt), &ProcessHost::on_route_echo, this, cmd.probe,
                              rtt);
    return;
  }
  Probe& probe = probes_[cmd.probe];
  probe.sample = cmd.sample;
  probe.sent_at = now();
  const std::uint32_t bytes = std::max(cmd.bytes, kProbeHeader);
  Bytes payload(bytes, 0);
  payload[0] = kPing;
  put_le(&payload[1], cmd.probe, 8);
  put_le(&payload[9], cmd.sample, 4);
  udp_->SendTo(n3::Create<n3::Packet>(payload.data(), bytes), 0,
               n3::InetSocketAddress(
                   address_of(target),
                   static_cast<std::uint16_t>(world_.slot(target).port + kProbePortOffset)));
}

void ProcessHost::abandon_rtt_probe(std::uint64_t id) {
  probes_.erase(id);
}

void ProcessHost::on_route_echo(std::uint64_t id, TimeNs rtt) {
  if (!driver_.exited()) rtt_measured(id, rtt, true);
}

void ProcessHost::on_datagram(SocketPtr socket) {
  n3::Address from;
  while (n3::Ptr<n3::Packet> packet = socket->RecvFrom(from)) {
    const std::uint32_t size = packet->GetSize();
    if (size < kProbeHeader) continue;
    Bytes payload(size);
    packet->CopyData(payload.data(), size);
    if (payload[0] == kPing) {
      if (driver_.exited()) continue;
      payload[0] = kPong;
      socket->SendTo(n3::Create<n3::Packet>(payload.data(), size), 0, from);
      continue;
    }
    const std::uint64_t id = get_le(&payload[1], 8);
    const auto sample = static_cast<std::uint32_t>(get_le(&payload[9], 4));
    auto it = probes_.find(id);
    // A pong of an echo given up on (or of an earlier probe with this id) is ignored.
    if (payload[0] != kPong || it == probes_.end() || it->second.sample != sample) continue;
    const TimeNs rtt = now() - it->second.sent_at;
    probes_.erase(it);
    rtt_measured(id, rtt, true);
  }
}

// ------------------------------------------------------------------ throughput probes

void ProcessHost::start_throughput_probe(const ProbeThroughputCmd& cmd) {
  // An exited target's closed port answers with a reset, which ns-3 3.37 ignores while
  // connecting (host_streams.cpp): the probe fails at once, as SimGrid's does.
  const int target = world_.table().live_process_at(cmd.to);
  if (target < 0) return throughput_measured(cmd.probe, cmd.bytes, 0, false);
  SocketPtr socket = new_tcp_socket();
  // Like iperf: this site's stack, with -w `window` when the core gave one (the sink listens
  // with kProbeSinkBuffer, so the sender's buffer bounds the bytes in flight).
  apply_site_stack(socket, world_.slot(target).cluster);
  if (cmd.window > 0) size_buffers(socket, cmd.window, cmd.window);
  socket->Bind();
  BulkOut& bulk = bulk_out_[cmd.probe];
  bulk.socket = socket;
  bulk.bytes = cmd.bytes;
  bulk_out_socket_[n3::PeekPointer(socket)] = cmd.probe;
  socket->SetConnectCallback(n3::MakeCallback(&ProcessHost::on_bulk_connected, this),
                             n3::MakeCallback(&ProcessHost::on_bulk_failed, this));
  socket->SetCloseCallbacks(n3::MakeCallback(&ProcessHost::on_bulk_failed, this),
                            n3::MakeCallback(&ProcessHost::on_bulk_failed, this));
  socket->SetSendCallback(n3::MakeCallback(&ProcessHost::pump_bulk, this));
  socket->Connect(n3::InetSocketAddress(
      address_of(target), static_cast<std::uint16_t>(world_.slot(target).port + kBulkPortOffset)));
}

std::uint64_t ProcessHost::bulk_probe_of(const SocketPtr& socket) const {
  auto it = bulk_out_socket_.find(n3::PeekPointer(socket));
  return it == bulk_out_socket_.end() ? std::numeric_limits<std::uint64_t>::max() : it->second;
}

void ProcessHost::on_bulk_connected(SocketPtr socket) {
  auto it = bulk_out_.find(bulk_probe_of(socket));
  if (it == bulk_out_.end()) return;
  it->second.started = now();
  std::array<std::uint8_t, kBulkHeader> header{};
  put_le(&header[0], static_cast<std::uint64_t>(index_), 8);
  put_le(&header[8], it->first, 8);
  put_le(&header[16], it->second.bytes, 8);
  socket->Send(n3::Create<n3::Packet>(header.data(), kBulkHeader));
  it->second.written = kBulkHeader;
  pump_bulk(socket, socket->GetTxAvailable());
}

void ProcessHost::pump_bulk(SocketPtr socket, std::uint32_t) {
  auto it = bulk_out_.find(bulk_probe_of(socket));
  if (it == bulk_out_.end() || it->second.started < 0) return;
  BulkOut& bulk = it->second;
  const std::uint64_t total = kBulkHeader + bulk.bytes;
  while (bulk.written < total) {
    const std::uint32_t space = socket->GetTxAvailable();
    if (space == 0) return;
    const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(space, total - bulk.written));
    if (socket->Send(n3::Create<n3::Packet>(n)) < 0) return;
    bulk.written += n;
  }
}

// The connection failed or ended before the target had every byte.
void ProcessHost::on_bulk_failed(SocketPtr socket) {
  const std::uint64_t id = bulk_probe_of(socket);
  if (bulk_out_.count(id) == 0) return;
  on_bulk_arrived(id, false);
}

void ProcessHost::on_bulk_arrived(std::uint64_t probe, bool ok) {
  auto it = bulk_out_.find(probe);
  if (it == bulk_out_.end()) return;
  BulkOut bulk = it->second;
  bulk_out_.erase(it);
  bulk_out_socket_.erase(n3::PeekPointer(bulk.socket));
  bulk.socket->SetCloseCallbacks(n3::MakeNullCallback<void, SocketPtr>(),
                                 n3::MakeNullCallback<void, SocketPtr>());
  bulk.socket->SetConnectCallback(n3::MakeNullCallback<void, SocketPtr>(),
                                  n3::MakeNullCallback<void, SocketPtr>());
  bulk.socket->SetSendCallback(n3::MakeNullCallback<void, SocketPtr, std::uint32_t>());
  bulk.socket->Close();
  const TimeNs elapsed = ok ? now() - bulk.started : 0;
  throughput_measured(probe, bulk.bytes, elapsed, ok);
}

void ProcessHost::on_bulk_accept(SocketPtr socket, const n3::Address&) {
  bulk_in_[n3::PeekPointer(socket)].socket = socket;
  socket->SetRecvCallback(n3::MakeCallback(&ProcessHost::on_bulk_readable, this));
  if (socket->GetRxAvailable() > 0) on_bulk_readable(socket);
}

void ProcessHost::on_bulk_readable(SocketPtr socket) {
  auto it = bulk_in_.find(n3::PeekPointer(socket));
  if (it == bulk_in_.end()) return;
  BulkIn& in = it->second;
  while (n3::Ptr<n3::Packet> packet = socket->Recv()) {
    const std::uint32_t size = packet->GetSize();
    if (size == 0) break;
    if (in.header.size() < kBulkHeader) {
      const auto take =
          static_cast<std::uint32_t>(std::min<std::uint64_t>(size, kBulkHeader - in.header.size()));
      Bytes head(size);
      packet->CopyData(head.data(), size);
      in.header.insert(in.header.end(), head.begin(), head.begin() + take);
      if (in.header.size() == kBulkHeader) {
        in.prober = static_cast<int>(get_le(&in.header[0], 8));
        in.probe = get_le(&in.header[8], 8);
        in.bytes = get_le(&in.header[16], 8);
      }
    }
    in.received += size;
  }
  if (in.header.size() < kBulkHeader || in.received < kBulkHeader + in.bytes) return;
  const BulkIn done = in;
  bulk_in_.erase(it);
  socket->SetRecvCallback(n3::MakeNullCallback<void, SocketPtr>());
  socket->Close();
  ProcessHost* prober = world_.slot(done.prober).process;
  if (prober != nullptr && !driver_.exited()) prober->on_bulk_arrived(done.probe, true);
}

}  // namespace tsunagi::sim::ns3
