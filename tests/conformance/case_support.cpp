// See case_support.hpp.
#include "case_support.hpp"

#include <cstdio>
#include <type_traits>

#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::conformance {

scenario::Scenario lan(int hosts) {
  return scenario::load_scenario_string(R"(name = "conformance-lan"
[[network.switch]]
name = "sw"
hosts = )" + std::to_string(hosts) + R"(
host_bandwidth = "1Gbps"
host_latency = "5us"
)",
                                        "conformance-lan.toml");
}

scenario::Scenario firewalled_pair(TimeNs connect_timeout) {
  return scenario::load_scenario_string(R"(name = "conformance-firewall"
[network.wan]
rendezvous = "outside"
[[network.cluster]]
name = "inside"
hosts = 1
host_bandwidth = "1Gbps"
host_latency = "5us"
policy = "firewall"
firewall_action = "drop"
[[network.cluster]]
name = "outside"
hosts = 1
host_bandwidth = "1Gbps"
host_latency = "5us"
[protocol]
connect_timeout = ")" + std::to_string(connect_timeout) +
                                            R"(ns"
)",
                                        "conformance-firewall.toml");
}

scenario::Scenario lan_with_kill(int hosts, const std::string& victim, TimeNs at) {
  scenario::Scenario s = lan(hosts);
  s.faults.push_back(scenario::FaultSpec{victim, at});
  return s;
}

Bytes pattern(std::size_t size, std::uint8_t seed) {
  Bytes bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>(1 + (seed + i) % 251);
  return bytes;
}

Bytes stream_of(const std::vector<SendCmd>& sends) {
  Bytes stream;
  for (const SendCmd& send : sends) {
    stream.insert(stream.end(), send.bytes.begin(), send.bytes.end());
    stream.resize(stream.size() + send.filler, 0);
  }
  return stream;
}

Bytes stream_received(const Outcome& outcome, Rank rank, ConnId conn) {
  Bytes stream;
  for (const auto& [at, received] : outcome.of<ReceivedInput>(rank)) {
    if (received.conn != conn) continue;
    stream.insert(stream.end(), received.bytes.begin(), received.bytes.end());
    stream.resize(stream.size() + received.filler, 0);
  }
  return stream;
}

std::uint64_t received_total(const Outcome& outcome, Rank rank, ConnId conn) {
  std::uint64_t total = 0;
  for (const auto& [at, received] : outcome.of<ReceivedInput>(rank))
    if (received.conn == conn) total += received.bytes.size() + received.filler;
  return total;
}

std::int64_t first_difference(const Bytes& a, const Bytes& b) {
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i)
    if (a[i] != b[i]) return static_cast<std::int64_t>(i);
  return a.size() == b.size() ? -1 : static_cast<std::int64_t>(common);
}

namespace {

std::string conn_text(ConnId conn) {
  if ((conn & kAcceptedConnBit) == 0) return std::to_string(conn);
  return "accepted#" + std::to_string(conn & ~kAcceptedConnBit);
}

const char* reason_text(ConnectFailure reason) {
  switch (reason) {
    case ConnectFailure::Refused:
      return "Refused";
    case ConnectFailure::TimedOut:
      return "TimedOut";
    case ConnectFailure::Unreachable:
      return "Unreachable";
  }
  return "?";
}

}  // namespace

std::string describe(const Input& input) {
  char when[48];
  std::snprintf(when, sizeof when, "t=%.6f ms ", static_cast<double>(input.now) / 1e6);
  const std::string what = std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, StartedInput>)
          return "Started{rank=" + std::to_string(e.rank) + ", self=" + e.self + "}";
        else if constexpr (std::is_same_v<T, ConnectedInput>)
          return "Connected{conn=" + conn_text(e.conn) + "}";
        else if constexpr (std::is_same_v<T, AcceptedInput>)
          return "Accepted{conn=" + conn_text(e.conn) + "}";
        else if constexpr (std::is_same_v<T, ConnectFailedInput>)
          return "ConnectFailed{conn=" + conn_text(e.conn) + ", " + reason_text(e.reason) + "}";
        else if constexpr (std::is_same_v<T, ReceivedInput>)
          return "Received{conn=" + conn_text(e.conn) + ", " + std::to_string(e.bytes.size()) +
                 " B, filler " + std::to_string(e.filler) + "}";
        else if constexpr (std::is_same_v<T, ClosedInput>)
          return "Closed{conn=" + conn_text(e.conn) + "}";
        else if constexpr (std::is_same_v<T, TimerFiredInput>)
          return "TimerFired{" + std::to_string(e.timer) + "}";
        else if constexpr (std::is_same_v<T, RttMeasuredInput>)
          return "RttMeasured{probe=" + std::to_string(e.probe) + ", rtt=" + std::to_string(e.rtt) +
                 " ns, ok=" + (e.ok ? "true" : "false") + "}";
        else if constexpr (std::is_same_v<T, ComputeDoneInput>)
          return "ComputeDone{" + std::to_string(e.task) + "}";
        else if constexpr (std::is_same_v<T, ThroughputMeasuredInput>)
          return "ThroughputMeasured{probe=" + std::to_string(e.probe) +
                 ", bytes=" + std::to_string(e.bytes) + ", elapsed=" + std::to_string(e.elapsed) +
                 " ns, ok=" + (e.ok ? "true" : "false") + "}";
        else
          static_assert(sizeof(T) == 0, "an input kind is not described");
      },
      input.event);
  return when + what;
}

std::string describe_all(const Outcome& outcome, Rank rank, std::size_t limit) {
  const std::vector<Input>& inputs = outcome.all(rank);
  std::string text =
      runner::process_label(rank) + " received " + std::to_string(inputs.size()) + " inputs:";
  for (std::size_t i = 0; i < inputs.size() && i < limit; ++i) text += "\n  " + describe(inputs[i]);
  if (inputs.size() > limit) text += "\n  ...";
  return text;
}

std::string describe_exits(const Outcome& outcome) {
  std::string text = "exits:";
  for (const ExitRecord& exit : outcome.exits) {
    char when[48];
    std::snprintf(when, sizeof when, " t=%.6f ms ", static_cast<double>(exit.now) / 1e6);
    text += "\n  " + exit.proc + when + (exit.ok ? "ok" : "FAILED") + " " + exit.reason;
  }
  text += "\nall exited ok: " +
          std::string(outcome.all_exited_ok ? "yes" : "no (" + outcome.failure + ")");
  return text;
}

}  // namespace tsunagi::conformance
