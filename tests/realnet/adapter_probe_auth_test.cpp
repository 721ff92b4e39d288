// Issue 29, items 2 and 3 on the adapter alone (docs/security.md, "Measurements only from the
// run", "Every accepted connection has a deadline"): forged RTT pongs do not count, throughput
// sinks serve only probes that prove the run's secret, and a stranger's sink connection is
// closed at once or at the deadline. Loopback, no root; the strangers are played by the test.
#include <utility>

#include <boost/asio.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <thread>

#include "adapter/asio_process.hpp"
#include "scripted_core.hpp"

namespace rn = tsunagi::realnet;
using namespace tsunagi;
using namespace std::chrono_literals;

namespace {

const std::string kSecret = "0123456789abcdef0123456789abcdef";

using realnet_test::ScriptedCore;

rn::AdapterOptions options_with_secret() {
  auto config = std::make_shared<ProtocolConfig>();
  rn::AdapterOptions options;
  options.listen_address = boost::asio::ip::make_address("127.0.0.1");
  options.config = config;
  options.rank = 0;
  options.secret = kSecret;
  options.purpose_timeout = std::chrono::milliseconds(500);
  return options;
}

// A UDP socket of the test's on 127.0.0.1 (POSIX: the test plays strangers byte by byte).
struct Udp {
  int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in at{};
  Udp() {
    at.sin_family = AF_INET;
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&at), sizeof at) == 0);
    socklen_t len = sizeof at;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&at), &len);
    timeval tv{0, 100'000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  ~Udp() { ::close(fd); }
  std::string endpoint() const { return "127.0.0.1:" + std::to_string(ntohs(at.sin_port)); }
  void send_to(const std::vector<std::uint8_t>& bytes, const sockaddr_in& to) const {
    ::sendto(fd, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to);
  }
};

// A probe target that answers every ping truly but `delay` late, while at the moment each ping
// arrives a stranger on another port and a spoofer on the target's own port (who cannot see
// the ping's nonce) answer with the ping's probe id and number. Runs until `stop`.
void forged_target(const Udp& target, const Udp& stranger, std::chrono::milliseconds delay,
                   const std::atomic<bool>& stop) {
  std::vector<std::uint8_t> ping(2048);
  while (!stop) {
    sockaddr_in from{};
    socklen_t len = sizeof from;
    const ssize_t n = ::recvfrom(target.fd, ping.data(), ping.size(), 0,
                                 reinterpret_cast<sockaddr*>(&from), &len);
    if (n < 13 || ping[0] != 'P') continue;
    std::vector<std::uint8_t> forged(ping.begin(), ping.begin() + n);
    forged[0] = 'Q';
    std::fill(forged.begin() + 13, forged.end(), 0);  // id and number right, no nonce
    stranger.send_to(forged, from);
    target.send_to(forged, from);
    std::vector<std::uint8_t> forged_copy(ping.begin(), ping.begin() + n);
    forged_copy[0] = 'Q';
    stranger.send_to(forged_copy, from);  // a perfect echo, from the wrong port
    std::this_thread::sleep_for(delay);
    std::vector<std::uint8_t> truth(ping.begin(), ping.begin() + n);
    truth[0] = 'Q';
    target.send_to(truth, from);
  }
}

// Runs a scripted core with options_with_secret() until it exits (or 20 s pass).
void run_script(ScriptedCore::Script script, rn::AdapterOptions options = options_with_secret()) {
  realnet_test::run_until_exit(std::move(script), options);
}

}  // namespace

TEST_CASE("forged RTT pongs do not count: only the target's own echo of the nonce",
          "[realnet][hostile]") {
  Udp target, stranger;
  std::atomic<bool> stop{false};
  std::thread attacker([&] { forged_target(target, stranger, 30ms, stop); });
  std::optional<RttMeasuredInput> result;
  run_script([&](const Input& in, auto emit) {
    if (std::holds_alternative<StartedInput>(in.event))
      emit(ProbeRttCmd{3, target.endpoint(), 64, in.now + 2 * kNsPerSec});
    if (auto* r = std::get_if<RttMeasuredInput>(&in.event)) {
      result = *r;
      emit(ExitCmd{true, ""});
    }
  });
  stop = true;
  attacker.join();
  REQUIRE(result);
  CHECK(result->ok);
  // Before the fix the forged pongs, sent the moment each ping arrived, were the measurement
  // (tens of microseconds); the true answer comes 30 ms late.
  CHECK(result->rtt >= 30 * kNsPerMs);
}

namespace {

// Connects to `to` and sends `bytes`; returns how long until the daemon closed the connection
// (EOF or reset), and whether it ever sent anything.
struct Outcome {
  std::chrono::milliseconds closed_after{0};
  bool answered = false;
};
Outcome stranger_sink(const Endpoint& to, const std::vector<std::uint8_t>& bytes) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket s(io);
  s.connect(rn::parse_tcp_endpoint(to));
  timeval patience{5, 0};  // a sink that never closes fails the test instead of hanging it
  ::setsockopt(s.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  const auto start = std::chrono::steady_clock::now();
  boost::asio::write(s, boost::asio::buffer(bytes));
  Outcome out;
  std::array<std::uint8_t, 16> got{};
  // Plain recv: Asio's blocking reads wait in poll() and would ignore SO_RCVTIMEO.
  while (true) {
    const ssize_t n = ::recv(s.native_handle(), got.data(), got.size(), 0);
    if (n <= 0) break;  // closed, reset, or out of patience
    out.answered = true;
  }
  out.closed_after = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  return out;
}

}  // namespace

TEST_CASE("a throughput sink serves only probes that prove the run's secret",
          "[realnet][hostile]") {
  boost::asio::io_context io;
  rn::EventLog log("/dev/null", "sink");
  rn::AsioProcess sink(io, std::make_unique<ScriptedCore>([](const Input&, auto) {}),
                       options_with_secret(), log);
  sink.open();
  const Endpoint at = sink.endpoint();
  std::thread serving([&] {
    sink.start();
    io.run_for(std::chrono::seconds(20));
  });
  // The old header, "B" and a size: no proof. Nothing is confirmed, and the connection is
  // closed by the deadline (500 ms here), not held until the stranger goes.
  std::vector<std::uint8_t> old{'B', 1, 0, 0, 0, 0, 0, 0, 0, 0};
  const Outcome unproven = stranger_sink(at, old);
  CHECK_FALSE(unproven.answered);
  CHECK(unproven.closed_after < 3s);
  // A full header with a made-up MAC: closed at once.
  std::vector<std::uint8_t> guessed(1 + rn::kBulkHeaderSize + 1, 7);
  guessed[0] = 'B';
  const Outcome wrong = stranger_sink(at, guessed);
  CHECK_FALSE(wrong.answered);
  CHECK(wrong.closed_after < 400ms);
  // The positive control: a probe with the secret gets its confirmation.
  std::optional<ThroughputMeasuredInput> result;
  run_script([&](const Input& in, auto emit) {
    if (std::holds_alternative<StartedInput>(in.event)) emit(ProbeThroughputCmd{4, at, 1 << 20});
    if (auto* t = std::get_if<ThroughputMeasuredInput>(&in.event)) {
      result = *t;
      emit(ExitCmd{true, ""});
    }
  });
  boost::asio::post(io, [&] {
    sink.shut_down();
    io.stop();
  });
  serving.join();
  REQUIRE(result);
  CHECK(result->ok);
}
