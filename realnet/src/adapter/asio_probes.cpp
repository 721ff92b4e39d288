// Measurements: RTT echoes over UDP (one ping per ProbeRttCmd; how many, how long to wait and
// what after a loss are the core's, model/include/tsunagi/model/topology/rtt_sampler.hpp) and
// throughput probes as real bulk TCP transfers to the target's sink, timed until the sink
// confirms the last byte.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "asio_process.hpp"
#include "probe_auth.hpp"
#include "socket_buffers.hpp"

namespace tsunagi::realnet {
namespace {

constexpr std::uint8_t kPing = 'P';
constexpr std::uint8_t kPong = 'Q';
// kind, probe id, sample number, the probe's nonce (probe_auth.hpp): a pong that does not echo
// the nonce is not an answer to this ping, whatever probe id and number it names.
constexpr std::size_t kNonceAt = 1 + 8 + 4;
constexpr std::size_t kPingHeader = kNonceAt + kProbeNonceSize;
// The largest ping: the core asks for 64 bytes (ProbeRttCmd). The echo answers only pings of
// this format — at most this size, zeros after the header — so it cannot be used to reflect
// large datagrams at a third party whose address a sender forged (docs/security.md).
constexpr std::size_t kMaxPingBytes = 64;
constexpr std::uint8_t kBulkAck = 'A';
constexpr std::size_t kBulkChunk = 4 << 20;  // zeros handed to one async_write

void put_u64(std::uint8_t* at, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) at[i] = static_cast<std::uint8_t>(value >> (8 * i));
}
std::uint64_t get_u64(const std::uint8_t* at) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= std::uint64_t{at[i]} << (8 * i);
  return value;
}

// A ping we would send: header, then zeros, kMaxPingBytes at most.
bool well_formed_ping(const std::vector<std::uint8_t>& datagram, std::size_t size) {
  if (size < kPingHeader || size > kMaxPingBytes || datagram[0] != kPing) return false;
  return std::all_of(datagram.begin() + kPingHeader,
                     datagram.begin() + static_cast<std::ptrdiff_t>(size),
                     [](std::uint8_t b) { return b == 0; });
}

// A bulk transfer's state, shared by its handlers.
struct BulkSend {
  explicit BulkSend(asio::io_context& io) : socket(io), pause(io) {}
  tcp::socket socket;
  asio::steady_timer pause;  // waiting for acknowledgements under a window
  std::uint64_t probe = 0;
  std::uint64_t bytes = 0;
  std::uint64_t window = 0;  // most bytes unacknowledged at once; 0 = the kernel decides
  std::uint64_t sent = 0;
  SteadyClock::time_point started;
  std::array<std::uint8_t, 1 + kBulkHeaderSize> header{};  // purpose byte, then probe_auth.hpp
  std::uint8_t ack = 0;
  std::vector<std::uint8_t> zeros;
};

struct BulkSink {
  std::shared_ptr<tcp::socket> socket;
  std::uint64_t expected = 0;
  std::uint64_t received = 0;
  std::uint8_t ack = kBulkAck;
};

}  // namespace

void AsioProcess::receive_datagram() {
  udp_.async_receive_from(asio::buffer(datagram_), datagram_from_,
                          [this](const boost::system::error_code& error, std::size_t size) {
                            if (shut_down_ || error == asio::error::operation_aborted) return;
                            if (!error) on_datagram(size);
                            receive_datagram();
                          });
}

