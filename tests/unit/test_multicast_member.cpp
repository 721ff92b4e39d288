// Multicast members (model/multicast/member.hpp) run together in a toy network that delivers
// every message, encoded and decoded, in a random order: for every algorithm, many groups and
// sizes, real and modelled content, each member gets exactly the message, no non-member hears
// anything, acks climb the send tree, and the root's Done counts every member verified.
#include <catch2/catch.hpp>

#include <map>

#include "tsunagi/model/multicast/member.hpp"
#include "tsunagi/model/rng.hpp"

using namespace tsunagi;
using namespace tsunagi::multicast;

namespace {

struct InFlight {
  Rank from, to;
  std::uint32_t tag;
  Bytes body;
  std::uint64_t filler;
};

struct Outcome {
  std::optional<Done> done;
  int non_member_pieces = 0;
  int refused = 0;
  std::map<Rank, Rank> ack_to;  // member -> the rank it acked
  std::vector<Rank> tree_parent;
  Algorithm chosen = Algorithm::Auto;
  bool all_members_done = true;
  int seed_segments = 0;  // seed pieces the root took
  int seed_receipts = 0;  // Received the master got for them
};

InFlight wrap(Rank from, const Outgoing& o) {
  if (auto* piece = std::get_if<Piece>(&o.what)) {
    const std::uint64_t modelled =
        piece->real ? 0 : bytes_of(piece->range, piece->bytes, piece->chunks).length;
    return {from, o.to, kPieceTag, encode(*piece), modelled};
  }
  if (auto* ack = std::get_if<Ack>(&o.what)) return {from, o.to, kAckTag, encode(*ack), 0};
  if (auto* got = std::get_if<Received>(&o.what))
    return {from, o.to, kReceivedTag, encode(*got), 0};
  return {from, o.to, kDoneTag, encode(std::get<Done>(o.what)), 0};
}

// What the master does in the workload: the seed in segments, last first, kSeedWindow of them
// at once and one more for every Received from the root.
struct Master {
  Piece header;
  Bytes content;
  int next = 0;

