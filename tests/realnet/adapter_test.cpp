// The realnet adapter on loopback, with scripted cores: every command it performs and every
// input it reports, over real kernel sockets (no root needed).
#include <utility>

#include <boost/asio.hpp>

#include <catch2/catch.hpp>
#include <functional>
#include <thread>

#include "adapter/asio_process.hpp"
#include "scripted_core.hpp"

namespace rn = tsunagi::realnet;
using namespace tsunagi;

namespace {

using realnet_test::ScriptedCore;

rn::AdapterOptions loopback_options() {
  auto config = std::make_shared<ProtocolConfig>();
  config->overlay.connect_timeout = 2 * kNsPerSec;
  rn::AdapterOptions options;
  options.listen_address = boost::asio::ip::make_address("127.0.0.1");
  options.config = config;
  options.rank = 0;
  return options;
}

// Echoes by handing the received bytes themselves back to the adapter, as a forwarding core
// does: the adapter's read blocks then come back to it through its writes (recycle_received).
class MovingEcho final : public Process {
 public:
  void handle(Input& input) override {
    if (auto* r = std::get_if<ReceivedInput>(&input.event))
      emit(SendCmd{r->conn, std::move(r->bytes), 0});
  }
};

std::unique_ptr<Process> copying_echo() {
  return std::make_unique<ScriptedCore>([](const Input& in, auto emit) {
    if (auto* r = std::get_if<ReceivedInput>(&in.event)) emit(SendCmd{r->conn, r->bytes, 0});
  });
}

// A peer on its own thread that echoes stream bytes back and serves probes; it lives for the
// test's duration.
struct Peer {
  boost::asio::io_context io;
  rn::EventLog log{"/dev/null", "peer"};
  rn::AsioProcess process;
  std::thread thread;
  explicit Peer(std::unique_ptr<Process> echo = copying_echo())
      : process(io, std::move(echo), loopback_options(), log) {
    process.open();
    thread = std::thread([this] {
      process.start();
      io.run();
    });
  }
  ~Peer() {
    boost::asio::post(io, [this] {
      process.shut_down();
      io.stop();
    });
    thread.join();
  }
};

// Runs a scripted core until it exits (or 20 s pass); returns every input it saw.
std::vector<InputEvent> run_script(ScriptedCore::Script script) {
  return realnet_test::run_until_exit(std::move(script), loopback_options());
}

}  // namespace

TEST_CASE("frames and filler cross a real TCP connection in order", "[realnet]") {
  Peer peer;
  const Endpoint to = peer.process.endpoint();
  std::uint64_t echoed = 0;
  Bytes stream;
  run_script([&](const Input& in, auto emit) {
    if (std::holds_alternative<StartedInput>(in.event)) {
      emit(ConnectCmd{1, to});
      emit(SendCmd{1, Bytes{1, 2, 3}, 100000});  // queued before the connect completes
      emit(SendCmd{1, Bytes{4, 5}, 0});
    }
    if (auto* r = std::get_if<ReceivedInput>(&in.event)) {
      CHECK(r->filler == 0);  // a stream backend delivers filler as real zero bytes
      stream.insert(stream.end(), r->bytes.begin(), r->bytes.end());
      echoed += r->bytes.size();
      if (echoed == 3 + 100000 + 2) emit(ExitCmd{true, ""});
    }
  });
  REQUIRE(stream.size() == 100005);
  CHECK(stream[0] == 1);
  CHECK(stream[2] == 3);
  CHECK(std::all_of(stream.begin() + 3, stream.begin() + 100003, [](auto b) { return b == 0; }));
  CHECK(stream[100003] == 4);
  CHECK(stream[100004] == 5);
}

