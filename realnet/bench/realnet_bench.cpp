// Loopback ping-pong: the realnet adapter (AsioProcess driving two tiny scripted cores) against
// a plain Boost.Asio echo of the same message sizes, each side on its own thread and
// io_context as two processes would be. Prints the median round trip, the throughput
// (2 x size / round trip) and the adapter/plain ratio per size. docs/realnet.md quotes it.
//
// Paired rounds: a block of the adapter's round trips and one of plain Asio's, back to back
// (in alternating order: AB, BA, AB, ...), make a pair; the ratio printed is the median of the
// pairs' ratios (block median / block median), with its quartiles, so that whatever else runs
// on the machine (a build, CPU hogs) slows both halves of a pair alike and cancels out.
//
//   tsunagi-realnet-bench [--rounds N] [--pairs P] [--sizes 64,1024,...]
//   tsunagi-realnet-bench --only adapter|plain --rounds N --sizes 1048576
// With --only, one side runs once, exactly N round trips per size, so its system calls, page
// faults and copies can be counted alone (strace -c -f, perf stat): the difference between two
// values of N, divided by their difference, is the cost of one round trip, both sides
// (threads) together, without the set-up (docs/realnet.md, "Counts per round trip").
#include <utility>

#include <boost/asio.hpp>

#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <future>
#include <mutex>
#include <string>
#include <thread>

#include "adapter/asio_process.hpp"

namespace rn = tsunagi::realnet;
using namespace tsunagi;
using Clock = std::chrono::steady_clock;

namespace {

// --only: each thread's context switches and CPU time at its end, on standard error, for
// tools/realnet_counts.py (sender: the main thread; echo: the thread that answers).
bool report_threads = false;

void report_thread_usage(const char* who) {
  if (!report_threads) return;
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) != 0) return;
  const auto us = [](const timeval& t) {
    return 1e6 * static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec);
  };
  std::fprintf(stderr, "thread-usage: %s %ld voluntary %ld involuntary %.0f user_us %.0f sys_us\n",
               who, usage.ru_nvcsw, usage.ru_nivcsw, us(usage.ru_utime), us(usage.ru_stime));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The echo side's thread, one for the whole run: both halves of every pair (and every pair)
// run on the same two threads (this one and the main thread), so that where the scheduler puts
// them — on one CPU or on two, which changes a small message's round trip by 2-3 x on an idle
// virtual machine — is the same for the adapter's block and plain Asio's, not drawn anew per
// block.
class EchoThread {
 public:
  EchoThread() : thread_([this] { serve(); }) {}
  ~EchoThread() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  // Runs `job` on the echo thread; the future is ready when it returned.
  std::future<void> run(std::function<void()> job) {
    std::packaged_task<void()> task(std::move(job));
    auto done = task.get_future();
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(task));
    }
    wake_.notify_all();
    return done;
  }

 private:
  void serve() {
    for (;;) {
      std::packaged_task<void()> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return closing_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        task = std::move(jobs_.front());
        jobs_.pop_front();
      }
      task();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::packaged_task<void()>> jobs_;
  bool closing_ = false;
  std::thread thread_;
};

// ------------------------------------------------------------ through the adapter

// Echoes every byte it receives on every connection it accepts: the bytes it was handed go
// back out as they are, without a copy (as plain Asio writes back its read buffer).
class EchoCore final : public Process {
 public:
  void handle(Input& input) override {
    if (auto* r = std::get_if<ReceivedInput>(&input.event))
      emit(SendCmd{r->conn, std::move(r->bytes), 0});
  }
};

