// Payloads of each frame type: plain structs, their encoders, and strict decoders that reject
// truncated, oversized or trailing data with a reason.
#pragma once

#include <cstdint>
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

enum class ConnPurpose : std::uint8_t { Control = 0, Static = 1, Shortcut = 2 };

struct HelloMsg { Rank rank = kNoRank; ConnPurpose purpose = ConnPurpose::Control; };
struct RegisterMsg { Rank rank = kNoRank; std::string endpoint; std::string host; };
struct DirectoryMsg {                // index = rank
  std::vector<std::string> endpoints;
  std::vector<std::string> hosts;     // the host label each rank registered with
};
struct RttReportMsg { Rank rank = kNoRank; std::vector<Rank> near; std::uint64_t probes = 0; };
struct GroupsMsgBody { Groups groups; };
struct RouteEntry { Rank dest = kNoRank; std::uint16_t dist = 0; };
struct RouteRoundMsg { std::uint32_t round = 0; bool final = false; std::vector<RouteEntry> entries; };
// Tree inference (paper 000 §2.2): the rendezvous has a node send `bytes` to rank `to`; orders
// sent together run together. The node answers with the transfer's duration.
struct ProbeOrderMsg { std::uint64_t probe = 0; Rank to = kNoRank; std::uint64_t bytes = 0; };
struct ProbeResultMsg { std::uint64_t probe = 0; std::uint64_t bytes = 0; TimeNs elapsed = 0; bool ok = false; };
// Scalable inference: the rendezvous names the ranks a node measures; the node answers with
// one RTT per rank (0 = the probe failed).
struct RttOrderMsg { std::uint32_t round = 0; std::vector<Rank> targets; };
struct RttColumnMsg { std::uint32_t round = 0; std::vector<Rank> peers; std::vector<std::uint64_t> rtts; };
// Directory on demand: a node asks for the endpoints it is about to use; the rendezvous answers
// with one endpoint per rank, in the order asked.
struct EndpointQueryMsg { std::vector<Rank> ranks; };
struct EndpointReplyMsg { std::vector<Rank> ranks; std::vector<std::string> endpoints; };
struct DataMsg { std::uint32_t tag = 0; Bytes body; };

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
Frame make_done(Rank rank);
Frame make_shutdown();
Frame make_goodbye();

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

}  // namespace tsunagi::wire