  void send_next(Rank root, std::vector<InFlight>& flight) {
    if (next == 0) return;
    Piece piece = header;
    piece.range = {next - 1, next};
    --next;
    if (piece.real) {
      const ByteRange bytes = bytes_of(piece.range, piece.bytes, piece.chunks);
      piece.content.assign(
          content.begin() + static_cast<std::ptrdiff_t>(bytes.offset),
          content.begin() + static_cast<std::ptrdiff_t>(bytes.offset + bytes.length));
    }
    flight.push_back(wrap(header.master, {root, piece}));
  }
};

// One multicast from `master` to `members` among `processes` ranks, delivered in an order drawn
// from `rng`; every message goes through the codec as it would over the overlay. `segment` is
// the segment setting (0: automatic).
Outcome run(int processes, Rank master, const std::vector<Rank>& members, Algorithm algorithm,
            std::uint64_t bytes, bool real, Rng& rng, const GroupOfRank& group_of = {},
            std::uint64_t segment = 0, const Thresholds& thresholds = {}) {
  Piece seed;
  seed.id = 42;
  seed.algorithm = algorithm;
  seed.master = master;
  seed.started_at = 1000;
  seed.bytes = bytes;
  seed.real = real;
  seed.group = GroupBitmap::of(processes, members);
  Master sender;
  if (real) {
    sender.content = make_content(seed.id, bytes);
    seed.digest = digest_of(sender.content);
  }
  const int members_count = static_cast<int>(members.size());
  seed.chunks = segment_count(bytes, segment_bytes(bytes, members_count, segment));
  sender.next = seed.chunks;
  sender.header = seed;
  std::vector<InFlight> flight;
  for (int i = 0; i < kSeedWindow; ++i) sender.send_next(members.front(), flight);
  std::map<Rank, Member> state;
  Outcome outcome;
  TimeNs now = 1000;
  while (!flight.empty()) {
    const std::size_t pick = rng.uniform(flight.size());
    InFlight m = std::move(flight[pick]);
    flight.erase(flight.begin() + static_cast<std::ptrdiff_t>(pick));
    now += 1 + static_cast<TimeNs>(rng.uniform(100));
    std::vector<Outgoing> out;
    if (m.tag == kDoneTag) {
      REQUIRE(m.to == master);
      auto done = decode_done(m.body, processes);
      REQUIRE(std::holds_alternative<Done>(done));
      outcome.done = std::get<Done>(done);
      continue;
    }
    if (m.tag == kReceivedTag) {
      auto got = decode_received(m.body);
      REQUIRE(std::holds_alternative<Received>(got));
      if (m.to == master) {
        REQUIRE(m.from == members.front());
        ++outcome.seed_receipts;
        sender.send_next(members.front(), flight);
        continue;
      }
      state.at(m.to).on_received(m.from, std::get<Received>(got), out);
    } else if (m.tag == kAckTag) {
      auto ack = decode_ack(m.body, processes);
      REQUIRE(std::holds_alternative<Ack>(ack));
      outcome.ack_to[m.from] = m.to;
      state.at(m.to).on_ack(m.from, std::get<Ack>(ack), now, out);
    } else {
      auto decoded = decode_piece(m.body, m.filler, processes);
      REQUIRE(std::holds_alternative<Piece>(decoded));
      const Piece& piece = std::get<Piece>(decoded);
      if (!piece.group.contains(m.to)) {
        ++outcome.non_member_pieces;
        continue;
      }
      auto it = state.find(m.to);
      if (it == state.end())
        it = state.emplace(m.to, Member(m.to, piece, group_of, thresholds)).first;
      it->second.on_piece(m.from, piece, now, out);
      if (piece.phase == Phase::Seed) {
        ++outcome.seed_segments;
        outcome.tree_parent = it->second.tree_parents();
        outcome.chosen = it->second.algorithm();
      }
    }
    if (!state.at(m.to).refused().empty()) ++outcome.refused;
    for (const Outgoing& o : out) flight.push_back(wrap(m.to, o));
  }
  for (const auto& [rank, member] : state) outcome.all_members_done &= member.done();
  outcome.all_members_done &= state.size() == members.size();
  return outcome;
}

std::vector<Rank> random_members(int processes, Rank master, Rng& rng) {
  std::vector<Rank> members;
  for (Rank r = 0; r < processes; ++r)
    if (r != master && rng.uniform(3) != 0) members.push_back(r);
  if (members.empty()) members.push_back(master == 0 ? 1 : 0);
  return members;
}

}  // namespace