// Connects, then sends `size` bytes (a 64-byte head and zero filler, as the core sends bulk)
// and waits for all of them back, `rounds` times; records each round trip.
class PingCore final : public Process {
 public:
  PingCore(Endpoint to, std::uint64_t size, int rounds, std::vector<double>& out)
      : to_(std::move(to)), size_(size), rounds_(rounds), out_(out) {}
  void handle(Input& input) override {
    if (std::holds_alternative<StartedInput>(input.event)) emit(ConnectCmd{1, to_});
    if (std::holds_alternative<ConnectedInput>(input.event)) send(input.now);
    if (auto* r = std::get_if<ReceivedInput>(&input.event)) {
      got_ += r->bytes.size();
      if (got_ < size_) return;
      out_.push_back(static_cast<double>(input.now - sent_at_) / 1e3);
      if (++done_ == rounds_) return emit(ExitCmd{true, ""});
      send(input.now);
    }
  }

 private:
  void send(TimeNs now) {
    got_ = 0;
    sent_at_ = now;
    const std::uint64_t head = std::min<std::uint64_t>(size_, 64);
    emit(SendCmd{1, Bytes(head, 1), size_ - head});
  }
  Endpoint to_;
  std::uint64_t size_;
  int rounds_;
  std::vector<double>& out_;
  std::uint64_t got_ = 0;
  TimeNs sent_at_ = 0;
  int done_ = 0;
};

std::vector<double> adapter_pingpong(EchoThread& echo_thread, std::uint64_t size, int rounds) {
  auto config = std::make_shared<ProtocolConfig>();
  rn::EventLog log("/dev/null", "bench");
  rn::AdapterOptions options;
  options.listen_address = boost::asio::ip::make_address("127.0.0.1");
  options.config = config;
  options.rank = 0;

  boost::asio::io_context echo_io;
  rn::AsioProcess echo(echo_io, std::make_unique<EchoCore>(), options, log);
  echo.open();
  auto echo_done = echo_thread.run([&] {
    echo.start();
    echo_io.run();
    report_thread_usage("echo");
  });
  std::vector<double> samples;
  boost::asio::io_context ping_io;
  rn::AsioProcess ping(ping_io, std::make_unique<PingCore>(echo.endpoint(), size, rounds, samples),
                       options, log);
  ping.open();
  ping.on_exit = [&](const ExitCmd&) {
    ping.shut_down();
    ping_io.stop();
  };
  ping.start();
  ping_io.run();
  boost::asio::post(echo_io, [&] {
    echo.shut_down();
    echo_io.stop();
  });
  echo_done.wait();
  return samples;
}

// ------------------------------------------------------------ plain Asio