void AsioProcess::on_datagram(std::size_t size) {
  if (size < kPingHeader) return;
  if (datagram_[0] == kPing) {
    if (!well_formed_ping(datagram_, size)) return;  // not ours: never echoed
    // A process that has exited answers no ping, as on the simulators: the echo is lost.
    if (driver_.exited()) return;
    // The echo: answered at once.
    auto reply = std::make_shared<std::vector<std::uint8_t>>(
        datagram_.begin(), datagram_.begin() + static_cast<std::ptrdiff_t>(size));
    (*reply)[0] = kPong;
    udp_.async_send_to(asio::buffer(*reply), datagram_from_,
                       [reply](const boost::system::error_code&, std::size_t) {});
    return;
  }
  if (datagram_[0] != kPong) return;
  const TimeNs arrived = now();
  const std::uint64_t id = get_u64(&datagram_[1]);
  std::uint32_t sample = 0;
  std::memcpy(&sample, &datagram_[9], sizeof sample);
  auto it = rtt_probes_.find(id);
  if (it == rtt_probes_.end() || it->second.sample != sample) return;  // late or foreign
  const RttProbe& probe = it->second;
  // Only the target answers for the target: its address and port, and the nonce it was sent
  // (docs/security.md, "Measurements only from the run"). Anything else is dropped unseen.
  if (datagram_from_ != probe.target || size < kPingHeader ||
      !std::equal(probe.nonce.begin(), probe.nonce.end(), datagram_.begin() + kNonceAt))
    return;
  const TimeNs rtt =
      arrived -
      std::chrono::duration_cast<std::chrono::nanoseconds>(probe.sent_at - options_.epoch).count();
  rtt_probes_.erase(it);
  rtt_measured(id, rtt, true);
}

void AsioProcess::start_rtt_probe(const ProbeRttCmd& cmd) {
  tcp::endpoint target;
  try {
    target = parse_tcp_endpoint(cmd.to);
  } catch (const std::invalid_argument&) {
    return rtt_measured(cmd.probe, 0, false);
  }
  // One ping; a lost one is the core's to send again (under a new id and number, so a late
  // answer is not taken for the new one). Its deadline is the shared driver's.
  RttProbe& probe = rtt_probes_[cmd.probe];
  probe.target = udp::endpoint(target.address(), target.port());
  probe.sample = cmd.sample;
  probe.nonce = fresh_probe_nonce();
  const std::uint32_t bytes = std::clamp<std::uint32_t>(cmd.bytes, kPingHeader, kMaxPingBytes);
  auto packet = std::make_shared<std::vector<std::uint8_t>>(bytes, 0);
  (*packet)[0] = kPing;
  put_u64(&(*packet)[1], cmd.probe);
  std::memcpy(&(*packet)[9], &probe.sample, sizeof probe.sample);
  std::copy(probe.nonce.begin(), probe.nonce.end(), packet->begin() + kNonceAt);
  probe.sent_at = SteadyClock::now();
  udp_.async_send_to(asio::buffer(*packet), probe.target,
                     [packet](const boost::system::error_code&, std::size_t) {});
}

void AsioProcess::abandon_rtt_probe(std::uint64_t id) {
  rtt_probes_.erase(id);
}