TEST_CASE("multicast members: every algorithm delivers to every member, only to members") {
  Rng rng(2026);
  const Algorithm algorithms[] = {Algorithm::Binomial,        Algorithm::ScatterRing,
                                  Algorithm::ScatterDoubling, Algorithm::Topology,
                                  Algorithm::Pipeline,        Algorithm::Auto};
  Thresholds pipeline_early;
  pipeline_early.pipeline_min_bytes = 10000;
  for (int trial = 0; trial < 180; ++trial) {
    const int processes = 2 + static_cast<int>(rng.uniform(70));
    const Rank master = static_cast<Rank>(rng.uniform(static_cast<std::uint64_t>(processes)));
    const std::vector<Rank> members = random_members(processes, master, rng);
    const Algorithm algorithm = algorithms[trial % 6];
    const std::uint64_t bytes = rng.uniform(3) == 0 ? rng.uniform(40) : rng.uniform(20000);
    const bool real = rng.uniform(2) == 0;
    GroupOfRank group_of;
    if (rng.uniform(2) == 0)
      for (int r = 0; r < processes; ++r) group_of.push_back(r / 4);
    // Segments of 1 B to 3 KB: from one segment to thousands, most of them uneven.
    const std::uint64_t segment = rng.uniform(4) == 0 ? 0 : 1 + rng.uniform(3000);
    const Thresholds thresholds = trial % 2 == 0 ? pipeline_early : Thresholds{};
    INFO("trial " << trial << ": " << members.size() << " members, " << bytes << " B, "
                  << to_string(algorithm) << (real ? " real" : " modelled") << ", segment "
                  << segment);
    const Outcome o =
        run(processes, master, members, algorithm, bytes, real, rng, group_of, segment, thresholds);
    const int segments =
        segment_count(bytes, segment_bytes(bytes, static_cast<int>(members.size()), segment));
    CHECK(o.seed_segments == segments);
    CHECK(o.seed_receipts == (segments > 1 ? segments : 0));
    CHECK(o.non_member_pieces == 0);
    CHECK(o.refused == 0);
    CHECK(o.all_members_done);
    REQUIRE(o.done);
    CHECK(o.done->verified == static_cast<int>(members.size()));
    CHECK(o.done->failed == 0);
    CHECK(o.done->members == static_cast<int>(members.size()));
    CHECK(o.done->completed_at >= o.done->last_delivery);
    // The root holds the message first (the seed is its first piece), before anyone else.
    CHECK(o.done->root_received_at > o.done->started_at);
    CHECK(o.done->root_received_at <= o.done->last_delivery);
    // The ack tree mirrors the send tree: each member acks the member it got its tree piece from;
    // in a pipeline (a chain) the acks climb the binomial tree instead.
    const SendTree binomial = binomial_tree(static_cast<int>(members.size()));
    for (std::size_t v = 1; v < members.size(); ++v) {
      if (o.chosen == Algorithm::Pipeline) {
        CHECK(o.tree_parent[v] == members[v - 1]);
        CHECK(o.ack_to.at(members[v]) == members[binomial.parent[v]]);
      } else {
        CHECK(o.ack_to.at(members[v]) == o.tree_parent[v]);
      }
    }
    CHECK(o.ack_to.count(members.front()) == 0);
  }
}

TEST_CASE("multicast members: paper 002's groups on 257 ranks, every algorithm") {
  Rng rng(5);
  for (int r : {8, 64, 256}) {
    std::vector<Rank> members;
    for (int i = 0; i < r; ++i) members.push_back(256 / r * i);
    for (Algorithm a : {Algorithm::Binomial, Algorithm::ScatterRing, Algorithm::ScatterDoubling,
                        Algorithm::Pipeline}) {
      const Outcome o = run(257, 256, members, a, 81920, true, rng);
      CHECK(o.chosen == a);
      REQUIRE(o.done);
      CHECK(o.done->verified == r);
      CHECK(o.non_member_pieces == 0);
    }
  }
}

TEST_CASE("multicast members: a wrong sender, a second copy or a wrong range is refused") {
  Piece seed;
  seed.id = 1;
  seed.algorithm = Algorithm::ScatterRing;
  seed.master = 9;
  seed.bytes = 800;
  seed.group = GroupBitmap::of(10, {1, 3, 5, 7});
  Member root(1, seed, {}, {});
  std::vector<Outgoing> out;
  root.on_piece(4, seed, 10, out);  // not from the master
  CHECK_FALSE(root.refused().empty());
  CHECK(out.empty());
  root.on_piece(9, seed, 10, out);
  CHECK(root.refused().empty());
  CHECK(out.size() == 1);  // the first tree piece (to 5); the ring waits for the scatter
  root.on_piece(9, seed, 11, out);
  CHECK(root.refused() == "a second copy of a seed segment");
  const Piece to_five = std::get<Piece>(out[0].what);
  CHECK(out[0].to == 5);
  CHECK(to_five.range == ChunkRange{2, 4});
  root.on_received(3, Received{1}, out);  // 3 has not been served yet
  CHECK_FALSE(root.refused().empty());
  CHECK(out.size() == 1);
  root.on_received(5, Received{1}, out);  // now 3 gets its piece
  CHECK(root.refused().empty());
  REQUIRE(out.size() == 2);
  CHECK(out[1].to == 3);
  CHECK(std::get<Piece>(out[1].what).phase == Phase::Tree);
  root.on_received(3, Received{1}, out);  // the root's scatter is over: its ring starts
  REQUIRE(out.size() == 3);
  CHECK(out[2].to == 3);
  CHECK(std::get<Piece>(out[2].what).phase == Phase::Ring);
  CHECK(std::get<Piece>(out[2].what).range == ChunkRange{0, 1});
  Member member(5, to_five, {}, {});
  std::vector<Outgoing> more;
  member.on_piece(3, to_five, 12, more);  // 5's parent is 1
  CHECK(member.refused() == "tree piece not from the parent");
  Piece wrong = to_five;
  wrong.range = {2, 3};
  member.on_piece(1, wrong, 12, more);
  CHECK(member.refused() == "tree piece with chunks this member's subtree does not hold");
  Ack forged{1, 5, 1, 0};
  root.on_ack(7, forged, 13, more);  // 7 is 1's grandchild, not its child
  CHECK_FALSE(root.refused().empty());
}

