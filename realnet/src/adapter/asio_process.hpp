// The realnet adapter: one core process (node or rendezvous) driven by a Boost.Asio io_context
// over real kernel sockets. It turns the core's commands into socket operations and their
// outcomes into inputs; it decides nothing (docs/backend-contract.md: the core decides,
// backends perform).
//
// Sockets of one process, all on the same address and port number:
//   TCP  listener: protocol connections (first byte 'F') and throughput sinks (first byte 'B');
//   UDP  echo: RTT probe pings ('P') are answered at once, probe replies ('Q') are matched.
// The purpose byte is this adapter's, never seen by the core (docs/realnet.md, "wire").
//
// Time for the core is monotonic nanoseconds since this process's start (`epoch`); the launcher
// aligns the processes' times afterwards from their clock stamps (clock_stamp.hpp).
#pragma once

#include <utility>  // before Boost.Asio: Boost 1.74 with C++20 needs std::exchange declared

#include <boost/asio.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "event_log.hpp"
#include "probe_auth.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/driver/driven_process.hpp"

namespace tsunagi::realnet {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using udp = asio::ip::udp;
using SteadyClock = std::chrono::steady_clock;

// First byte of every TCP connection between realnet processes.
inline constexpr std::uint8_t kPurposeFrames = 'F';
inline constexpr std::uint8_t kPurposeBulk = 'B';

struct AdapterOptions {
  Rank rank = kNoRank;               // kNoRank: the rendezvous
  std::string label;                 // "r3" or "rendezvous" (for logs and events)
  asio::ip::address listen_address;  // must be an address others can reach
  std::uint16_t listen_port = 0;     // 0 = any free port (TCP and UDP get the same number)
  Endpoint rendezvous;               // nodes: where the rendezvous listens
  std::string host_label;            // the machine's name, as registered with the rendezvous
  std::string site;                  // the cluster this process runs in ("" without clusters)
  std::shared_ptr<const ProtocolConfig> config;
  // The run's secret (run_secret.hpp) and this process's nonce seed; the daemons refuse to
  // start without a secret ("" runs unauthenticated: adapter tests only).
  std::string secret;
  std::uint64_t nonce_seed = 0;
  SteadyClock::time_point epoch = SteadyClock::now();
  // Hostile input (docs/security.md): an accepted connection that has not said what it is for
  // (its purpose byte) by then is closed, so idle connections cannot hold descriptors forever;
  // and when accepting fails for want of descriptors, accepting pauses this long.
  std::chrono::milliseconds purpose_timeout{10'000};
  std::chrono::milliseconds accept_pause{100};
  // Where the adapter's own log lines go (the daemon's log); unset: standard error.
  std::function<void(const std::string&)> log;
};

// A daemon's process table: one row, itself (a rank, the rendezvous, or a relay when it is no
// rank and has a rendezvous to register with); the EventLog is its observer. A base of
// AsioProcess, so it exists before the driver that refers to it.
struct OwnProcessTable {
  OwnProcessTable(EventLog& log, std::shared_ptr<const ProtocolConfig> config)
      : table_("realnet", log, std::move(config)) {}
  runner::ProcessTable table_;
};

class AsioProcess : private OwnProcessTable, public runner::DrivenProcess<AsioProcess> {
 public:
  AsioProcess(asio::io_context& io, std::unique_ptr<Process> core, AdapterOptions options,
              EventLog& log);
  ~AsioProcess();

  // Binds the TCP listener and the UDP echo socket. Throws std::runtime_error saying why.
  void open();
  // "address:port" others connect to (valid after open()).
  Endpoint endpoint() const;
  // Delivers StartedInput; everything afterwards happens in io_context handlers.
  void start();
  // Stops the core from outside (a signal): records a failed exit unless it already exited.
  void stop(const std::string& reason);
  // Closes every socket and timer so io_context::run() can return.
  void shut_down();

  bool exited() const { return driver_.exited(); }
  // Nothing queued or being written on any connection: what the core sent has reached the kernel.
  bool flushed() const;
  bool exited_ok() const { return exit_ok_; }
  // Called once when the core exits (ExitCmd or stop()).
  std::function<void(const ExitCmd&)> on_exit;

