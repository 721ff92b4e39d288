// Payloads of each frame type: plain structs, their encoders, and strict decoders that reject
// truncated, oversized or trailing data with a reason.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tsunagi/model/types.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi::wire {

template <class T>
using Decoded = std::variant<T, DecodeError>;

// Limits that keep a garbage count from allocating gigabytes.
constexpr std::size_t kMaxRanks = 1u << 20;
constexpr std::size_t kMaxEndpointLength = 256;

// Relay: a node attaching to a relay of its site (plan = relay). Collect: a window's collector
// to a leader it orders (groups = "partition"): RTT orders and endpoints, during inference only.
enum class ConnPurpose : std::uint8_t {
  Control = 0,
  Static = 1,
  Shortcut = 2,
  Relay = 3,
  Collect = 4
};

struct HelloMsg {
  Rank rank = kNoRank;
  ConnPurpose purpose = ConnPurpose::Control;
};
// `site`: the LAN the rank runs in ("" without clusters); the relay plan groups ranks by it.
struct RegisterMsg {
  Rank rank = kNoRank;
  std::string endpoint;
  std::string host;
  std::string site;
};
struct DirectoryMsg {  // index = rank
  std::vector<std::string> endpoints;
  std::vector<std::string> hosts;  // the host label each rank registered with
};
struct RttReportMsg {
  Rank rank = kNoRank;
  std::vector<Rank> near;
  std::uint64_t probes = 0;
};
// Hierarchical plan (overlay/hierarchy.hpp): what a rank learns besides its own group, which
// is then the message's only group.
struct LeaderLinks {
  Rank leader = kNoRank;        // the group's leader (may be the receiver)
  Rank parent = kNoRank;        // leaders: the leader above; kNoRank at the root and for members
  std::uint16_t up = 0;         // leader hops from the own leader to the root leader
  std::uint16_t height = 0;     // the tree of leaders' height (bounds every route)
  std::vector<Rank> children;   // leaders: the leaders right below, sorted
  std::vector<Rank> below;      // leaders: every rank beneath outside the own group, sorted
  std::vector<Rank> below_via;  // leaders: the child each of `below` is reached through
  bool operator==(const LeaderLinks&) const = default;
};
struct GroupsMsgBody {
  Groups groups;
  std::optional<LeaderLinks> links;  // plan = "hierarchical" only
};
struct RouteEntry {
  Rank dest = kNoRank;
  std::uint16_t dist = 0;
};
struct RouteRoundMsg {
  std::uint32_t round = 0;
  bool final = false;
  std::vector<RouteEntry> entries;
};
// Tree inference (paper 000 §2.2): the rendezvous has a node send `bytes` to rank `to`; orders
// sent together run together. The node answers with the transfer's duration.
struct ProbeOrderMsg {
  std::uint64_t probe = 0;
  Rank to = kNoRank;
  std::uint64_t bytes = 0;
};
struct ProbeResultMsg {
  std::uint64_t probe = 0;
  std::uint64_t bytes = 0;
  TimeNs elapsed = 0;
  bool ok = false;
};
// Scalable inference: the rendezvous names the ranks a node measures; the node answers with
// one RTT per rank (0 = the probe failed).
struct RttOrderMsg {
  std::uint32_t round = 0;
  std::vector<Rank> targets;
};
struct RttColumnMsg {
  std::uint32_t round = 0;
  std::vector<Rank> peers;
  std::vector<std::uint64_t> rtts;
};
// Directory on demand: a node asks for the endpoints it is about to use; the rendezvous answers
// with one endpoint per rank, in the order asked.
struct EndpointQueryMsg {
  std::vector<Rank> ranks;
};
struct EndpointReplyMsg {
  std::vector<Rank> ranks;
  std::vector<std::string> endpoints;
};
// groups = "partition" with windows: the rendezvous hands one window's rounds to the window's
// first host. `ranks` sorted; `rep_offsets[i]`: how far back in `ranks` the first rank on
// ranks[i]'s host is (0: ranks[i] measures for its host); `endpoints`: of the ranks that
// measure, in order.
struct WindowOrderMsg {
  std::vector<Rank> ranks;
  std::vector<std::int32_t> rep_offsets;
  std::vector<std::string> endpoints;
};
// The collector's answer: the window's groups, for every two of them the smallest RTT measured
// between their ranks (the switch tree's links), and what the rounds cost.
struct WindowLink {
  Rank a = kNoRank;
  Rank b = kNoRank;
  std::uint64_t rtt = 0;
  bool operator==(const WindowLink&) const = default;
};
struct WindowGroupsMsg {
  Groups groups;
  std::vector<WindowLink> links;
  std::uint64_t probes = 0;
  std::uint32_t levels = 0;
  std::uint64_t max_probes_per_rank = 0;  // the chain's probe included
};
struct DataMsg {
  std::uint32_t tag = 0;
  Bytes body;
};

