// Which link page frame to page out when a write traps and every frame is taken (paper 003 §2.3,
// sender step 3). The paper names the question as future work: LRU and FIFO assume the locality
// of ordinary memory, which communication buffers need not have. docs/lmmc.md explains each
// policy; Belady's offline optimum, the bound they are measured against, is in belady.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tsunagi/model/lmmc/types.hpp"

namespace tsunagi::lmmc {

// What the writing end knows about the port in one frame when it must choose a victim.
struct FrameView {
  PortId port = kNoPort;
  std::uint32_t pending = 0;     // sends posted to this port and not yet written
  std::uint32_t unread = 0;      // bytes written and not yet credited back by the reader
  std::uint64_t last_write = 0;  // write count of this link end at the port's latest write
  std::uint64_t period = 0;      // estimated writes between two writes to it; 0 = unknown
  std::uint64_t writes = 0;      // writes to this port so far
};

struct VictimQuery {
  std::uint64_t now = 0;          // writes performed on this link end so far
  std::vector<FrameView> frames;  // index = frame; all occupied when a victim is asked for
};

enum class PolicyKind { Fifo, Lru, Clock, Comm };
std::string_view to_string(PolicyKind kind);
std::optional<PolicyKind> policy_from_string(std::string_view name);
const std::vector<PolicyKind>& all_policies();

// A policy sees page-ins, write hits and explicit page-outs of frames, in that order of events,
// and answers victim queries. Its own state is per frame; what it needs about ports comes in
// the query. victim() returns an occupied frame index.
class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy() = default;
  virtual PolicyKind kind() const = 0;
  virtual void loaded(FrameIndex frame) = 0;
  virtual void accessed(FrameIndex frame) = 0;
  virtual void freed(FrameIndex frame) = 0;
  virtual FrameIndex victim(const VictimQuery& query) = 0;
};

std::unique_ptr<ReplacementPolicy> make_policy(PolicyKind kind, int frames);

// The communication-aware policy's guess of the write count at which `view`'s port is written
// next (docs/lmmc.md, "COMM"). Exposed for tests.
std::uint64_t predicted_next_write(const FrameView& view, std::uint64_t now);

}  // namespace tsunagi::lmmc
