#include "tsunagi/model/lmmc/policy.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace tsunagi::lmmc {

namespace {

std::size_t index(FrameIndex frame) {
  return static_cast<std::size_t>(frame);
}

// The frame with the smallest stamp; stamps are unique, so no tie needs breaking.
FrameIndex oldest(const std::vector<std::uint64_t>& stamps) {
  return static_cast<FrameIndex>(std::min_element(stamps.begin(), stamps.end()) - stamps.begin());
}

// First in, first out: the frame paged in longest ago, whatever happened since.
class Fifo final : public ReplacementPolicy {
 public:
  explicit Fifo(int frames) : loaded_at_(static_cast<std::size_t>(frames), 0) {}
  PolicyKind kind() const override { return PolicyKind::Fifo; }
  void loaded(FrameIndex frame) override { loaded_at_.at(index(frame)) = ++clock_; }
  void accessed(FrameIndex) override {}
  void freed(FrameIndex frame) override { loaded_at_.at(index(frame)) = 0; }
  FrameIndex victim(const VictimQuery&) override { return oldest(loaded_at_); }

 private:
  std::vector<std::uint64_t> loaded_at_;
  std::uint64_t clock_ = 0;
};

// Least recently used: the frame whose port was written (or paged in) longest ago.
class Lru final : public ReplacementPolicy {
 public:
  explicit Lru(int frames) : used_at_(static_cast<std::size_t>(frames), 0) {}
  PolicyKind kind() const override { return PolicyKind::Lru; }
  void loaded(FrameIndex frame) override { used_at_.at(index(frame)) = ++clock_; }
  void accessed(FrameIndex frame) override { used_at_.at(index(frame)) = ++clock_; }
  void freed(FrameIndex frame) override { used_at_.at(index(frame)) = 0; }
  FrameIndex victim(const VictimQuery&) override { return oldest(used_at_); }

 private:
  std::vector<std::uint64_t> used_at_;
  std::uint64_t clock_ = 0;
};

// Second chance: a hand sweeps the frames; a set use bit buys one more turn (it is cleared), the
// first frame found with a clear bit goes. A page-in sets the bit (it was just used) and leaves
// the hand where it is; choosing a victim moves the hand past it.
class Clock final : public ReplacementPolicy {
 public:
  explicit Clock(int frames) : used_(static_cast<std::size_t>(frames), false) {}
  PolicyKind kind() const override { return PolicyKind::Clock; }
  void loaded(FrameIndex frame) override { used_.at(index(frame)) = true; }
  void accessed(FrameIndex frame) override { used_.at(index(frame)) = true; }
  void freed(FrameIndex frame) override { used_.at(index(frame)) = false; }
  FrameIndex victim(const VictimQuery&) override {
    while (used_[hand_]) {
      used_[hand_] = false;
      hand_ = (hand_ + 1) % used_.size();
    }
    const auto chosen = static_cast<FrameIndex>(hand_);
    hand_ = (hand_ + 1) % used_.size();
    return chosen;
  }

 private:
  std::vector<bool> used_;
  std::size_t hand_ = 0;
};

// Communication-aware (docs/lmmc.md, "COMM"): keep ports with sends already posted; among the
// rest, page out the one whose next write is predicted farthest away; on a tie, the one with
// fewer unread bytes (less to copy out at the receiver); then the lowest frame.
class Comm final : public ReplacementPolicy {
 public:
  PolicyKind kind() const override { return PolicyKind::Comm; }
  void loaded(FrameIndex) override {}
  void accessed(FrameIndex) override {}
  void freed(FrameIndex) override {}
  FrameIndex victim(const VictimQuery& query) override {
    std::size_t best = 0;
    for (std::size_t f = 1; f < query.frames.size(); ++f)
      if (key(query.frames[f], query.now) < key(query.frames[best], query.now)) best = f;
    return static_cast<FrameIndex>(best);
  }

 private:
  // Smaller is a better victim. Later predicted writes sort first through the negation trick of
  // comparing (max - next).
  static std::tuple<bool, std::uint64_t, std::uint32_t> key(const FrameView& v, std::uint64_t now) {
    return {v.pending > 0, UINT64_MAX - predicted_next_write(v, now), v.unread};
  }
};

}  // namespace

// A port with a known period is expected one period after its last write; one that is already
// overdue is expected a period from now (we do not know it stopped, only that it is late). A
// port written once or never has no period: its age is the guess, which makes COMM behave as
// LRU until ports repeat.
std::uint64_t predicted_next_write(const FrameView& view, std::uint64_t now) {
  const std::uint64_t age = now >= view.last_write ? now - view.last_write : 0;
  if (view.period == 0) return now + age;
  const std::uint64_t due = view.last_write + view.period;
  return due > now ? due : now + view.period;
}

std::string_view to_string(PolicyKind kind) {
  switch (kind) {
    case PolicyKind::Fifo:
      return "fifo";
    case PolicyKind::Lru:
      return "lru";
    case PolicyKind::Clock:
      return "clock";
    case PolicyKind::Comm:
      return "comm";
  }
  return "?";
}

std::optional<PolicyKind> policy_from_string(std::string_view name) {
  for (PolicyKind kind : all_policies())
    if (to_string(kind) == name) return kind;
  return std::nullopt;
}

const std::vector<PolicyKind>& all_policies() {
  static const std::vector<PolicyKind> kinds = {PolicyKind::Fifo, PolicyKind::Lru,
                                                PolicyKind::Clock, PolicyKind::Comm};
  return kinds;
}

std::unique_ptr<ReplacementPolicy> make_policy(PolicyKind kind, int frames) {
  if (frames < 1 || frames > LinkConfig::kMaxFrames)
    throw std::invalid_argument("a policy needs 1.." + std::to_string(LinkConfig::kMaxFrames) +
                                " frames, not " + std::to_string(frames));
  switch (kind) {
    case PolicyKind::Fifo:
      return std::make_unique<Fifo>(frames);
    case PolicyKind::Lru:
      return std::make_unique<Lru>(frames);
    case PolicyKind::Clock:
      return std::make_unique<Clock>(frames);
    case PolicyKind::Comm:
      return std::make_unique<Comm>();
  }
  throw std::invalid_argument("unknown replacement policy");
}

}  // namespace tsunagi::lmmc