TEST_CASE("multicast pieces: decoding rejects what does not add up") {
  Piece piece;
  piece.id = 3;
  piece.algorithm = Algorithm::Binomial;
  piece.master = 0;
  piece.bytes = 100;
  piece.group = GroupBitmap::of(4, {1, 2});
  const Bytes body = encode(piece);
  CHECK(std::holds_alternative<Piece>(decode_piece(body, 100, 4)));
  auto reason = [](const auto& v) {
    return std::holds_alternative<Rejected>(v) ? std::get<Rejected>(v).reason : std::string();
  };
  CHECK(reason(decode_piece(body, 99, 4)).find("modelled") != std::string::npos);
  CHECK(reason(decode_piece(body, 100, 5)).find("run of 5") != std::string::npos);
  Bytes truncated(body.begin(), body.begin() + 20);
  CHECK(!reason(decode_piece(truncated, 100, 4)).empty());
  piece.master = 1;  // a member as master
  CHECK(!reason(decode_piece(encode(piece), 100, 4)).empty());
  piece.master = 0;
  piece.range = {0, 2};
  CHECK(reason(decode_piece(encode(piece), 100, 4)).find("one segment") != std::string::npos);
  piece.range = {0, 1};
  piece.chunks = 101;  // more segments than bytes
  CHECK(reason(decode_piece(encode(piece), 1, 4)).find("segments") != std::string::npos);
  piece.chunks = 1;
  piece.phase = Phase::Segment;  // a pipeline segment of a binomial tree
  CHECK(reason(decode_piece(encode(piece), 100, 4)).find("another algorithm") != std::string::npos);
  piece.phase = Phase::Seed;
  piece.range = {0, 1};
  piece.real = true;  // claims content but carries none
  CHECK(!reason(decode_piece(encode(piece), 0, 4)).empty());
  Bytes bad_done = encode(Done{1, Algorithm::Binomial, 3, 0, 5, 5, 4, 0, 1});
  CHECK(std::holds_alternative<Rejected>(decode_done(bad_done, 10)));
  const Done good{1, Algorithm::Binomial, 3, 0, 9, 8, 3, 0, 4};
  auto decoded_good = decode_done(encode(good), 10);
  REQUIRE(std::holds_alternative<Done>(decoded_good));
  CHECK(std::get<Done>(decoded_good).root_received_at == 4);
  Done received_after_completion = good;
  received_after_completion.root_received_at = 10;
  CHECK(reason(decode_done(encode(received_after_completion), 10)).find("after it completed") !=
        std::string::npos);
  CHECK(std::holds_alternative<Rejected>(decode_ack(Bytes(7, 0), 10)));
  CHECK(make_content(1, 100) != make_content(2, 100));
  CHECK(digest_of(make_content(1, 100)) == digest_of(make_content(1, 100)));
}

