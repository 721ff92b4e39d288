// The adapter's loop: deliver an input, perform the commands it produced, let Asio wait for
// the next outcome. See asio_process.hpp.
#include "asio_process.hpp"

#include "heap_retention.hpp"

#include <stdexcept>
#include <type_traits>
#include <variant>

namespace tsunagi::realnet {

AsioProcess::AsioProcess(asio::io_context& io, std::unique_ptr<Process> core,
                         AdapterOptions options, EventLog& log)
    : OwnProcessTable(log, options.config),
      DrivenProcess(table_, 0, std::move(core)),
      io_(io),
      options_(std::move(options)),
      acceptor_(io),
      udp_(io),
      accept_pause_(io),
      bulk_gate_(options_.secret),
      wake_(io) {
  table_.use_run_secret(options_.secret, options_.nonce_seed);
  keep_freed_heap();
}

AsioProcess::~AsioProcess() = default;

void AsioProcess::open() {
  const tcp::endpoint where(options_.listen_address, options_.listen_port);
  boost::system::error_code error;
  // The TCP port may be chosen by the kernel; the UDP echo then takes the same number. Another
  // program may already hold that UDP port: try a few kernel-chosen ports before giving up.
  for (int attempt = 0; attempt < 20; ++attempt) {
    acceptor_ = tcp::acceptor(io_);
    acceptor_.open(where.protocol());
    acceptor_.set_option(tcp::acceptor::reuse_address(true));
    acceptor_.bind(where, error);
    if (error)
      throw std::runtime_error("cannot listen on " + where.address().to_string() + ":" +
                               std::to_string(where.port()) + ": " + error.message());
    acceptor_.listen(asio::socket_base::max_listen_connections);
    const std::uint16_t port = acceptor_.local_endpoint().port();
    udp_ = udp::socket(io_);
    udp_.open(where.address().is_v4() ? udp::v4() : udp::v6());
    udp_.bind(udp::endpoint(options_.listen_address, port), error);
    if (!error) {
      // Room for echo replies to many probers at once (capped by net.core.[rw]mem_max).
      udp_.set_option(asio::socket_base::send_buffer_size(1 << 20), error);
      udp_.set_option(asio::socket_base::receive_buffer_size(1 << 20), error);
      add_own_row();
      return;
    }
    if (options_.listen_port != 0)
      throw std::runtime_error("cannot bind the UDP echo to port " + std::to_string(port) + ": " +
                               error.message());
  }
  throw std::runtime_error("no port free for both TCP and UDP on " +
                           options_.listen_address.to_string());
}

// The table holds this process only: a rank, the rendezvous, or a relay (no rank, but a
// rendezvous to register with).
void AsioProcess::add_own_row() {
  const runner::Role role = options_.rank != kNoRank      ? runner::Role::Node
                            : options_.rendezvous.empty() ? runner::Role::Rendezvous
                                                          : runner::Role::Relay;
  table_.add(runner::ProcessRow{role, options_.rank, options_.label, endpoint(),
                                options_.host_label, options_.site});
  table_.locate_rendezvous(options_.rendezvous);
}

Endpoint AsioProcess::endpoint() const {
  const auto local = acceptor_.local_endpoint();
  return local.address().to_string() + ":" + std::to_string(local.port());
}

TimeNs AsioProcess::now() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now() - options_.epoch)
      .count();
}

void AsioProcess::start() {
  started_ = true;
  accept_next();
  receive_datagram();
  deliver(driver_.started_input());
}

// A later request replaces the pending wait (expires_at cancels it).
void AsioProcess::wake_at(TimeNs at) {
  wake_.expires_at(options_.epoch + std::chrono::nanoseconds(at));
  wake_.async_wait([this](const boost::system::error_code& error) {
    if (!error) fire_due_timers();
  });
}

// A computation is modelled CPU time (the workload's own real work, such as sorting keys, has
// already been done by the core): the process waits for it and keeps serving its sockets.
void AsioProcess::compute(const ComputeCmd& cmd) {
  auto timer = std::make_shared<asio::steady_timer>(io_, std::chrono::nanoseconds(cmd.duration));
  timers_.push_back(timer);
  timer->async_wait([this, timer, task = cmd.task](const boost::system::error_code& error) {
    std::erase(timers_, timer);
    if (!error) deliver(ComputeDoneInput{task});
  });
}

// After its exit the process keeps its sockets (writes still drain, the UDP echo still
// answers) until the daemon shuts it down: closing at once would show up at peers that have
// not yet been told the run is over as a lost connection (docs/realnet.md, "exit").
void AsioProcess::exit_process(const ExitCmd& exit) {
  if (driver_.exited()) return;
  exit_ok_ = exit.ok;
  table_.report_counts();  // before the exit line: the launcher reads a file up to its exit
  driver_.exit(now(), exit);
  rtt_probes_.clear();
  for (auto& timer : std::vector(timers_)) timer->cancel();
  drop_timers();
  wake_.cancel();
  if (on_exit) on_exit(exit);
}

bool AsioProcess::flushed() const {
  for (const auto& [id, conn] : conns_)
    if (conn->connected && !conn->gone && (conn->writing || !conn->out.empty())) return false;
  return true;
}

void AsioProcess::stop(const std::string& reason) {
  if (!driver_.exited()) exit_process(ExitCmd{false, reason});
}

void AsioProcess::shut_down() {
  if (shut_down_) return;
  shut_down_ = true;
  stop("shut down before it exited");
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  accept_pause_.cancel();
  udp_.close(ignored);
  for (auto& [id, conn] : std::map(conns_)) {
    conn->socket.close(ignored);
    conn->gone = true;
  }
  conns_.clear();
}

}  // namespace tsunagi::realnet
