// Writes a pcap (link type IPv4) holding one frame of every type the core sends, encoded by the
// core's own encoders (model/src/wire/), plus RTT probes and throughput transfers, laid out as
// the ns-3 and realnet backends put them on the wire. tests/wireshark/dissector.sh decodes it
// with tools/wireshark/tsunagi.lua and checks every frame type and field it finds.
//
//   tsunagi_frames_pcap OUT.pcap
//
// Streams (10.0.0.2 -> 10.0.0.1):
//   * TCP 40001 -> 7000 (ns-3's port): every frame type, in order; one frame split over two
//     segments, two frames in one segment;
//   * TCP 40002 -> 35000 (a realnet kernel port): 'F', then a hello and a register (heuristic);
//   * TCP 40003 -> 35000: realnet's throughput transfer 'B' + size + proof + zeros, answered 'A';
//   * TCP 40004 -> 17000: ns-3's bulk port, its 24-byte header and zeros;
//   * UDP 40005 -> 14100 and 40006 -> 35000: a ping and its pong each (realnet's with a nonce).
#include <array>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "tsunagi/model/messages.hpp"

namespace {

using tsunagi::Rank;
using tsunagi::wire::Bytes;
namespace w = tsunagi::wire;

// `n` bytes counting up from `from`: known, non-zero filling for nonces and MACs.
Bytes counting(std::uint8_t from, std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(from + i);
  return b;
}

void put(Bytes& out, std::uint64_t value, int bytes, bool big_endian) {
  for (int i = 0; i < bytes; ++i) {
    const int shift = 8 * (big_endian ? bytes - 1 - i : i);
    out.push_back(static_cast<std::uint8_t>(value >> shift));
  }
}

std::uint16_t ip_checksum(const Bytes& header) {
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i + 1 < header.size(); i += 2) sum += (header[i] << 8) | header[i + 1];
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum);
}

class Pcap {
 public:
  explicit Pcap(const std::string& path) : out_(path, std::ios::binary) {
    Bytes header;
    put(header, 0xa1b2c3d4, 4, false);
    put(header, 2, 2, false);
    put(header, 4, 2, false);
    put(header, 0, 8, false);
    put(header, 262144, 4, false);
    put(header, 228, 4, false);  // LINKTYPE_IPV4
    write(header);
  }
  bool ok() const { return out_.good(); }

  // One IPv4 packet: protocol 6 (TCP, `flags`, `seq`, `ack`) or 17 (UDP).
  void packet(int protocol, std::uint16_t sport, std::uint16_t dport, bool forward,
              const Bytes& payload, std::uint32_t seq = 0, std::uint32_t ack = 0,
              std::uint8_t flags = 0x18) {
    Bytes transport;
    put(transport, forward ? sport : dport, 2, true);
    put(transport, forward ? dport : sport, 2, true);
    if (protocol == 6) {
      put(transport, seq, 4, true);
      put(transport, ack, 4, true);
      transport.push_back(0x50);  // 20-byte header
      transport.push_back(flags);
      put(transport, 65535, 2, true);
      put(transport, 0, 4, true);  // checksum (not checked by Wireshark by default), urgent
    } else {
      put(transport, 8 + payload.size(), 2, true);
      put(transport, 0, 2, true);  // no checksum
    }
    transport.insert(transport.end(), payload.begin(), payload.end());
    Bytes ip{0x45, 0};
    put(ip, 20 + transport.size(), 2, true);
    put(ip, ++id_, 2, true);
    put(ip, 0x4000, 2, true);  // don't fragment
    ip.push_back(64);
    ip.push_back(static_cast<std::uint8_t>(protocol));
    put(ip, 0, 2, true);
    put(ip, forward ? 0x0a000002 : 0x0a000001, 4, true);
    put(ip, forward ? 0x0a000001 : 0x0a000002, 4, true);
    const std::uint16_t sum = ip_checksum(ip);
    ip[10] = static_cast<std::uint8_t>(sum >> 8);
    ip[11] = static_cast<std::uint8_t>(sum);
    ip.insert(ip.end(), transport.begin(), transport.end());
    Bytes record;
    ++usec_;
    put(record, 1700000000, 4, false);
    put(record, usec_, 4, false);
    put(record, ip.size(), 4, false);
    put(record, ip.size(), 4, false);
    write(record);
    write(ip);
  }

