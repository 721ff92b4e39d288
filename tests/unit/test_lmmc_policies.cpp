// LMMC replacement policies (model/lmmc/policy.hpp) and Belady's optimum (belady.hpp) on small
// reference strings whose fault counts are worked out by hand in the comments, run through the
// whole protocol core (each reference is a one-byte write, read at once).
#include <catch2/catch.hpp>

#include <map>

#include "tsunagi/model/lmmc/belady.hpp"
#include "tsunagi/model/lmmc/link.hpp"
#include "tsunagi/model/lmmc/replay.hpp"

using namespace tsunagi::lmmc;

namespace {

// One writer and one reader process map every port; each reference writes one byte that is
// read straight away, so only residency matters.
Trace reference_trace(const std::vector<PortId>& refs) {
  Trace trace;
  std::map<PortId, bool> seen;
  for (PortId port : refs)
    if (!seen[port]) {
      seen[port] = true;
      trace.writers.emplace_back(0, port);
      trace.readers.emplace_back(0, port);
    }
  for (PortId port : refs) {
    trace.ops.push_back({TraceOp::Kind::Write, 0, port, 1});
    trace.ops.push_back({TraceOp::Kind::Read, 0, port, 1});
  }
  return trace;
}

std::uint64_t faults(PolicyKind policy, int frames, const std::vector<PortId>& refs,
                     int lookahead = 0) {
  ReplayOptions options;
  options.link.frames = frames;
  options.policy = policy;
  options.lookahead = lookahead;
  options.check_every_step = true;
  const ReplayStats stats = replay(reference_trace(refs), options);
  REQUIRE(stats.error.empty());
  REQUIRE(stats.references == refs);
  return stats.faults;
}

// The ports resident after `refs`, by frame.
std::vector<PortId> resident_after(PolicyKind policy, int frames, const std::vector<PortId>& refs) {
  LinkConfig config;
  config.frames = frames;
  Link link(config, policy);
  REQUIRE(link.start({1, 2, 3, 4, 5}).empty());
  for (PortId port = 1; port <= 5; ++port) REQUIRE(link.sender.map(0, port, port).empty());
  for (PortId port : refs) REQUIRE_FALSE(link.sender.write(0, port, {1}).refused);
  return link.sender.tables().frame_table;
}

const std::vector<PortId> kBelady = {1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5};  // the classic string
const std::vector<PortId> kCyclic = {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4};

}  // namespace

TEST_CASE("lmmc policies: FIFO shows Belady's anomaly on the classic string") {
  // 3 frames: 1 2 3 fault; 4 1 2 5 each replace the oldest; 1 2 hit; 3 4 fault; 5 hits = 9.
  CHECK(faults(PolicyKind::Fifo, 3, kBelady) == 9);
  // 4 frames: 1 2 3 4 fault, 1 2 hit, then 5 1 2 3 4 5 each evict the one needed next = 10.
  CHECK(faults(PolicyKind::Fifo, 4, kBelady) == 10);
}

TEST_CASE("lmmc policies: LRU and Belady's optimum on the classic string") {
  // LRU, 3 frames: 3 + (4 1 2 5) + (3 4 5) = 10; 4 frames: 4 + 5 + (3 4 5) = 8. No anomaly.
  CHECK(faults(PolicyKind::Lru, 3, kBelady) == 10);
  CHECK(faults(PolicyKind::Lru, 4, kBelady) == 8);
  // MIN, 3 frames: 1 2 3, 4 (evicts 3), 5 (evicts 4), 3, 4 = 7; 4 frames: 4 + 5 + 4 = 6.
  CHECK(belady_faults(kBelady, 3) == 7);
  CHECK(belady_faults(kBelady, 4) == 6);
  CHECK(belady_faults(kBelady, 5) == 5);  // every port fits: first touches only
  CHECK(belady_faults({}, 1) == 0);
  CHECK(belady_faults({7, 7, 7}, 1) == 1);
  CHECK_THROWS(belady_faults(kBelady, 0));
}

