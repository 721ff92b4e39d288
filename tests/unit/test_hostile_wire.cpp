// Issue 17: what a peer can make a connection cost (docs/security.md). Before the fix the
// deframer made room for the payload a header announced (up to 64 MiB) as soon as it saw the
// header: 528 bytes on 16 connections grew a process from 5.9 MB to 1.06 GB. Now memory
// follows the bytes that arrived, and frames with small bodies may not announce large ones.
//
// Allocations are observed by replacing the global operator new for this test binary: while a
// Measure is alive it records the largest single allocation and the total. (The replacement
// only counts; it allocates with malloc like the default one.)
#include <catch2/catch.hpp>

#include <cstdlib>
#include <new>

#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/wire.hpp"

namespace {
bool g_measuring = false;
std::size_t g_largest = 0;
std::size_t g_total = 0;
}  // namespace

// Every unaligned form is replaced, so that under AddressSanitizer (which supplies the forms
// left out) no block is allocated by one family and freed by the other.
// GCC 12 at -O2 inlines these into their callers and then reads `free` of a block from
// `operator new` as a mismatch (-Wmismatched-new-delete); here both are malloc's, by design.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  if (g_measuring) {
    g_largest = std::max(g_largest, size);
    g_total += size;
  }
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  return operator new(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return operator new(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
#pragma GCC diagnostic pop

using namespace tsunagi;
using namespace tsunagi::wire;

namespace {

struct Measure {
  Measure() {
    g_measuring = true;
    g_largest = 0;
    g_total = 0;
  }
  ~Measure() { g_measuring = false; }
  std::size_t largest() const { return g_largest; }
  std::size_t total() const { return g_total; }
};

// The 32-byte header of a frame of `type` that announces `length` payload bytes.
Bytes header(FrameType type, std::uint32_t length) {
  Frame f;
  f.type = type;
  f.src = 0;
  f.dst = 1;
  Bytes h = encode(f);
  for (int i = 0; i < 4; ++i) h[20 + i] = static_cast<std::uint8_t>(length >> (8 * i));
  return h;
}

}  // namespace

TEST_CASE("hostile wire: a header announcing 64 MiB allocates nothing for its payload",
          "[hostile][wire]") {
  Deframer d;
  const Bytes h = header(FrameType::Data, kMaxPayload);
  {
    Measure m;
    d.feed(h);
    CHECK(std::holds_alternative<std::monostate>(d.next()));
    CHECK(m.largest() < 4096);
    CHECK(m.total() < 4096);
  }
  // 16 such connections now cost kilobytes, not a gigabyte.
  std::vector<Deframer> connections(16);
  Measure m;
  for (Deframer& c : connections) {
    c.feed(h);
    CHECK(std::holds_alternative<std::monostate>(c.next()));
  }
  CHECK(m.total() < 64 * 1024);
}

TEST_CASE("hostile wire: payload memory grows with the bytes that arrive", "[hostile][wire]") {
  constexpr std::uint32_t kAnnounced = 8u << 20;
  Frame want = make_data(0, 1, 3, {9, Bytes(kAnnounced - 4, 0x5a)}, 0);
  const Bytes all = encode(want);
  Deframer d;
  std::size_t fed = 0;
  {
    Measure m;
    // 256 KiB of the 8 MiB arrive, in 1 KiB pieces.
    for (; fed < kHeaderSize + (256u << 10); fed += 1024) {
      d.feed(Bytes(all.begin() + static_cast<std::ptrdiff_t>(fed),
                   all.begin() + static_cast<std::ptrdiff_t>(fed + 1024)));
      CHECK(std::holds_alternative<std::monostate>(d.next()));
    }
    CHECK(m.largest() <= 1u << 20);  // the buffer's geometric growth, not the announced 8 MiB
  }
  d.feed(Bytes(all.begin() + static_cast<std::ptrdiff_t>(fed), all.end()));
  auto got = d.next();
  REQUIRE(std::holds_alternative<Frame>(got));
  CHECK(std::get<Frame>(got).payload == want.payload);
  CHECK(d.buffered() == 0);
}

TEST_CASE("hostile wire: frames with small bodies cannot announce large ones", "[hostile][wire]") {
  for (FrameType type : {FrameType::Hello, FrameType::Register, FrameType::Done,
                         FrameType::Shutdown, FrameType::ShutdownAck}) {
    Deframer d;
    d.feed(header(type, 1u << 20));
    auto r = d.next();
    REQUIRE(std::holds_alternative<DecodeError>(r));
    CHECK(std::get<DecodeError>(r).reason.find("oversized payload: 1048576 bytes > 4096 for a") ==
          0);
  }
  // Lists and data keep the wire's limit.
  CHECK(max_payload(FrameType::Directory) == kMaxPayload);
  CHECK(max_payload(FrameType::Data) == kMaxPayload);
  // Every small body a well-behaved peer sends fits.
  const std::string longest(kMaxEndpointLength, 'x');
  CHECK(encode(make_register({1, longest, longest, longest})).size() - kHeaderSize <=
        max_payload(FrameType::Register));
  CHECK(encode(make_relay_register({{longest, longest, longest}})).size() - kHeaderSize <=
        max_payload(FrameType::RelayRegister));
  CHECK(encode(make_undeliverable(1, 2, {1, 2, longest})).size() - kHeaderSize <=
        max_payload(FrameType::Undeliverable));
}

// A bulk message's filler arrives as real zeros on a stream backend; the deframer steps over it
// as it arrives instead of buffering it (issue 19: one copy less per byte on realnet).
TEST_CASE("wire: stream filler is counted, not buffered, and frames around it are intact",
          "[wire]") {
  const Frame bulk = make_data(0, 1, 1, {9, Bytes(60, 0x5a)}, 4u << 20);
  const Frame after = make_data(0, 1, 2, {9, Bytes(10, 0x33)}, 0);
  Bytes stream = encode(bulk);
  stream.insert(stream.end(), bulk.filler, 0);
  const Bytes tail = encode(after);
  stream.insert(stream.end(), tail.begin(), tail.end());
  for (const std::size_t chunk : {std::size_t{1000}, std::size_t{65536}, std::size_t{262144}}) {
    INFO("chunk " << chunk);
    std::vector<Bytes> chunks;
    for (std::size_t pos = 0; pos < stream.size(); pos += chunk)
      chunks.emplace_back(
          stream.begin() + static_cast<std::ptrdiff_t>(pos),
          stream.begin() + static_cast<std::ptrdiff_t>(std::min(stream.size(), pos + chunk)));
    Deframer d;
    std::vector<Frame> got;
    got.reserve(4);
    Measure m;
    for (const Bytes& piece : chunks) {
      d.feed(piece);
      for (auto next = d.next(); std::holds_alternative<Frame>(next); next = d.next())
        got.push_back(std::get<Frame>(next));
    }
    // What the deframer allocated in all: the first chunk (header, payload, the start of the
    // filler) and the last (the next frame), the frames' payloads; never the 4 MiB of filler.
    CHECK(m.total() <= 2 * chunk + 4096);
    REQUIRE(got.size() == 2);
    CHECK(got[0].seq == 1);
    CHECK(got[0].filler == bulk.filler);
    CHECK(got[0].payload == bulk.payload);
    CHECK(got[1].seq == 2);
    CHECK(got[1].payload == after.payload);
    CHECK(d.buffered() == 0);
  }
}
