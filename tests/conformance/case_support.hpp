// What the conformance cases share: their small scenarios, the stream arithmetic of frames and
// filler, and readable dumps of what a process received (for failure messages).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tsunagi/scenarios/scenario.hpp"
#include "world.hpp"

namespace tsunagi::conformance {

// Every case's LAN: one switch, `hosts` hosts with 1 Gbit/s, 5 us links, one rank per host. A
// simulator can deliver nothing between two ranks faster than kOneWay (host link, switch, host
// link) nor move a payload faster than kHostBandwidth.
scenario::Scenario lan(int hosts);
inline constexpr TimeNs kOneWay = 2 * 5 * kNsPerUs;
inline constexpr double kHostBandwidth = 125e6;  // bytes/s

// Two clusters of one host each: rank 0 in "inside", behind a two-way firewall that drops SYNs
// (firewall_action = "drop"), rank 1 in "outside" (open, with the rendezvous).
// protocol.connect_timeout is `connect_timeout`: a backend that still applies it would report a
// connect the core is waiting for as TimedOut.
scenario::Scenario firewalled_pair(TimeNs connect_timeout);

// lan(hosts) plus a [[faults]] entry killing the process labelled `victim` at `at`.
scenario::Scenario lan_with_kill(int hosts, const std::string& victim, TimeNs at);

// Real time a run may take on realnet before the harness stops it; simulators ignore it.
inline constexpr std::chrono::seconds kWallLimit{8};

// An endpoint no backend can know: not even ADDRESS:PORT.
inline const Endpoint kUnknownEndpoint = "no-such-endpoint";

// `size` bytes, none of them zero, so filler (zeros) cannot be mistaken for payload.
Bytes pattern(std::size_t size, std::uint8_t seed);

// The stream a list of SendCmds puts on a connection: each one's bytes, then its filler zeros.
Bytes stream_of(const std::vector<SendCmd>& sends);
// The stream a process received on `conn`: each ReceivedInput's bytes, then its filler as the
// zeros a stream backend delivers instead (docs/architecture.md, "Filler").
Bytes stream_received(const Outcome& outcome, Rank rank, ConnId conn);
// Bytes plus filler of every ReceivedInput on `conn`.
std::uint64_t received_total(const Outcome& outcome, Rank rank, ConnId conn);
// Index of the first byte where the streams differ (a shorter one differs at its end), or -1.
std::int64_t first_difference(const Bytes& a, const Bytes& b);

// "t=1.000020 ms Received{conn=1, 5 B, filler 0}" and friends.
std::string describe(const Input& input);
// Every input of `rank`, one per line (at most `limit` lines), for INFO.
std::string describe_all(const Outcome& outcome, Rank rank, std::size_t limit = 40);
// The exits and the backend's verdict, for INFO.
std::string describe_exits(const Outcome& outcome);

}  // namespace tsunagi::conformance