TEST_CASE("lmmc policies: CLOCK gives a second chance, and degenerates to FIFO when all are used") {
  // Every page is referenced between two sweeps on the classic string, so every sweep clears all
  // bits and takes the frame under the hand: FIFO's choices, 9 and 10 faults.
  CHECK(faults(PolicyKind::Clock, 3, kBelady) == 9);
  CHECK(faults(PolicyKind::Clock, 4, kBelady) == 10);
  // 1 2 3 4 2 5, 3 frames. 4 clears all bits and takes frame 0 (port 1), hand at 1. 2 hits and
  // sets its bit again. 5: frame 1 (port 2) used -> cleared, frame 2 (port 3) not -> out.
  // FIFO throws out port 2 (oldest), LRU port 3 (least recent).
  const std::vector<PortId> refs = {1, 2, 3, 4, 2, 5};
  CHECK(resident_after(PolicyKind::Clock, 3, refs) == std::vector<PortId>{4, 2, 5});
  CHECK(resident_after(PolicyKind::Fifo, 3, refs) == std::vector<PortId>{4, 5, 3});
  CHECK(resident_after(PolicyKind::Lru, 3, refs) == std::vector<PortId>{4, 2, 5});
}

TEST_CASE("lmmc policies: on a cyclic string LRU, FIFO and CLOCK always fault, COMM learns") {
  // Four ports in turn through three frames: the recency policies evict exactly the port needed
  // next, every time (12 of 12). MIN: 1 2 3, 4, then one fault per two references = 6.
  for (PolicyKind p : {PolicyKind::Fifo, PolicyKind::Lru, PolicyKind::Clock})
    CHECK(faults(p, 3, kCyclic) == 12);
  CHECK(belady_faults(kCyclic, 3) == 6);
  // COMM: without periods it acts as LRU (1 2 3, 4, 1, 2 fault). Writes 4 and 5 give ports 1 and
  // 2 a period of 4; port 3 is still resident, 3 and 4 hit. At write 8 every resident port has
  // period 4: port 4 (due 11) is farthest -> out, 2 and 3 hit; at write 11 port 3 (due 14) goes.
  CHECK(faults(PolicyKind::Comm, 3, kCyclic) == 8);
}

TEST_CASE("lmmc policies: COMM keeps ports with posted sends") {
  // 1 2 3 1, 2 frames. At write 2 (port 3) the least recent is port 1. With one send posted
  // ahead, that next write is port 1's: COMM pages out port 2 instead and write 3 hits.
  const std::vector<PortId> refs = {1, 2, 3, 1};
  CHECK(faults(PolicyKind::Comm, 2, refs, 0) == 4);
  CHECK(faults(PolicyKind::Comm, 2, refs, 1) == 3);
  CHECK(faults(PolicyKind::Lru, 2, refs, 1) == 4);  // the others ignore posted sends
}

TEST_CASE("lmmc policies: COMM's victim order — posted sends, predicted next write, unread") {
  auto comm = make_policy(PolicyKind::Comm, 3);
  VictimQuery q;
  q.now = 100;
  // Same prediction (period 10 due at 105) and no sends posted: fewer unread bytes goes.
  q.frames = {{1, 0, 300, 95, 10, 5}, {2, 0, 100, 95, 10, 5}, {3, 0, 200, 95, 10, 5}};
  CHECK(comm->victim(q) == 1);
  q.frames[0].last_write = 99;  // port 1 now due at 109: farthest
  CHECK(comm->victim(q) == 0);
  q.frames[0].pending = 1;  // ...but a send to it is posted
  CHECK(comm->victim(q) == 1);
  for (auto& f : q.frames) f.pending = 2;  // all posted: prediction decides again
  CHECK(comm->victim(q) == 0);

  FrameView v{1, 0, 0, 90, 0, 1};
  CHECK(predicted_next_write(v, 100) == 110);  // no period: age 10 is the guess
  v.period = 30;
  CHECK(predicted_next_write(v, 100) == 120);  // due one period after the last write
  v.period = 5;
  CHECK(predicted_next_write(v, 100) == 105);  // overdue: one period from now
}

TEST_CASE("lmmc policies: names round-trip and every policy has a factory") {
  CHECK(all_policies().size() == 4);
  for (PolicyKind p : all_policies()) {
    CHECK(policy_from_string(to_string(p)) == p);
    CHECK(make_policy(p, 1)->kind() == p);
  }
  CHECK_FALSE(policy_from_string("belady").has_value());  // offline only: belady.hpp
  CHECK_THROWS(make_policy(PolicyKind::Lru, 0));
}
