// Frames of the relay overlay (paper 001; docs/relay.md): registration of relays, the relay
// list, relay-to-relay hello, flooded link-state adverts, and undeliverable notices.
#include "tsunagi/model/messages.hpp"
#include "wire/payload.hpp"

namespace tsunagi::wire {
namespace {

// Relays per run and links per advert: far beyond any scenario, small enough that a garbage
// count cannot allocate much.
constexpr std::size_t kMaxRelays = 4096;

void write_entry(Writer& w, const RelayEntry& e) {
  w.str(e.label);
  w.str(e.site);
  w.str(e.endpoint);
}

RelayEntry read_entry(Reader& r) {
  RelayEntry e;
  e.label = r.str(kMaxEndpointLength);
  e.site = r.str(kMaxEndpointLength);
  e.endpoint = r.str(kMaxEndpointLength);
  if (r.ok() && e.label.empty()) r.fail("relay without a label");
  if (r.ok() && e.endpoint.empty()) r.fail("relay " + e.label + " without an endpoint");
  return e;
}

// Count-prefixed, bounded by what the payload can still hold (each item takes >= min_bytes).
std::uint32_t read_count(Reader& r, std::size_t min_bytes, const char* what) {
  const std::uint32_t count = r.u32();
  if (r.ok() && (count > kMaxRelays || count * min_bytes > r.remaining()))
    r.fail(std::string("implausible ") + what + " count " + std::to_string(count));
  return r.ok() ? count : 0;
}

}  // namespace

Frame make_relay_register(const RelayRegisterMsg& m) {
  Writer w;
  write_entry(w, m.relay);
  return framed(FrameType::RelayRegister, w.take());
}

Decoded<RelayRegisterMsg> read_relay_register(const Frame& f) {
  if (auto e = expect(f, FrameType::RelayRegister)) return *e;
  Reader r(f.payload);
  RelayRegisterMsg m;
  m.relay = read_entry(r);
  return finish(r, m, "relay_register");
}

Frame make_relay_list(const RelayListMsg& m) {
  Writer w;
  w.u32(static_cast<std::uint32_t>(m.relays.size()));
  for (const RelayEntry& e : m.relays) write_entry(w, e);
  w.i32_runs(m.expected);
  return framed(FrameType::RelayList, w.take());
}

Decoded<RelayListMsg> read_relay_list(const Frame& f) {
  if (auto e = expect(f, FrameType::RelayList)) return *e;
  Reader r(f.payload);
  RelayListMsg m;
  const std::uint32_t count = read_count(r, 12, "relay");
  for (std::uint32_t i = 0; r.ok() && i < count; ++i) m.relays.push_back(read_entry(r));
  m.expected = r.i32_runs(kMaxRanks);
  for (Rank rank : m.expected)
    if (r.ok() && !valid_rank(rank)) r.fail("rank " + std::to_string(rank) + " out of range");
  return finish(r, m, "relay_list");
}

Frame make_relay_hello(const RelayHelloMsg& m) {
  Writer w;
  w.str(m.label);
  return framed(FrameType::RelayHello, w.take());
}

Decoded<RelayHelloMsg> read_relay_hello(const Frame& f) {
  if (auto e = expect(f, FrameType::RelayHello)) return *e;
  Reader r(f.payload);
  RelayHelloMsg m;
  m.label = r.str(kMaxEndpointLength);
  if (r.ok() && m.label.empty()) r.fail("relay hello without a label");
  return finish(r, m, "relay_hello");
}

Frame make_link_advert(const LinkAdvertMsg& m) {
  Writer w;
  w.str(m.origin);
  w.u64(m.seq);
  w.u8(m.settled ? 1 : 0);
  w.u32(static_cast<std::uint32_t>(m.neighbours.size()));
  for (const std::string& n : m.neighbours) w.str(n);
  w.i32_runs(m.ranks);
  return framed(FrameType::LinkAdvert, w.take());
}

Decoded<LinkAdvertMsg> read_link_advert(const Frame& f) {
  if (auto e = expect(f, FrameType::LinkAdvert)) return *e;
  Reader r(f.payload);
  LinkAdvertMsg m;
  m.origin = r.str(kMaxEndpointLength);
  m.seq = r.u64();
  const std::uint8_t settled = r.u8();
  if (r.ok() && settled > 1) r.fail("settled flag " + std::to_string(settled));
  m.settled = settled == 1;
  const std::uint32_t count = read_count(r, 4, "neighbour");
  for (std::uint32_t i = 0; r.ok() && i < count; ++i)
    m.neighbours.push_back(r.str(kMaxEndpointLength));
  m.ranks = r.i32_runs(kMaxRanks);
  for (Rank rank : m.ranks)
    if (r.ok() && !valid_rank(rank)) r.fail("rank " + std::to_string(rank) + " out of range");
  if (r.ok() && m.origin.empty()) r.fail("advert without an origin");
  return finish(r, m, "link_advert");
}

Frame make_undeliverable(Rank lost_dst, Rank back_to, const UndeliverableMsg& m) {
  Writer w;
  w.u32(m.tag);
  w.u32(m.seq);
  w.str(m.reason);
  return framed(FrameType::Undeliverable, w.take(), lost_dst, back_to);
}

Decoded<UndeliverableMsg> read_undeliverable(const Frame& f) {
  if (auto e = expect(f, FrameType::Undeliverable)) return *e;
  Reader r(f.payload);
  UndeliverableMsg m;
  m.tag = r.u32();
  m.seq = r.u32();
  m.reason = r.str(kMaxEndpointLength);
  if (r.ok() && !valid_rank(f.dst))
    r.fail("undeliverable notice for rank " + std::to_string(f.dst));
  return finish(r, m, "undeliverable");
}

}  // namespace tsunagi::wire