TEST_CASE("multicast members: ring pieces that come before the scatter is over wait, in order") {
  Piece seed;
  seed.id = 2;
  seed.algorithm = Algorithm::ScatterRing;
  seed.master = 9;
  seed.bytes = 800;
  seed.group = GroupBitmap::of(10, {1, 3, 5, 7});  // logical 0..3; 7 (logical 3) is a leaf
  seed.phase = Phase::Tree;
  seed.chunks = 4;
  seed.range = ChunkRange{3, 4};
  Piece ring = seed;
  ring.phase = Phase::Ring;
  ring.range = ChunkRange{1, 2};  // 3's chunk, passed on by 5, the left neighbour of 7
  Member leaf(7, ring, {}, {});
  std::vector<Outgoing> out;
  leaf.on_piece(5, ring, 10, out);
  CHECK(leaf.refused().empty());
  CHECK(out.empty());  // 7 has not got its own chunk from the scatter yet
  Piece second = ring;
  second.range = ChunkRange{0, 1};
  leaf.on_piece(5, second, 11, out);
  CHECK(out.empty());
  leaf.on_piece(5, seed, 12, out);  // its tree piece from its parent, 5
  CHECK(leaf.refused().empty());
  // Received to the parent, then its own chunk and the two waiting ones, all to the right (1).
  // Chunk 0 started at 1 and stops before 1: it is not passed on.
  REQUIRE(out.size() == 3);
  CHECK(std::holds_alternative<Received>(out[0].what));
  CHECK(out[1].to == 1);
  CHECK(std::get<Piece>(out[1].what).range == ChunkRange{3, 4});
  CHECK(out[2].to == 1);
  CHECK(std::get<Piece>(out[2].what).range == ChunkRange{1, 2});
}

TEST_CASE("multicast members: a segmented seed is passed on before it is whole") {
  Piece seed;
  seed.id = 4;
  seed.master = 9;
  seed.bytes = 800;
  seed.group = GroupBitmap::of(10, {1, 3, 5, 7});  // logical 0..3
  seed.chunks = 4;                                 // seed segments of 200 B
  auto segment = [&](int j) {
    Piece piece = seed;
    piece.range = {j, j + 1};
    return piece;
  };
  SECTION("scatter: the first child is served once its half is in, not the whole message") {
    seed.algorithm = Algorithm::ScatterRing;
    Member root(1, segment(3), {}, {});
    std::vector<Outgoing> out;
    root.on_piece(9, segment(3), 10, out);
    REQUIRE(out.size() == 1);  // only the master's Received: chunks 2-3 are bytes 400-800
    CHECK(out[0].to == 9);
    CHECK(std::holds_alternative<Received>(out[0].what));
    root.on_piece(9, segment(2), 11, out);
    REQUIRE(out.size() == 3);
    CHECK(out[2].to == 5);
    CHECK(std::get<Piece>(out[2].what).range == ChunkRange{2, 4});
    root.on_received(5, Received{4}, out);  // 3's chunk (bytes 200-400) is not here yet
    CHECK(root.refused().empty());
    CHECK(out.size() == 3);
    root.on_piece(9, segment(1), 12, out);
    REQUIRE(out.size() == 5);
    CHECK(out[4].to == 3);
    root.on_received(3, Received{4}, out);  // the root's own chunk is missing: no ring yet
    CHECK(out.size() == 5);
    root.on_piece(9, segment(1), 13, out);
    CHECK(root.refused() == "a second copy of a seed segment");
    root.on_piece(9, segment(0), 14, out);
    REQUIRE(out.size() == 7);  // Received, then the root's ring piece
    CHECK(std::get<Piece>(out[6].what).phase == Phase::Ring);
  }
  SECTION("pipeline: every segment goes on to the next member at once") {
    seed.algorithm = Algorithm::Pipeline;
    Member root(1, segment(3), {}, {});
    std::vector<Outgoing> out;
    root.on_piece(9, segment(3), 10, out);
    REQUIRE(out.size() == 2);
    CHECK(out[1].to == 3);
    const Piece first = std::get<Piece>(out[1].what);
    CHECK(first.phase == Phase::Segment);
    CHECK(first.range == ChunkRange{3, 4});
    CHECK(first.chunks == 4);
    Member second(3, first, {}, {});
    std::vector<Outgoing> more;
    second.on_piece(1, first, 11, more);
    REQUIRE(more.size() == 1);
    CHECK(more[0].to == 5);
    second.on_piece(5, first, 12, more);
    CHECK(second.refused() == "pipeline segment not from the member before this one");
    second.on_piece(1, first, 12, more);
    CHECK(second.refused() == "a second copy of a pipeline segment");
    CHECK(more.size() == 1);
  }
}