  // The commands (tsunagi::perform_commands; DrivenProcess does trace and report) and the
  // clock they run by: asio_process.cpp, asio_streams.cpp, asio_accept.cpp, asio_probes.cpp.
  TimeNs now() const;
  void recycle_received(Bytes&& bytes);
  // `window`: the core sized the connection before connecting (the driver kept it).
  void open_connection(const ConnectCmd& cmd, const SetWindowCmd* window);
  bool has_connection(ConnId id) const { return conns_.count(id) != 0; }
  void send(SendCmd& cmd);
  // The commands of one core step are all performed: what its sends queued is written, one
  // write per connection (runner::hears_step_end).
  void step_performed();
  // `refused`: the core refused a peer that never proved the run's secret; its descriptor is
  // freed at once instead of waiting for the stranger to close its side (issue 29, item 3).
  void close(ConnId id, bool refused);
  // The process's timers are the driver's one queue (driven_process.hpp): one Asio timer
  // wakes it at the earliest deadline.
  void wake_at(TimeNs at);
  void on_world_timer(const runner::DueTimer&) {}  // realnet arms none: its world keeps time
  void start_rtt_probe(const ProbeRttCmd& cmd);
  void abandon_rtt_probe(std::uint64_t id);  // its deadline passed (the driver's)
  void start_throughput_probe(const ProbeThroughputCmd& cmd);
  void compute(const ComputeCmd& cmd);
  void exit_process(const ExitCmd& exit);
  void apply_window(const SetWindowCmd& cmd);

 private:
  struct OutChunk {
    Bytes bytes;
    std::uint64_t filler = 0;  // zero bytes after `bytes`
    std::size_t bytes_done = 0;
    std::uint64_t filler_done = 0;
  };
  // A connection's queue, oldest first: a vector whose front is an index, emptied in place once
  // all is sent. A std::deque allocated a block every ten messages and moved its map (memmove)
  // as a ping-pong walked through it (issue 34). A queue that never empties drops its sent
  // front when that is half of it.
  class OutQueue {
   public:
    bool empty() const { return head_ == chunks_.size(); }
    void push_back(OutChunk&& chunk) { chunks_.push_back(std::move(chunk)); }
    OutChunk& front() { return chunks_[head_]; }
    OutChunk& operator[](std::size_t i) { return chunks_[head_ + i]; }
    auto begin() { return chunks_.begin() + static_cast<std::ptrdiff_t>(head_); }
    auto end() { return chunks_.end(); }
    void pop_front() {
      chunks_[head_++] = OutChunk{};  // its bytes freed now, not when the queue empties
      if (empty()) {
        chunks_.clear();
        head_ = 0;
      } else if (head_ >= 64 && 2 * head_ >= chunks_.size()) {
        chunks_.erase(chunks_.begin(), begin());
        head_ = 0;
      }
    }

   private:
    std::vector<OutChunk> chunks_;
    std::size_t head_ = 0;
  };
  struct Conn {
    explicit Conn(asio::io_context& io) : socket(io) {}
    tcp::socket socket;
    bool connected = false;
    bool core_closed = false;  // the core sent CloseCmd: no more inputs for it
    bool gone = false;         // socket closed, erased from conns_
    bool writing = false;
    bool step_sends = false;  // queued by the core step under way (listed in step_sends_)
    OutQueue out;
    // The pieces of the write under way, untouched while `writing`: Asio is handed a view of
    // them (a std::span), not the vector, which it would copy into every write. `progress`:
    // what each queued chunk contributes to it (bytes, filler); kept, so a write allocates
    // nothing.
    std::vector<asio::const_buffer> gather;
    std::vector<std::pair<std::size_t, std::uint64_t>> progress;
  };
  using ConnPtr = std::shared_ptr<Conn>;

  struct RttProbe {  // one echo in flight
    udp::endpoint target;
    std::uint32_t sample = 0;  // the core's number of the echo, in its ping and pong
    ProbeNonce nonce{};        // in the ping; a pong must echo it (probe_auth.hpp)
    SteadyClock::time_point sent_at;
  };

  // asio_process.cpp: the loop
  void add_own_row();

  // asio_streams.cpp, asio_accept.cpp: TCP connections
  void accept_next();
  void accept_later(const boost::system::error_code& error);
  struct PendingAccept;  // asio_accept.cpp: a connection that has not said what it is for
  void on_accepted_socket(tcp::socket socket);
  void on_purpose(const std::shared_ptr<PendingAccept>& pending);
  void on_bulk_header(const std::shared_ptr<PendingAccept>& pending);
  void on_connect_done(ConnId id, const ConnPtr& conn, const boost::system::error_code& error);
  void start_reading(ConnId id, const ConnPtr& conn, bool read_now);
  void read_once(ConnId id, const ConnPtr& conn);
  void read_while_streaming(ConnId id, const ConnPtr& conn);
  std::size_t read_size(Conn& conn);
  void take_read_blocks(std::size_t size);
  Bytes full_block();
  Bytes tail_block(std::size_t size);
  Bytes take_tail(std::vector<Bytes>::iterator at, std::size_t size);
  void adapt_read_size(std::size_t got);
  void deliver_read(ConnId id, const ConnPtr& conn, std::size_t got);
  Bytes hand_over(Bytes& block, std::size_t n);
  void pump(ConnId id, const ConnPtr& conn);
  std::size_t gather(Conn& conn);
  void advance(Conn& conn, std::size_t written);
  void drop(ConnId id, const ConnPtr& conn, bool tell_core);