// Relays (paper 001; docs/relay.md). A relay is named by its label (its host, "chiba-relay0").
struct RelayEntry {
  std::string label;
  std::string site;
  std::string endpoint;
};
struct RelayRegisterMsg {
  RelayEntry relay;
};
// To a relay: every relay (itself included) and the ranks told to attach to it first. To a
// node: the relays of its site, the one to attach to first, then the fall-backs in order.
struct RelayListMsg {
  std::vector<RelayEntry> relays;
  std::vector<Rank> expected;
};
struct RelayHelloMsg {
  std::string label;
};
// Flooded link state: the origin's live relay links, the ranks attached to it, and whether all
// its own connect attempts have settled (succeeded or failed).
struct LinkAdvertMsg {
  std::string origin;
  std::uint64_t seq = 0;
  bool settled = false;
  std::vector<std::string> neighbours;
  std::vector<Rank> ranks;
};
// Goes back to the source of a data frame (header dst) that a relay could not deliver (header
// src = the frame's destination); tag and seq name the lost message.
struct UndeliverableMsg {
  std::uint32_t tag = 0;
  std::uint32_t seq = 0;
  std::string reason;
};

Frame make_hello(const HelloMsg& m);
Frame make_register(const RegisterMsg& m);
Frame make_directory(const DirectoryMsg& m);
Frame make_rtt_report(const RttReportMsg& m);
Frame make_probe_order(const ProbeOrderMsg& m);
Frame make_rtt_order(const RttOrderMsg& m);
Frame make_rtt_column(const RttColumnMsg& m);
Frame make_probe_result(const ProbeResultMsg& m);
Frame make_groups(const GroupsMsgBody& m);
Frame make_route_round(Rank src, Rank dst, const RouteRoundMsg& m);
Frame make_data(Rank src, Rank dst, std::uint32_t seq, const DataMsg& m, std::uint64_t filler);
Frame make_endpoint_query(const EndpointQueryMsg& m);
Frame make_endpoint_reply(const EndpointReplyMsg& m);
Frame make_window_order(const WindowOrderMsg& m);
Frame make_window_groups(const WindowGroupsMsg& m);
Frame make_relay_register(const RelayRegisterMsg& m);
Frame make_relay_list(const RelayListMsg& m);
Frame make_relay_hello(const RelayHelloMsg& m);
Frame make_link_advert(const LinkAdvertMsg& m);
Frame make_undeliverable(Rank lost_dst, Rank back_to, const UndeliverableMsg& m);
Frame make_settled(Rank rank);
// Header src = the rank whose connect failed, dst = the rank it could not reach; no payload.
Frame make_peer_unreachable(Rank from, Rank to);
// protocol.window = "auto" (issue 32): `from` asks for its turn to measure `to`'s path, or says
// it is done (seq 1); the rendezvous grants turns one measurer per measured rank at a time.
Frame make_probe_turn(Rank from, Rank to, bool done);
Frame make_probe_turn_grant(Rank from, Rank to);
Frame make_start();
Frame make_done(Rank rank);
Frame make_shutdown();
Frame make_shutdown_ack();
Frame make_release();
// Why a shortcut connection is retired (the frame's seq; anything else reads as Evicted).
enum class GoodbyeReason : std::uint32_t {
  Evicted = 0,    // the sender's cache made room: the pair has no shortcut any more
  Duplicate = 1,  // both ends opened one; the pair keeps the lower rank's, this is the other
};
Frame make_goodbye(GoodbyeReason reason = GoodbyeReason::Evicted);
GoodbyeReason goodbye_reason(const Frame& f);

Decoded<HelloMsg> read_hello(const Frame& f);
Decoded<RegisterMsg> read_register(const Frame& f);
Decoded<DirectoryMsg> read_directory(const Frame& f);
Decoded<RttReportMsg> read_rtt_report(const Frame& f);
Decoded<ProbeOrderMsg> read_probe_order(const Frame& f);
Decoded<RttOrderMsg> read_rtt_order(const Frame& f);
Decoded<RttColumnMsg> read_rtt_column(const Frame& f);
Decoded<ProbeResultMsg> read_probe_result(const Frame& f);
Decoded<GroupsMsgBody> read_groups(const Frame& f);
Decoded<RouteRoundMsg> read_route_round(const Frame& f);
Decoded<DataMsg> read_data(const Frame& f);
Decoded<EndpointQueryMsg> read_endpoint_query(const Frame& f);
Decoded<EndpointReplyMsg> read_endpoint_reply(const Frame& f);
Decoded<WindowOrderMsg> read_window_order(const Frame& f);
Decoded<WindowGroupsMsg> read_window_groups(const Frame& f);
Decoded<RelayRegisterMsg> read_relay_register(const Frame& f);
Decoded<RelayListMsg> read_relay_list(const Frame& f);
Decoded<RelayHelloMsg> read_relay_hello(const Frame& f);
Decoded<LinkAdvertMsg> read_link_advert(const Frame& f);
Decoded<UndeliverableMsg> read_undeliverable(const Frame& f);

}  // namespace tsunagi::wire