std::vector<double> plain_pingpong(EchoThread& echo_thread, std::uint64_t size, int rounds) {
  using boost::asio::ip::tcp;
  boost::asio::io_context server_io;
  tcp::acceptor acceptor(server_io, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  const auto endpoint = acceptor.local_endpoint();
  auto server_done = echo_thread.run([&] {
    tcp::socket socket = acceptor.accept();
    socket.set_option(tcp::no_delay(true));
    std::vector<std::uint8_t> buffer(64 * 1024);
    std::function<void()> echo_more = [&] {
      socket.async_read_some(boost::asio::buffer(buffer), [&](auto error, std::size_t n) {
        if (error) return;
        boost::asio::async_write(socket, boost::asio::buffer(buffer.data(), n),
                                 [&](auto e, std::size_t) {
                                   if (!e) echo_more();
                                 });
      });
    };
    echo_more();
    server_io.run();
    report_thread_usage("echo");
  });
  boost::asio::io_context io;
  tcp::socket socket(io);
  socket.connect(endpoint);
  socket.set_option(tcp::no_delay(true));
  std::vector<std::uint8_t> out(size, 1), in(size);
  std::vector<double> samples;
  for (int r = 0; r < rounds; ++r) {
    const auto start = Clock::now();
    // Writing and reading at once, as the adapter does: a blocking write of a large message
    // would deadlock against an echo that is writing it back.
    boost::asio::async_write(socket, boost::asio::buffer(out), [](auto, std::size_t) {});
    boost::asio::async_read(socket, boost::asio::buffer(in), [](auto, std::size_t) {});
    io.restart();
    io.run();
    samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  socket.close();
  server_done.wait();
  return samples;
}

// --only: one side, exactly `rounds` round trips per size, its median round trip printed.
int run_one_side(const std::string& side, const std::vector<std::uint64_t>& sizes, int rounds) {
  std::printf("%10s %14s\n", "bytes", (side + "_us").c_str());
  EchoThread echo_thread;
  for (const std::uint64_t size : sizes) {
    const auto samples = side == "adapter" ? adapter_pingpong(echo_thread, size, rounds)
                                           : plain_pingpong(echo_thread, size, rounds);
    std::printf("%10llu %14.1f\n", static_cast<unsigned long long>(size),
                samples.empty() ? 0.0 : median(samples));
  }
  report_thread_usage("sender");
  return 0;
}

// The value at fraction q of the sorted values (q = 0.5: the median, as median()).
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tsunagi-realnet-bench: loopback ping-pong, realnet adapter vs plain Asio"};
  int rounds = 1000;
  int pairs = 21;
  std::vector<std::uint64_t> sizes{64, 1024, 65536, 1 << 20, 8 << 20};
  app.add_option("--rounds", rounds,
                 "Round trips per block (a twentieth, at least 20, for sizes >= 1 MiB)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--pairs", pairs, "Pairs of blocks (adapter, plain) per size")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--sizes", sizes, "Message sizes in bytes")->delimiter(',');
  bool each = false;
  app.add_flag("--each", each, "Also print every pair's block medians (standard error)");
  std::string only;
  app.add_option("--only", only,
                 "Run one side once, exactly --rounds round trips per size (for counting)")
      ->check(CLI::IsMember({"adapter", "plain"}));
  CLI11_PARSE(app, argc, argv);
  report_threads = !only.empty();
  if (!only.empty()) return run_one_side(only, sizes, rounds);
  // The first six columns are those of the bench before paired rounds (docs/realnet.md);
  // `ratio` was the ratio of the two sides' medians, it is now the median of the pairs' ratios.
  std::printf("%10s %14s %14s %8s %14s %14s %9s %9s\n", "bytes", "adapter_us", "plain_us", "ratio",
              "adapter_MB/s", "plain_MB/s", "ratio_q1", "ratio_q3");
  EchoThread echo_thread;  // the same two threads for every block (EchoThread)
  for (const std::uint64_t size : sizes) {
    // 50 round trips of 1 MiB take ~20 ms, 1,000 of 64 B ~60 ms: short blocks, so that the two
    // halves of a pair see the same machine.
    const int n = size >= (1 << 20) ? std::max(20, rounds / 20) : rounds;
    std::vector<double> adapter, plain, ratios;
    for (int pair = 0; pair < pairs; ++pair) {
      double a = 0, p = 0;
      if (pair % 2 == 0) {
        a = median(adapter_pingpong(echo_thread, size, n));
        p = median(plain_pingpong(echo_thread, size, n));
      } else {
        p = median(plain_pingpong(echo_thread, size, n));
        a = median(adapter_pingpong(echo_thread, size, n));
      }
      adapter.push_back(a);
      plain.push_back(p);
      ratios.push_back(a / p);
      if (each)
        std::fprintf(stderr, "pair %2d %10llu %s adapter %10.1f plain %10.1f ratio %6.2f\n", pair,
                     static_cast<unsigned long long>(size), pair % 2 == 0 ? "AB" : "BA", a, p,
                     a / p);
    }
    const double a = median(adapter), p = median(plain);
    std::printf("%10llu %14.1f %14.1f %8.2f %14.1f %14.1f %9.2f %9.2f\n",
                static_cast<unsigned long long>(size), a, p, median(ratios),
                2.0 * static_cast<double>(size) / a, 2.0 * static_cast<double>(size) / p,
                quantile(ratios, 0.25), quantile(ratios, 0.75));
  }
  return 0;
}