  // asio_probes.cpp: UDP echo, RTT probes, throughput probes and sinks
  void receive_datagram();
  void on_datagram(std::size_t size);
  void serve_bulk_sink(std::shared_ptr<tcp::socket> socket, std::uint64_t bytes);
  void log(const std::string& line) const;

  asio::io_context& io_;
  AdapterOptions options_;
  tcp::acceptor acceptor_;
  udp::socket udp_;
  std::vector<std::uint8_t> datagram_ = std::vector<std::uint8_t>(65536);
  // One read buffer for all connections: reads wait for readiness, then read at once, so no
  // connection holds a buffer while it waits (256 KiB reads halve the per-byte cost of 64 KiB).
  std::vector<std::uint8_t> read_buffer_ = std::vector<std::uint8_t>(256 * 1024);
  // Frame streams read straight into the bytes handed to the core, which hands them back
  // (recycle_received): no copy and no allocation per read. A read's size follows the traffic:
  // 4 KiB while reads are small, up to 1 MiB while they fill it (a 1 MiB message in one read,
  // as plain Asio's async_read takes it). Past 4 KiB a read takes exactly what has arrived (the
  // kernel says how much, FIONREAD): whole 64 KiB blocks and one tail block of the rest, each
  // handed to the core as its own Received, so no read ends inside a block. A block is never
  // grown again once it is smaller (growing a std::vector zero-fills: issue 34 measured 4.4 KB
  // filled and 1.6 KB copied per 1 MiB round trip at the edges of reads), so the blocks that
  // come back are kept by size: full ones, and tails that a later read of the same size takes
  // (a stream of equal messages arrives in equal pieces). At most 48 full blocks (each at most
  // 128 KiB of capacity; three 1 MiB reads) and 64 tails of at most 2 MiB together: 8 MiB a
  // process. A core that forwards what it read (moved into a SendCmd) gives the blocks back
  // once they are written.
  std::vector<Bytes> full_blocks_;  // each kReadBlock bytes
  std::vector<Bytes> tail_blocks_;  // smaller, at least kSmallestRead of capacity; oldest first
  std::size_t tail_bytes_ = 0;      // their capacity
  std::vector<Bytes> read_blocks_;  // the blocks of the read being made
  std::vector<asio::mutable_buffer> read_iovecs_;
  static constexpr std::size_t kReadBlock = 64 * 1024;
  static constexpr std::size_t kSmallestRead = 4096;
  static constexpr std::size_t kFullBlocks = 48;
  static constexpr std::size_t kTailBytes = 2 << 20;
  static constexpr std::size_t kTailBlocks = 64;
  std::size_t stream_read_size_ = kSmallestRead;
  int small_reads_ = 0;  // reads in a row far smaller than stream_read_size_
  udp::endpoint datagram_from_;
  asio::steady_timer accept_pause_;  // accepting again after running out of descriptors
  bool descriptors_logged_ = false;  // that is said once, not at every retry
  BulkGate bulk_gate_;               // throughput probes must prove the run's secret
  bool bulk_refusal_logged_ = false;

  std::map<ConnId, ConnPtr> conns_;
  std::vector<std::pair<ConnId, ConnPtr>> step_sends_;  // written at step_performed
  int delivering_reads_ = 0;  // deliver_read under way: its steps' sends wait for its end
  std::map<std::uint64_t, RttProbe> rtt_probes_;
  asio::steady_timer wake_;  // wakes the driver's timers at their earliest deadline
  std::vector<std::shared_ptr<asio::steady_timer>> timers_;  // computations
  bool started_ = false;
  bool exit_ok_ = false;
  bool shut_down_ = false;
};

// "1.2.3.4:5678" -> endpoint; names are resolved (clusters). Throws std::invalid_argument.
tcp::endpoint parse_tcp_endpoint(const std::string& text);

}  // namespace tsunagi::realnet