void AsioProcess::start_throughput_probe(const ProbeThroughputCmd& cmd) {
  tcp::endpoint target;
  try {
    target = parse_tcp_endpoint(cmd.to);
  } catch (const std::invalid_argument&) {
    return throughput_measured(cmd.probe, cmd.bytes, 0, false);
  }
  auto bulk = std::make_shared<BulkSend>(io_);
  bulk->probe = cmd.probe;
  bulk->bytes = cmd.bytes;
  if (cmd.window > 0) {
    // Like iperf -w: the sender's window bounds the bytes in flight (the sink autotunes). The
    // kernel's send buffer does not bound them (Linux doubles it, and measured 1.4-4 x the
    // window in flight), so the writes below also keep at most `window` bytes unacknowledged.
    bulk->window = cmd.window;
    boost::system::error_code ignored;
    bulk->socket.open(target.protocol(), ignored);
    size_socket_buffers(bulk->socket.native_handle(), cmd.window, cmd.window);
  }
  auto fail = [this, bulk] { throughput_measured(bulk->probe, bulk->bytes, 0, false); };
  auto finish = [this, bulk, fail](const boost::system::error_code& error, std::size_t) {
    if (error) return fail();
    const auto elapsed =
        std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now() - bulk->started);
    throughput_measured(bulk->probe, bulk->bytes, elapsed.count(), true);
  };
  // Writes the zeros chunk by chunk, then waits for the sink's one-byte confirmation.
  auto write_more = std::make_shared<std::function<void()>>();
  *write_more = [this, bulk, fail, finish, write_more] {
    if (bulk->sent == bulk->bytes) {
      // Breaks the cycle the lambda holds on itself, once it has returned.
      asio::post(io_, [write_more] { *write_more = nullptr; });
      asio::async_read(bulk->socket, asio::buffer(&bulk->ack, 1), finish);
      return;
    }
    auto chunk =
        static_cast<std::size_t>(std::min<std::uint64_t>(kBulkChunk, bulk->bytes - bulk->sent));
    if (bulk->window > 0) {
      // Room in the window, checked again every millisecond while it is (nearly) full: that
      // costs at most 1 ms of sending per round trip (2.4 % at 42 ms).
      const std::uint64_t held = unacknowledged_bytes(bulk->socket.native_handle());
      const std::uint64_t room = held < bulk->window ? bulk->window - held : 0;
      if (room < std::min<std::uint64_t>(bulk->window / 32, chunk)) {
        bulk->pause.expires_after(std::chrono::milliseconds(1));
        bulk->pause.async_wait([write_more](const boost::system::error_code& error) {
          if (!error && *write_more) (*write_more)();
        });
        return;
      }
      chunk = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, room));
    }
    if (bulk->zeros.size() < chunk) bulk->zeros.assign(chunk, 0);
    asio::async_write(
        bulk->socket, asio::buffer(bulk->zeros.data(), chunk),
        [bulk, fail, write_more](const boost::system::error_code& error, std::size_t n) {
          if (error) {
            *write_more = nullptr;
            return fail();
          }
          bulk->sent += n;
          (*write_more)();
        });
  };
  bulk->socket.async_connect(target, [bulk, fail, write_more, secret = options_.secret](
                                         const boost::system::error_code& error) {
    if (error) {
      *write_more = nullptr;
      return fail();
    }
    boost::system::error_code ignored;
    bulk->socket.set_option(tcp::no_delay(true), ignored);
    bulk->header[0] = kPurposeBulk;
    const BulkHeader proof = make_bulk_header(secret, bulk->bytes);
    std::copy(proof.begin(), proof.end(), bulk->header.begin() + 1);
    bulk->started = SteadyClock::now();  // the transfer starts with its header
    asio::async_write(bulk->socket, asio::buffer(bulk->header),
                      [bulk, fail, write_more](const boost::system::error_code& e, std::size_t) {
                        if (e) {
                          *write_more = nullptr;
                          return fail();
                        }
                        (*write_more)();
                      });
  });
}

// The receiving end of a throughput probe, once its header proved the run's secret
// (on_accepted_socket): reads the announced number of bytes, confirms.
// The bytes are read into the process's one read buffer as they arrive (wait until readable,
// then read), so a sink holds no buffer of its own (docs/security.md).
void AsioProcess::serve_bulk_sink(std::shared_ptr<tcp::socket> socket, std::uint64_t bytes) {
  auto sink = std::make_shared<BulkSink>();
  sink->socket = std::move(socket);
  sink->expected = bytes;
  boost::system::error_code ignored;
  sink->socket->non_blocking(true, ignored);
  auto read_more = std::make_shared<std::function<void()>>();
  *read_more = [this, sink, read_more] {
    if (sink->received >= sink->expected) {
      asio::post(io_, [read_more] { *read_more = nullptr; });  // once this call returned
      asio::async_write(*sink->socket, asio::buffer(&sink->ack, 1),
                        [sink](const boost::system::error_code&, std::size_t) {
                          // Kept open until the prober closes: its FIN ends the exchange.
                          auto rest = std::make_shared<std::uint8_t>();
                          sink->socket->async_read_some(
                              asio::buffer(rest.get(), 1),
                              [sink, rest](const boost::system::error_code&, std::size_t) {});
                        });
      return;
    }
    sink->socket->async_wait(
        tcp::socket::wait_read, [this, sink, read_more](const boost::system::error_code& error) {
          if (error || shut_down_) {
            *read_more = nullptr;
            return;
          }
          const auto want = static_cast<std::size_t>(
              std::min<std::uint64_t>(read_buffer_.size(), sink->expected - sink->received));
          boost::system::error_code e;
          const std::size_t n = sink->socket->read_some(asio::buffer(read_buffer_.data(), want), e);
          if (e && e != asio::error::would_block) {  // the prober went away
            *read_more = nullptr;
            return;
          }
          sink->received += n;
          (*read_more)();
        });
  };
  (*read_more)();
}

}  // namespace tsunagi::realnet