// Past 64 KiB a read is scattered over blocks, each its own Received, and the blocks an echo
// forwards come back to the reads once written: several MiB, with filler between, must still
// cross both ways byte for byte in order.
TEST_CASE("MiB messages cross in order through read blocks the echo forwards", "[realnet]") {
  Peer peer(std::make_unique<MovingEcho>());
  const Endpoint to = peer.process.endpoint();
  const auto pattern = [](std::size_t i) { return static_cast<std::uint8_t>(i * 131 + i / 65521); };
  const std::vector<std::size_t> sizes{1 << 20, 333'333, (2 << 20) + 17};
  constexpr std::uint64_t kFiller = 100'000;
  Bytes expected;
  for (const std::size_t size : sizes) {
    for (std::size_t i = 0; i < size; ++i) expected.push_back(pattern(expected.size()));
    expected.insert(expected.end(), kFiller, 0);
  }
  Bytes stream;
  std::size_t received = 0;
  run_script([&](const Input& in, auto emit) {
    if (std::holds_alternative<StartedInput>(in.event)) {
      emit(ConnectCmd{1, to});
      std::size_t at = 0;
      for (const std::size_t size : sizes) {
        emit(SendCmd{1, Bytes(expected.begin() + at, expected.begin() + at + size), kFiller});
        at += size + kFiller;
      }
    }
    if (auto* r = std::get_if<ReceivedInput>(&in.event)) {
      ++received;
      stream.insert(stream.end(), r->bytes.begin(), r->bytes.end());
      if (stream.size() == expected.size()) emit(ExitCmd{true, ""});
    }
  });
  REQUIRE(stream.size() == expected.size());
  CHECK(stream == expected);
  CHECK(received > 1);
}

// Writes of up to 64 KiB are made at once, what the kernel does not take goes on with
// async_write, and the sends of one step go out as one write (issue 34). Against a peer that
// reads nothing for a while, with a small send buffer, writes come back short or would block:
// every byte must still arrive once, in order, after the purpose byte.
TEST_CASE("writes made at once keep their order when the kernel's buffer is full", "[realnet]") {
  using boost::asio::ip::tcp;
  boost::asio::io_context peer_io;
  tcp::acceptor acceptor(peer_io, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  const Endpoint to = "127.0.0.1:" + std::to_string(acceptor.local_endpoint().port());
  constexpr int kSteps = 30;
  constexpr int kFramesPerStep = 3;
  constexpr std::size_t kFrame = 20'000;  // 60,000 bytes a step: each step's write is made at once
  constexpr std::size_t kTotal = kSteps * kFramesPerStep * kFrame;
  const auto pattern = [](std::size_t i) { return static_cast<std::uint8_t>(i * 7 + i / 251); };
  Bytes got(1 + kTotal);
  std::thread reader([&] {
    tcp::socket socket = acceptor.accept();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the sender's writes back up
    boost::system::error_code error;
    boost::asio::read(socket, boost::asio::buffer(got), error);
  });

  boost::asio::io_context io;
  rn::EventLog log("/dev/null", "test");
  std::size_t at = 0;
  int steps = 0;
  const auto script = [&](const Input& in, auto emit) {
    const auto step = [&] {
      for (int f = 0; f < kFramesPerStep; ++f) {
        Bytes frame(kFrame);
        for (auto& byte : frame) byte = pattern(at++);
        emit(SendCmd{1, std::move(frame), 0});
      }
      if (++steps < kSteps) return emit(ArmTimerCmd{1, in.now + kNsPerMs});
      emit(ExitCmd{true, ""});
    };
    if (std::holds_alternative<StartedInput>(in.event)) {
      emit(SetWindowCmd{1, 16 * 1024, 0});
      emit(ConnectCmd{1, to});
    }
    if (std::holds_alternative<ConnectedInput>(in.event) ||
        std::holds_alternative<TimerFiredInput>(in.event))
      step();
  };
  rn::AsioProcess process(io, std::make_unique<ScriptedCore>(script), loopback_options(), log);
  process.open();
  boost::asio::steady_timer linger(io);
  std::function<void()> wait_flushed = [&] {
    if (process.flushed()) {
      process.shut_down();
      return io.stop();
    }
    linger.expires_after(std::chrono::milliseconds(2));
    linger.async_wait([&](const boost::system::error_code&) { wait_flushed(); });
  };
  process.on_exit = [&](const ExitCmd&) { boost::asio::post(io, wait_flushed); };
  process.start();
  io.run_for(std::chrono::seconds(20));
  reader.join();
  REQUIRE(process.exited());
  REQUIRE(steps == kSteps);
  CHECK(got[0] == rn::kPurposeFrames);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kTotal; ++i) wrong += got[1 + i] != pattern(i);
  CHECK(wrong == 0);
}

TEST_CASE("a refused connect becomes ConnectFailed(Refused)", "[realnet]") {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor closed(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  const auto port = closed.local_endpoint().port();
  closed.close();  // nobody listens there now
  std::optional<ConnectFailedInput> failed;
  run_script([&](const Input& in, auto emit) {
    if (std::holds_alternative<StartedInput>(in.event))
      emit(ConnectCmd{7, "127.0.0.1:" + std::to_string(port)});
    if (auto* f = std::get_if<ConnectFailedInput>(&in.event)) {
      failed = *f;
      emit(ExitCmd{true, ""});
    }
  });
  REQUIRE(failed);
  CHECK(failed->conn == 7);
  CHECK(failed->reason == ConnectFailure::Refused);
}

TEST_CASE("a malformed endpoint is unreachable, not a crash", "[realnet]") {
  std::optional<ConnectFailedInput> failed;
  run_script([&](const Input& in, auto emit) {
    if (std::holds_alternative<StartedInput>(in.event)) emit(ConnectCmd{3, "no-port-here"});
    if (auto* f = std::get_if<ConnectFailedInput>(&in.event)) {
      failed = *f;
      emit(ExitCmd{true, ""});
    }
  });
  REQUIRE(failed);
  CHECK(failed->reason == ConnectFailure::Unreachable);
}

TEST_CASE("RTT probes measure the UDP echo, and a silent target fails the probe", "[realnet]") {
  Peer peer;
  const Endpoint to = peer.process.endpoint();
  std::vector<RttMeasuredInput> results;
  run_script([&](const Input& in, auto emit) {
    if (std::holds_alternative<StartedInput>(in.event)) {
      emit(ProbeRttCmd{1, to, 64, in.now + 2 * kNsPerSec});
      // Discard port: nobody answers, the echo is lost at its deadline.
      emit(ProbeRttCmd{2, "127.0.0.1:9", 64, in.now + 100 * kNsPerMs});
    }
    if (auto* r = std::get_if<RttMeasuredInput>(&in.event)) {
      results.push_back(*r);
      if (results.size() == 2) emit(ExitCmd{true, ""});
    }
  });
  REQUIRE(results.size() == 2);
  const auto& good = results[0].probe == 1 ? results[0] : results[1];
  const auto& silent = results[0].probe == 2 ? results[0] : results[1];
  CHECK(good.ok);
  CHECK(good.rtt > 0);
  CHECK(good.rtt < 100 * kNsPerMs);
  CHECK_FALSE(silent.ok);
  CHECK(silent.timed_out);
}

TEST_CASE("a throughput probe moves the bytes and times them until the sink confirms",
          "[realnet]") {
  Peer peer;
  const Endpoint to = peer.process.endpoint();
  std::optional<ThroughputMeasuredInput> result;
  run_script([&](const Input& in, auto emit) {
    if (std::holds_alternative<StartedInput>(in.event)) emit(ProbeThroughputCmd{9, to, 32u << 20});
    if (auto* t = std::get_if<ThroughputMeasuredInput>(&in.event)) {
      result = *t;
      emit(ExitCmd{true, ""});
    }
  });
  REQUIRE(result);
  CHECK(result->ok);
  CHECK(result->bytes == (32u << 20));
  // Loopback moves GB/s, not TB/s: 32 MiB cannot take less than ~1 ms.
  CHECK(result->elapsed > kNsPerMs);
}

TEST_CASE("timers and computations come back as inputs at their time", "[realnet]") {
  TimeNs fired_at = 0, computed_at = 0, started_at = 0;
  run_script([&](const Input& in, auto emit) {
    if (std::holds_alternative<StartedInput>(in.event)) {
      started_at = in.now;
      emit(ArmTimerCmd{5, in.now + 30 * kNsPerMs});
      emit(ComputeCmd{6, 10 * kNsPerMs});
    }
    if (std::holds_alternative<TimerFiredInput>(in.event)) {
      fired_at = in.now;
      emit(ExitCmd{true, ""});
    }
    if (std::holds_alternative<ComputeDoneInput>(in.event)) computed_at = in.now;
  });
  CHECK(computed_at - started_at >= 10 * kNsPerMs);
  CHECK(fired_at - started_at >= 30 * kNsPerMs);
  CHECK(computed_at < fired_at);
}
