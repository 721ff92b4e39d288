// TCP connections: connect (with the core's time-out), frames in and out, close. Accepting:
// asio_accept.cpp.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <iostream>
#include <span>

#include "asio_process.hpp"
#include "socket_buffers.hpp"

namespace tsunagi::realnet {
namespace {

// Filler is sent from this block, so an 8 MB message never allocates 8 MB of zeros.
const std::array<std::uint8_t, 64 * 1024> kZeros{};
// One write hands the kernel at most this much, so a bulk send does not starve the others.
constexpr std::size_t kWriteBudget = 1 << 20;

// The kernel's verdict on a connect. How long to wait for one is the core's decision: it closes
// the connection when its connect_timeout passes (the pending connect is then dropped).
ConnectFailure failure_of(const boost::system::error_code& error) {
  namespace err = asio::error;
  if (error == err::timed_out) return ConnectFailure::TimedOut;
  if (error == err::connection_refused) return ConnectFailure::Refused;
  return ConnectFailure::Unreachable;  // host/network unreachable, no route, bad address, ...
}

}  // namespace

tcp::endpoint parse_tcp_endpoint(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    throw std::invalid_argument("endpoint '" + text + "' is not ADDRESS:PORT");
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  const std::string port_text = text.substr(colon + 1);
  unsigned long port = 0;
  try {
    std::size_t used = 0;
    port = std::stoul(port_text, &used);
    if (used != port_text.size() || port > 65535) throw std::out_of_range("port");
  } catch (const std::exception&) {
    throw std::invalid_argument("endpoint '" + text + "': '" + port_text + "' is not a port");
  }
  boost::system::error_code error;
  const auto address = asio::ip::make_address(host, error);
  if (!error) return {address, static_cast<std::uint16_t>(port)};
  // A host name (real clusters): the first IPv4 address it resolves to.
  asio::io_context io;
  tcp::resolver resolver(io);
  const auto results = resolver.resolve(tcp::v4(), host, port_text, error);
  if (error || results.empty())
    throw std::invalid_argument("endpoint '" + text + "': cannot resolve '" + host + "'");
  return results.begin()->endpoint();
}

void AsioProcess::log(const std::string& line) const {
  if (options_.log) return options_.log(line);
  std::cerr << "[tsunagi " << options_.label << "] " << line << std::endl;
}

void AsioProcess::open_connection(const ConnectCmd& cmd, const SetWindowCmd* window) {
  tcp::endpoint target;
  try {
    target = parse_tcp_endpoint(cmd.to);
  } catch (const std::invalid_argument&) {
    deliver(ConnectFailedInput{cmd.conn, ConnectFailure::Unreachable});
    return;
  }
  auto conn = std::make_shared<Conn>(io_);
  conns_[cmd.conn] = conn;
  if (window != nullptr) {
    // Buffers before the SYN: the window scale is agreed in the handshake.
    boost::system::error_code ignored;
    conn->socket.open(target.protocol(), ignored);
    size_socket_buffers(conn->socket.native_handle(), window->send_buffer, window->recv_buffer);
  }
  conn->out.push_back(OutChunk{Bytes{kPurposeFrames}});  // goes before any frame
  conn->socket.async_connect(target,
                             [this, id = cmd.conn, conn](const boost::system::error_code& e) {
                               on_connect_done(id, conn, e);
                             });
}

void AsioProcess::apply_window(const SetWindowCmd& cmd) {
  auto it = conns_.find(cmd.conn);
  if (it != conns_.end())
    size_socket_buffers(it->second->socket.native_handle(), cmd.send_buffer, cmd.recv_buffer);
}

void AsioProcess::on_connect_done(ConnId id, const ConnPtr& conn,
                                  const boost::system::error_code& error) {
  if (conn->gone) return;  // the core closed it meanwhile, or the process shut down
  if (error) {
    conn->gone = true;
    conns_.erase(id);
    deliver(ConnectFailedInput{id, failure_of(error)});
    return;
  }
  conn->connected = true;
  boost::system::error_code ignored;
  conn->socket.set_option(tcp::no_delay(true), ignored);
  // Asio watched the connect for EPOLLOUT and keeps watching for it: each async_wait re-arms
  // the descriptor with it, so each wait for a message came back at once, for nothing (issue
  // 34). It is registered anew, for EPOLLIN only, as an accepted one is.
  const auto protocol = conn->socket.local_endpoint(ignored).protocol();
  boost::system::error_code error_again;
  const auto descriptor = conn->socket.release(error_again);
  if (!error_again) conn->socket.assign(protocol, descriptor, error_again);
  if (error_again) {  // the kernel could not register it (no memory): as if the connect failed
    if (!conn->socket.is_open() && descriptor >= 0) ::close(descriptor);
    conn->gone = true;
    conns_.erase(id);
    deliver(ConnectFailedInput{id, ConnectFailure::Unreachable});
    return;
  }
  deliver(ConnectedInput{id});
  start_reading(id, conn, true);
  pump(id, conn);
}

// Reads what the socket holds now, then waits until it is readable again. A new connection
// reads at once (its first bytes usually came with it): an accepted connection's hello then
// reaches the core in the same step as the accept, not one event-loop round later, so the
// order of near-simultaneous events follows their arrival (docs/realnet.md, "latency scale").
void AsioProcess::start_reading(ConnId id, const ConnPtr& conn, bool read_now) {
  if (conn->gone) return;
  if (read_now) {
    read_once(id, conn);
    if (conn->gone) return;
    read_while_streaming(id, conn);
    if (conn->gone) return;
  }
  conn->socket.async_wait(tcp::socket::wait_read,
                          [this, id, conn](const boost::system::error_code& error) {
                            if (conn->gone) return;
                            if (error) return drop(id, conn, true);
                            start_reading(id, conn, true);
                          });
}

// While a bulk stream arrives (reads past one block), the socket is polled a few times before
// the thread waits in epoll: the peer's next segments are microseconds away, and a thread that
// sleeps for them pays a wake-up per piece (a context switch, and on a virtual machine an
// inter-processor interrupt in the thread that wakes it). On an idle 2-core KVM guest the 1 MiB
// round trip took 1.15-1.18 x plain Asio's, with 4 sleeps per round trip against 2.4: Asio's
// async_read_some tries the socket before it waits. Polling (FIONREAD, one ioctl each) made it
// 0.97 x, for 16 ioctls per round trip (issue 34). At most kStreamReads reads here, so one
// long stream does not keep the loop from the other connections.
void AsioProcess::read_while_streaming(ConnId id, const ConnPtr& conn) {
  constexpr int kStreamPolls = 64;
  constexpr int kStreamReads = 16;
  int reads = 0;
  for (int polls = 0; polls < kStreamPolls && reads < kStreamReads; ++polls) {
    if (stream_read_size_ <= kReadBlock || conn->gone || conn->core_closed) return;
    boost::system::error_code error;
    const std::size_t ready = conn->socket.available(error);
    if (error) return;  // the wait in epoll reports it
    if (ready == 0) continue;
    read_once(id, conn);
    ++reads;
    polls = 0;
  }
}

// One read of what the socket holds, up to stream_read_size_, handed to the core.
void AsioProcess::read_once(ConnId id, const ConnPtr& conn) {
  boost::system::error_code error;
  // Set once: each call is an ioctl, one syscall more per message than plain Asio makes.
  if (!conn->socket.non_blocking()) conn->socket.non_blocking(true, error);
  const std::size_t offered = read_size(*conn);
  take_read_blocks(offered);
  // One block is a recv, several a recvmsg (the kernel copies in the list of blocks).
  const std::size_t got = read_iovecs_.size() == 1
                              ? conn->socket.read_some(read_iovecs_.front(), error)
                              : conn->socket.read_some(read_iovecs_, error);
  if (error && error != asio::error::would_block) {
    for (Bytes& block : read_blocks_) recycle_received(std::move(block));
    return drop(id, conn, true);
  }
  // As if stream_read_size_ had been offered: `offered` is less only when less had arrived.
  adapt_read_size(error ? 0 : got);
  deliver_read(id, conn, error ? 0 : got);
}

// How much to read: stream_read_size_ while reads are small (one 4 KiB block: asking the kernel
// first would be one system call more per small message). Past that, what has arrived, up to
// stream_read_size_, so the read ends at the end of its last block: the blocks are cut to fit
// before the read instead of after it (no copy, no fill). Nothing ready (a wake-up for the
// peer's FIN or an error): a small read, which reports it.
std::size_t AsioProcess::read_size(Conn& conn) {
  if (stream_read_size_ <= kSmallestRead) return kSmallestRead;
  boost::system::error_code error;
  const std::size_t ready = conn.socket.available(error);
  if (error || ready == 0) return kSmallestRead;
  return std::min(ready, stream_read_size_);
}

// Blocks for `size` bytes: whole kReadBlock ones, then one of the rest.
void AsioProcess::take_read_blocks(std::size_t size) {
  read_blocks_.clear();
  read_iovecs_.clear();
  for (std::size_t covered = 0; covered < size;) {
    Bytes block = size - covered >= kReadBlock ? full_block() : tail_block(size - covered);
    covered += block.size();
    read_iovecs_.emplace_back(block.data(), block.size());
    read_blocks_.push_back(std::move(block));
  }
}

// A block of kReadBlock bytes: a spare, or a new one (zero-filled once, then kept). New ones
// come as many at a time as three reads of the current size take (a stream holds the blocks of
// a message that spans two reads while it reads the next: 33 of 64 KiB at 1 MiB, measured),
// at most kFullBlocks: made one at a time the pool grew for thousands of round trips (60
// blocks over 3,000 round trips of 1 MiB, each a 64 KiB fill and 16 page faults; issue 34).
Bytes AsioProcess::full_block() {
  if (full_blocks_.empty()) {
    const std::size_t batch =
        std::clamp<std::size_t>(3 * stream_read_size_ / kReadBlock, 1, kFullBlocks);
    for (std::size_t i = 0; i < batch; ++i) full_blocks_.emplace_back(kReadBlock);
  }
  Bytes block = std::move(full_blocks_.back());
  full_blocks_.pop_back();
  return block;
}

// A block of exactly `size` (< kReadBlock) bytes. A std::vector fills whatever it grows by, so
// the choice is the one that fills least: a kept tail at least `size` long, the shortest (cut
// down: nothing filled); for half a block or more, a full block cut down; a kept tail whose
// capacity holds `size`, the longest (only the bytes past its length are filled); else a new
// block of `size` bytes with room to the next power of two, so that later reads of a few
// more bytes fit it (the pieces a message arrives in vary by a segment or so).
Bytes AsioProcess::tail_block(std::size_t size) {
  auto cut = tail_blocks_.end();   // shortest with size() >= size
  auto grow = tail_blocks_.end();  // longest with size() < size <= capacity()
  for (auto it = tail_blocks_.begin(); it != tail_blocks_.end(); ++it) {
    if (it->size() >= size) {
      if (cut == tail_blocks_.end() || it->size() < cut->size()) cut = it;
    } else if (it->capacity() >= size) {
      if (grow == tail_blocks_.end() || it->size() > grow->size()) grow = it;
    }
  }
  if (cut != tail_blocks_.end()) return take_tail(cut, size);
  if (2 * size >= kReadBlock && !full_blocks_.empty()) {
    Bytes block = full_block();
    block.resize(size);
    return block;
  }
  if (grow != tail_blocks_.end()) return take_tail(grow, size);
  Bytes block;
  block.reserve(std::min(std::bit_ceil(std::max(size, kSmallestRead)), kReadBlock));
  block.resize(size);
  return block;
}

Bytes AsioProcess::take_tail(std::vector<Bytes>::iterator at, std::size_t size) {
  Bytes block = std::move(*at);
  tail_bytes_ -= block.capacity();
  tail_blocks_.erase(at);
  block.resize(size);
  return block;
}

// Doubled while reads fill what they are offered; down to what came after several reads far
// smaller, not after one: a 64 KiB message arrives as a 65,483-byte segment and a 53-byte tail,
// and shrinking at the tail made the next message ramp up again over five reads (issue 34).
void AsioProcess::adapt_read_size(std::size_t got) {
  constexpr std::size_t kLargestRead = 1024 * 1024;
  constexpr int kSmallReadsBeforeShrinking = 8;
  if (got == stream_read_size_) {
    stream_read_size_ = std::min(2 * got, kLargestRead);
    small_reads_ = 0;
  } else if (got * 4 >= stream_read_size_) {
    small_reads_ = 0;
  } else if (++small_reads_ == kSmallReadsBeforeShrinking) {
    stream_read_size_ = std::max(got, kSmallestRead);
    small_reads_ = 0;
  }
}

// Each block that holds read bytes is one Received, in order; the rest go back unused. The
// blocks are moved out while the core runs: a read it caused would take read_blocks_ anew.
// What the core's steps on the blocks send is written after the last block, one write per
// connection: an echo of a 1 MiB read is one sendmsg, not 16 sends of 64 KiB (issue 34).
void AsioProcess::deliver_read(ConnId id, const ConnPtr& conn, std::size_t got) {
  std::vector<Bytes> blocks = std::move(read_blocks_);
  ++delivering_reads_;
  for (Bytes& block : blocks) {
    const std::size_t n = std::min(got, block.size());
    got -= n;
    if (n == 0 || conn->gone || conn->core_closed || driver_.exited()) {
      recycle_received(std::move(block));
      continue;
    }
    deliver(ReceivedInput{id, hand_over(block, n), 0});
  }
  blocks.clear();
  read_blocks_ = std::move(blocks);  // its capacity: the next read allocates nothing
  if (--delivering_reads_ == 0) step_performed();
}

// The first n bytes of a block, for the core: only a small read (one 4 KiB block, read_size)
// or one the kernel ended early leaves a block part filled. One less than half filled is kept
// whole and its bytes handed over as a copy: copying n bytes costs less than filling a new
// block, which cutting this one would need, since a cut block never grows back (a 64-byte
// message in a 4 KiB block: 64 bytes copied instead of 4,096 filled).
Bytes AsioProcess::hand_over(Bytes& block, std::size_t n) {
  if (n * 2 >= block.size()) {
    block.resize(n);
    return std::move(block);
  }
  Bytes bytes(block.begin(), block.begin() + static_cast<std::ptrdiff_t>(n));
  recycle_received(std::move(block));
  return bytes;
}

static_assert(runner::takes_back_received<AsioProcess>::value,
              "the driver must hand received bytes back to the realnet adapter");

// Kept for later reads: a full block with the full ones (a larger buffer cut down to one),
// anything smaller as a tail, the oldest tail giving way. Not kept: an empty buffer (the core
// took its bytes), a small one (capacity under kSmallestRead: a frame the core made), a large
// one (it would hold its memory as a read block).
void AsioProcess::recycle_received(Bytes&& bytes) {
  if (bytes.empty() || bytes.capacity() < kSmallestRead || bytes.capacity() > 2 * kReadBlock)
    return;
  if (bytes.size() >= kReadBlock) {
    bytes.resize(kReadBlock);
    if (full_blocks_.size() < kFullBlocks) full_blocks_.push_back(std::move(bytes));
    return;
  }
  tail_bytes_ += bytes.capacity();
  tail_blocks_.push_back(std::move(bytes));
  // The oldest go: the memory is bounded, and so is the search for a size (tail_block).
  while (tail_bytes_ > kTailBytes || tail_blocks_.size() > kTailBlocks)
    take_tail(tail_blocks_.begin(), 0);
}

// Queued, and written once the step's commands are all performed: the frames one step sends on
// a connection go out in one write, not a system call each (issue 34).
void AsioProcess::send(SendCmd& cmd) {
  auto it = conns_.find(cmd.conn);
  if (it == conns_.end() || it->second->core_closed) return;
  it->second->out.push_back(OutChunk{std::move(cmd.bytes), cmd.filler});
  if (!it->second->step_sends) {
    it->second->step_sends = true;
    step_sends_.emplace_back(cmd.conn, it->second);
  }
}

void AsioProcess::step_performed() {
  if (step_sends_.empty() || delivering_reads_ > 0) return;  // deliver_read writes at its end
  std::vector<std::pair<ConnId, ConnPtr>> sends;
  sends.swap(step_sends_);
  for (auto& [id, conn] : sends) {
    conn->step_sends = false;
    pump(id, conn);
  }
  sends.clear();
  if (step_sends_.empty()) step_sends_.swap(sends);  // its capacity: no allocation next step
}

// Writes what is queued, one gathered write at a time, in order. A connection the core closed
// sends its FIN once the queue is empty and is dropped when the peer's FIN arrives.
//
// Each write is first made here and now, on the non-blocking socket: when the kernel takes all
// of it (a small message nearly always, 1 MiB once the socket's buffers have grown), nothing is
// left for the event loop. async_write would make the same call but post its completion, and a
// posted handler makes Asio poll epoll (epoll_wait, no time-out) before it runs (issue 34).
// What the kernel does not take goes to async_write, which waits for room; so does the write
// after one larger than kWriteNow, so that a long queue lets other connections' handlers run.
void AsioProcess::pump(ConnId id, const ConnPtr& conn) {
  constexpr std::size_t kWriteNow = 64 * 1024;
  bool wrote_large = false;
  while (!conn->writing && conn->connected && !conn->gone) {
    if (conn->out.empty()) {
      if (conn->core_closed) {
        boost::system::error_code ignored;
        conn->socket.shutdown(tcp::socket::shutdown_send, ignored);
      }
      return;
    }
    std::size_t total = gather(*conn);
    if (!wrote_large) {
      boost::system::error_code error;
      if (!conn->socket.non_blocking()) conn->socket.non_blocking(true, error);
      // One buffer is a send, several a sendmsg (the kernel copies in the list of pieces).
      const std::size_t written =
          conn->gather.size() == 1
              ? conn->socket.write_some(conn->gather.front(), error)
              : conn->socket.write_some(std::span<const asio::const_buffer>(conn->gather), error);
      if (error && error != asio::error::would_block) return drop(id, conn, true);
      const std::size_t done = error ? 0 : written;
      advance(*conn, done);
      if (done == total) {
        wrote_large = total > kWriteNow;
        continue;
      }
      total = gather(*conn);  // the rest, when the kernel has room
    }
    conn->writing = true;
    // Each call offers the kernel all the rest: Asio's default (transfer_all) offers 64 KiB a
    // call, 16 sendmsg and 16 posted completions per 1 MiB (issue 34).
    const auto whole_rest = [](const boost::system::error_code& error, std::size_t) {
      return error ? std::size_t{0} : kWriteBudget;
    };
    asio::async_write(conn->socket, std::span<const asio::const_buffer>(conn->gather), whole_rest,
                      [this, id, conn, total](const boost::system::error_code& error, std::size_t) {
                        conn->writing = false;
                        if (conn->gone) return;
                        if (error) return drop(id, conn, true);
                        advance(*conn, total);
                        pump(id, conn);
                      });
    return;
  }
}

// The next write: conn.gather lists its pieces (at most kWriteBudget bytes), conn.progress what
// each queued chunk contributes (bytes, filler). Returns the write's size.
std::size_t AsioProcess::gather(Conn& conn) {
  std::vector<asio::const_buffer>& buffers = conn.gather;
  buffers.clear();
  conn.progress.clear();
  std::size_t budget = kWriteBudget;
  for (OutChunk& chunk : conn.out) {
    if (budget == 0) break;
    const std::size_t bytes = std::min(chunk.bytes.size() - chunk.bytes_done, budget);
    if (bytes > 0) buffers.emplace_back(chunk.bytes.data() + chunk.bytes_done, bytes);
    budget -= bytes;
    std::uint64_t filler = 0;
    while (budget > 0 && filler < chunk.filler - chunk.filler_done) {
      const auto piece = static_cast<std::size_t>(std::min<std::uint64_t>(
          {kZeros.size(), budget, chunk.filler - chunk.filler_done - filler}));
      buffers.emplace_back(kZeros.data(), piece);
      filler += piece;
      budget -= piece;
    }
    conn.progress.emplace_back(bytes, filler);
  }
  return kWriteBudget - budget;
}

// `written` bytes of the gathered write reached the kernel, in the order gather listed them:
// the chunks advance, and those sent whole leave the queue.
void AsioProcess::advance(Conn& conn, std::size_t written) {
  for (std::size_t i = 0; i < conn.progress.size() && written > 0; ++i) {
    const std::size_t bytes = std::min(conn.progress[i].first, written);
    written -= bytes;
    const std::size_t filler = std::min<std::uint64_t>(conn.progress[i].second, written);
    written -= filler;
    conn.out[i].bytes_done += bytes;
    conn.out[i].filler_done += filler;
  }
  while (!conn.out.empty() && conn.out.front().bytes_done == conn.out.front().bytes.size() &&
         conn.out.front().filler_done == conn.out.front().filler) {
    // A core that forwards what it read hands back read buffers here: the next read goes into
    // one, so the loop neither copies nor allocates. A frame the core made is too small to be
    // kept (recycle_received); a read never grows what it keeps (until issue 34 it regrew
    // them, and keeping every buffer then made realnet:lmmc_fig10's 32-64 KB one way 27 %
    // slower).
    recycle_received(std::move(conn.out.front().bytes));
    conn.out.pop_front();
  }
}

void AsioProcess::close(ConnId id, bool refused) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  const ConnPtr conn = it->second;
  conn->core_closed = true;
  if (!conn->connected) return drop(id, conn, false);  // gives up connecting
  // A refused stranger gets no orderly close: waiting for its FIN let it keep the descriptor as
  // long as it liked (issue 29, item 3). Whatever it sent unread makes the kernel reset it.
  if (refused) return drop(id, conn, false);
  pump(id, conn);
}

void AsioProcess::drop(ConnId id, const ConnPtr& conn, bool tell_core) {
  if (conn->gone) return;
  conn->gone = true;
  boost::system::error_code ignored;
  conn->socket.close(ignored);
  auto it = conns_.find(id);
  if (it != conns_.end() && it->second == conn) conns_.erase(it);
  if (tell_core && !conn->core_closed && conn->connected) deliver(ClosedInput{id});
}

}  // namespace tsunagi::realnet
