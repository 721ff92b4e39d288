// Accepting TCP connections: what each is for (its purpose byte), a deadline from the accept
// for every kind, a throughput probe's proof, and pausing when descriptors run out
// (docs/security.md, issue 29 item 3).
#include "asio_process.hpp"

namespace tsunagi::realnet {
namespace {

// Accepting failed for want of descriptors (this process's or the system's) or kernel memory:
// trying again at once fails again at once.
bool out_of_descriptors(const boost::system::error_code& error) {
  namespace err = asio::error;
  return error == err::no_descriptors || error == err::no_buffer_space || error == err::no_memory ||
         error == boost::system::errc::too_many_files_open_in_system;
}

}  // namespace

void AsioProcess::accept_next() {
  acceptor_.async_accept([this](const boost::system::error_code& error, tcp::socket socket) {
    if (shut_down_ || error == asio::error::operation_aborted) return;
    if (!error) on_accepted_socket(std::move(socket));
    if (out_of_descriptors(error)) return accept_later(error);
    accept_next();
  });
}

// With every descriptor taken, the pending connection stays in the kernel's queue and accept
// fails again at once: re-arming it immediately spun a core at 99 % and starved the process's
// other work. Accepting pauses instead, until descriptors may have been freed (a connection
// closed, an idle one timed out), and the condition is logged once, not at every retry.
void AsioProcess::accept_later(const boost::system::error_code& error) {
  if (!descriptors_logged_) {
    descriptors_logged_ = true;
    log("cannot accept connections: " + error.message() + "; retrying every " +
        std::to_string(options_.accept_pause.count()) + " ms (raise ulimit -n?)");
  }
  accept_pause_.expires_after(options_.accept_pause);
  accept_pause_.async_wait([this](const boost::system::error_code& e) {
    if (!e && !shut_down_) accept_next();
  });
}

// A connection accepted and not yet handed on: what it is for is not known, or a throughput
// probe has not yet proven the run's secret. One deadline covers both (issue 29, item 3): a
// stranger's connection of any kind holds its descriptor at most purpose_timeout after the
// accept; a frame connection is then watched by the core's handshake deadline from its accept.
struct AsioProcess::PendingAccept {
  PendingAccept(asio::io_context& io, tcp::socket s, std::chrono::milliseconds timeout)
      : socket(std::move(s)), deadline(io, timeout) {}
  tcp::socket socket;
  asio::steady_timer deadline;
  std::uint8_t purpose = 0;
  BulkHeader bulk{};
  bool settled = false;  // handed on or closed: the deadline no longer applies
  void settle() {
    settled = true;
    deadline.cancel();
  }
};

// The first byte says what the connection is for; a connection that closes before it (a
// daemon checking that this one is up) leaves no trace. One that neither sends it (and, for a
// throughput probe, its proof) nor closes is closed at the deadline: ours send both at once.
void AsioProcess::on_accepted_socket(tcp::socket socket) {
  auto pending = std::make_shared<PendingAccept>(io_, std::move(socket), options_.purpose_timeout);
  pending->deadline.async_wait([pending](const boost::system::error_code& error) {
    boost::system::error_code ignored;
    if (!error && !pending->settled) pending->socket.close(ignored);  // the read then fails
  });
  asio::async_read(pending->socket, asio::buffer(&pending->purpose, 1),
                   [this, pending](const boost::system::error_code& error, std::size_t) {
                     if (error || shut_down_) return pending->settle();
                     on_purpose(pending);
                   });
}

void AsioProcess::on_purpose(const std::shared_ptr<PendingAccept>& pending) {
  if (pending->purpose == kPurposeBulk) {
    asio::async_read(pending->socket, asio::buffer(pending->bulk),
                     [this, pending](const boost::system::error_code& error, std::size_t) {
                       if (error || shut_down_) return pending->settle();
                       on_bulk_header(pending);
                     });
    return;
  }
  pending->settle();
  boost::system::error_code ignored;
  if (pending->purpose != kPurposeFrames) {  // not ours: the descriptor is freed at once
    pending->socket.close(ignored);
    return;
  }
  pending->socket.set_option(tcp::no_delay(true), ignored);
  const ConnId id = driver_.next_accepted_conn();
  auto conn = std::make_shared<Conn>(io_);
  conn->socket = std::move(pending->socket);
  conn->connected = true;
  conn->core_closed = driver_.exited();  // an exited process only drains
  conns_[id] = conn;
  if (!driver_.exited()) deliver(AcceptedInput{id});
  start_reading(id, conn, true);
}

// A throughput probe's header: a sink only for one that proves the run's secret (a stranger's
// is closed at once, its descriptor freed), and each proof only once.
void AsioProcess::on_bulk_header(const std::shared_ptr<PendingAccept>& pending) {
  pending->settle();
  std::uint64_t bytes = 0;
  if (!bulk_gate_.admit(pending->bulk, bytes)) {
    if (!bulk_refusal_logged_) {
      bulk_refusal_logged_ = true;
      log("refused a throughput probe that does not prove the run's secret (logged once)");
    }
    boost::system::error_code ignored;
    pending->socket.close(ignored);
    return;
  }
  serve_bulk_sink(std::make_shared<tcp::socket>(std::move(pending->socket)), bytes);
}

}  // namespace tsunagi::realnet