 private:
  void write(const Bytes& b) {
    out_.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  }
  std::ofstream out_;
  std::uint16_t id_ = 0;
  std::uint32_t usec_ = 0;
};

// A TCP connection: handshake, then segments each way with correct sequence numbers.
class Stream {
 public:
  Stream(Pcap& pcap, std::uint16_t sport, std::uint16_t dport)
      : pcap_(pcap), sport_(sport), dport_(dport) {
    pcap_.packet(6, sport_, dport_, true, {}, seq_[0]++, 0, 0x02);
    pcap_.packet(6, sport_, dport_, false, {}, seq_[1]++, seq_[0], 0x12);
    pcap_.packet(6, sport_, dport_, true, {}, seq_[0], seq_[1], 0x10);
  }
  void send(const Bytes& payload, bool forward = true) {
    const int dir = forward ? 0 : 1;
    pcap_.packet(6, sport_, dport_, forward, payload, seq_[dir], seq_[1 - dir]);
    seq_[dir] += static_cast<std::uint32_t>(payload.size());
  }

 private:
  Pcap& pcap_;
  std::uint16_t sport_, dport_;
  std::array<std::uint32_t, 2> seq_{1000, 5000};
};

// A frame as a stream backend sends it: header + payload, then the filler as zeros.
Bytes on_wire(const w::Frame& frame) {
  Bytes bytes = w::encode(frame);
  bytes.resize(bytes.size() + frame.filler, 0);
  return bytes;
}

std::vector<w::Frame> every_frame_type() {
  const std::vector<std::string> endpoints{"10.0.0.2:7000", "10.0.0.6:7000", "10.0.16.2:7000"};
  std::vector<w::Frame> f;
  f.push_back(w::make_hello({1, w::ConnPurpose::Static}));
  f.push_back(w::make_register({1, "10.0.0.6:7000", "edge1-h01", "chiba"}));
  f.push_back(w::make_directory({endpoints, {"edge1-h00", "edge1-h01", "edge2-h00"}}));
  f.push_back(w::make_rtt_report({1, {0, 2}, 6}));
  f.push_back(w::make_groups({{{0, 1}, {2}}, std::nullopt}));
  // plan = "hierarchical": leader 0's placement (its group, one child leader and the ranks
  // beneath it).
  f.push_back(
      w::make_groups({{{0, 1}}, w::LeaderLinks{0, tsunagi::kNoRank, 0, 1, {2}, {2, 3}, {2, 2}}}));
  f.push_back(w::make_route_round(1, 2, {3, true, {{0, 1}, {2, 0}}}));
  f.push_back(w::make_data(1, 2, 7, {42, Bytes{1, 2, 3, 4}}, 1000));
  f.push_back(w::make_done(1));
  f.push_back(w::make_shutdown());
  f.push_back(w::make_goodbye(w::GoodbyeReason::Duplicate));
  f.push_back(w::make_probe_order({5, 2, 1 << 20}));
  f.push_back(w::make_probe_result({5, 1 << 20, 8400000, true}));
  f.push_back(w::make_rtt_order({2, {0, 2}}));
  f.push_back(w::make_rtt_column({2, {0, 2}, {21000, 61000}}));
  f.push_back(w::make_endpoint_query({{0, 2}}));
  f.push_back(w::make_endpoint_reply({{0, 2}, {"10.0.0.2:7000", "10.0.16.2:7000"}}));
  f.push_back(w::make_window_order({{0, 1, 2}, {0, 1, 0}, {"10.0.0.2:7000", "10.0.16.2:7000"}}));
  f.push_back(w::make_window_groups({{{0, 1}, {2}}, {{0, 2, 61000}}, 4, 1, 3}));
  f.push_back(w::make_probe_turn(1, 2, true));
  f.push_back(w::make_probe_turn_grant(1, 2));
  const w::RelayEntry chiba{"chiba-relay0", "chiba", "10.1.0.2:7000"};
  const w::RelayEntry kototoi{"kototoi-relay0", "kototoi", "10.2.0.2:7000"};
  f.push_back(w::make_relay_register({chiba}));
  f.push_back(w::make_relay_list({{chiba, kototoi}, {0, 1, 2}}));
  f.push_back(w::make_relay_hello({"chiba-relay0"}));
  f.push_back(w::make_link_advert({"chiba-relay0", 3, true, {"kototoi-relay0"}, {0, 1}}));
  f.push_back(w::make_undeliverable(2, 1, {42, 7, "no route to rank 2"}));
  f.push_back(w::make_settled(1));
  f.push_back(w::make_start());
  f.push_back(w::make_peer_unreachable(1, 2));
  f.push_back(w::make_shutdown_ack());
  f.push_back(w::make_release());
  // The handshake (docs/security.md) with known bytes, encoded as the core encodes any frame:
  // a nonce 0x00..0x0f, a second nonce 0x10..0x1f, MACs 0x20..0x3f.
  const auto handshake_frame = [](w::FrameType type, Bytes payload) {
    w::Frame frame;
    frame.type = type;
    frame.payload = std::move(payload);
    return frame;
  };
  Bytes proof = counting(0x10, 16);
  const Bytes mac = counting(0x20, 32);
  proof.insert(proof.end(), mac.begin(), mac.end());
  f.push_back(handshake_frame(w::FrameType::AuthChallenge, counting(0x00, 16)));
  f.push_back(handshake_frame(w::FrameType::AuthProof, proof));
  f.push_back(handshake_frame(w::FrameType::AuthAccept, mac));
  return f;
}

// ns-3's pings pad with zeros after the sample number; realnet's carry the probe's 16-byte
// nonce there first (docs/security.md).
Bytes probe(std::uint8_t kind, std::uint64_t id, std::uint32_t sample, bool nonce = false) {
  Bytes datagram{kind};
  put(datagram, id, 8, false);
  put(datagram, sample, 4, false);
  if (nonce) {
    const Bytes n = counting(0xa0, 16);
    datagram.insert(datagram.end(), n.begin(), n.end());
  }
  datagram.resize(64, 0);
  return datagram;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " OUT.pcap\n";
    return 2;
  }
  Pcap pcap(argv[1]);
  Stream ns3(pcap, 40001, 7000);
  const std::vector<w::Frame> frames = every_frame_type();
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Bytes bytes = on_wire(frames[i]);
    if (i == 2) {  // the directory, over two segments
      ns3.send(Bytes(bytes.begin(), bytes.begin() + 20));
      ns3.send(Bytes(bytes.begin() + 20, bytes.end()));
    } else if (i == 7) {  // done and shutdown in one segment
      Bytes both = bytes;
      const Bytes next = on_wire(frames[++i]);
      both.insert(both.end(), next.begin(), next.end());
      ns3.send(both);
    } else {
      ns3.send(bytes);
    }
  }
  Stream realnet(pcap, 40002, 35000);
  Bytes opening{'F'};
  const Bytes hello = on_wire(w::make_hello({3, w::ConnPurpose::Shortcut}));
  opening.insert(opening.end(), hello.begin(), hello.end());
  realnet.send(opening);
  realnet.send(on_wire(w::make_register({3, "127.0.0.1:35000", "h3", ""})));
  Stream transfer(pcap, 40003, 35000);
  Bytes head{'B'};
  put(head, 3000, 8, false);
  const Bytes proof = counting(0x10, 48);  // the nonce and MAC (probe_auth.hpp)
  head.insert(head.end(), proof.begin(), proof.end());
  transfer.send(head);
  head.assign(1000, 0);
  transfer.send(head);
  transfer.send(Bytes(2000, 0));
  transfer.send(Bytes{'A'}, false);
  Stream bulk(pcap, 40004, 17000);
  Bytes bulk_head;
  put(bulk_head, 1, 8, false);
  put(bulk_head, 5, 8, false);
  put(bulk_head, 2000, 8, false);
  bulk_head.resize(bulk_head.size() + 1000, 0);
  bulk.send(bulk_head);
  bulk.send(Bytes(1000, 0));
  pcap.packet(17, 40005, 14100, true, probe('P', 11, 1));
  pcap.packet(17, 40005, 14100, false, probe('Q', 11, 1));
  pcap.packet(17, 40006, 35000, true, probe('P', 12, 2, true));
  pcap.packet(17, 40006, 35000, false, probe('Q', 12, 2, true));
  if (!pcap.ok()) {
    std::cerr << "cannot write " << argv[1] << '\n';
    return 1;
  }
  return 0;
}
