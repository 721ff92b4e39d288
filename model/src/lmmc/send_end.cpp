#include "tsunagi/model/lmmc/send_end.hpp"

#include "tsunagi/model/lmmc/messages.hpp"

namespace tsunagi::lmmc {

SendEnd::SendEnd(LinkConfig config, PolicyKind policy)
    : config_(config), tables_(config.frames), policy_(make_policy(policy, config.frames)) {}

std::string SendEnd::open_port(PortId port) {
  std::string error = tables_.open_port(port);
  if (error.empty()) usage_[port];
  return error;
}

std::string SendEnd::post(ProcId proc, VPage vpage) {
  const PageEntry* entry = tables_.entry(proc, vpage);
  if (entry == nullptr) return to_string(Refusal::NotMapped);
  ++usage_.at(tables_.port_of(*entry)).pending;
  return "";
}

WriteResult SendEnd::write(ProcId proc, VPage vpage, const Bytes& data) {
  WriteResult result;
  const PageEntry* entry = tables_.entry(proc, vpage);
  if (phase_ != Phase::Running)
    result.refused = Refusal::NotStarted;
  else if (entry == nullptr)
    result.refused = Refusal::NotMapped;
  else if (data.empty())
    result.refused = Refusal::Empty;
  else if (data.size() > config_.page_size)
    result.refused = Refusal::TooLarge;
  if (result.refused) return result;
  // Sender step 2: an invalid entry holds the port id instead of a frame.
  const PortId port = tables_.port_of(*entry);
  // Flow control comes before paging, so a refused write never pages anything out.
  if (usage_.at(port).unread + data.size() > config_.page_size) {
    result.refused = Refusal::FrameFull;
    return result;
  }
  result.cost = config_.costs.send_routine;
  if (tables_.touch(proc, vpage)) {  // the MMU maps the page on its first use
    result.first_touch = true;
    result.cost += config_.costs.first_touch;
  }
  if (!entry->valid) {  // step 1: the trap
    result.fault = true;
    result.cost += config_.costs.paging_trap;
    result.paged_out = load(port, result.messages);
  } else {
    policy_->accessed(static_cast<FrameIndex>(entry->frame_or_port));
  }
  const auto frame = static_cast<FrameIndex>(entry->frame_or_port);
  result.messages.push_back(encode(RemoteWrite{port, frame, data}));
  record_write(port, static_cast<std::uint32_t>(data.size()));
  return result;
}

PagingResult SendEnd::page_in(PortId port) {
  PagingResult result;
  if (phase_ != Phase::Running)
    result.error = to_string(Refusal::NotStarted);
  else if (!tables_.is_open(port))
    result.error = "port " + std::to_string(port) + " is not open";
  else if (tables_.resident(port))
    result.error = "port " + std::to_string(port) + " is resident";
  if (!result.error.empty()) return result;
  result.cost = config_.costs.paging_trap;
  result.paged_out = load(port, result.messages);
  return result;
}

PagingResult SendEnd::page_out(PortId port) {
  PagingResult result;
  const auto frame = tables_.frame_of(port);
  if (phase_ != Phase::Running)
    result.error = to_string(Refusal::NotStarted);
  else if (!frame)
    result.error = "port " + std::to_string(port) + " is not resident";
  if (!result.error.empty()) return result;
  result.messages.push_back(encode(PagingRequest{next_seq_++, *frame, kNoPort}));
  result.paged_out = tables_.release(*frame);
  policy_->freed(*frame);
  result.cost = config_.costs.paging_trap;
  return result;
}

std::string SendEnd::on_message(const Bytes& bytes) {
  std::string error;
  const auto message = decode(bytes, config_, error);
  if (!message) return error;
  const auto* credit = std::get_if<Credit>(&*message);
  if (credit == nullptr) return "the writing end accepts only credits";
  if (phase_ != Phase::Running) return "credit before the link end was initialised";
  const auto it = usage_.find(credit->port);
  if (it == usage_.end()) return "credit for unknown port " + std::to_string(credit->port);
  if (credit->bytes > it->second.unread)
    return "credit of " + std::to_string(credit->bytes) + " bytes for port " +
           std::to_string(credit->port) + ", which has " + std::to_string(it->second.unread) +
           " unread";
  it->second.unread -= credit->bytes;
  return "";
}

std::uint32_t SendEnd::unread(PortId port) const {
  const auto it = usage_.find(port);
  return it == usage_.end() ? 0 : it->second.unread;
}

std::uint32_t SendEnd::pending(PortId port) const {
  const auto it = usage_.find(port);
  return it == usage_.end() ? 0 : it->second.pending;
}

std::string SendEnd::check_consistency() const {
  if (std::string problem = tables_.check_consistency(); !problem.empty()) return problem;
  if (usage_.size() != tables_.port_table.size())
    return "the writer tracks " + std::to_string(usage_.size()) + " ports, its port table has " +
           std::to_string(tables_.port_table.size());
  for (const auto& [port, usage] : usage_) {
    if (!tables_.is_open(port)) return "the writer tracks port " + std::to_string(port);
    if (usage.unread > config_.page_size)
      return "port " + std::to_string(port) + " has " + std::to_string(usage.unread) +
             " unread bytes, more than a page";
  }
  return "";
}

// Steps 3-6 of the sender. The request goes out before the tables change, as in the paper; the
// link is FIFO, so it reaches the reader before the write that caused it.
PortId SendEnd::load(PortId port, std::vector<Bytes>& messages) {
  const FrameIndex frame = choose_frame();
  messages.push_back(encode(PagingRequest{next_seq_++, frame, port}));
  const PortId out = tables_.release(frame);  // step 5
  tables_.assign(frame, port);                // step 6
  policy_->loaded(frame);
  return out;
}

// A free frame when there is one (no page-out needed), else the policy's victim.
FrameIndex SendEnd::choose_frame() {
  if (const auto free = tables_.free_frame()) return *free;
  VictimQuery query;
  query.now = writes_;
  for (PortId port : tables_.frame_table) {
    const Usage& u = usage_.at(port);
    query.frames.push_back({port, u.pending, u.unread, u.last_write, u.period, u.writes});
  }
  return policy_->victim(query);
}

// The port's period estimate averages the newest gap with the previous estimate: it follows a
// change of pattern within a few writes and smooths jitter of a step or two.
void SendEnd::record_write(PortId port, std::uint32_t bytes) {
  Usage& u = usage_.at(port);
  if (u.writes > 0) {
    const std::uint64_t gap = writes_ - u.last_write;
    u.period = u.period == 0 ? gap : (u.period + gap + 1) / 2;
  }
  u.last_write = writes_;
  ++u.writes;
  u.unread += bytes;
  if (u.pending > 0) --u.pending;
  ++writes_;
}

}  // namespace tsunagi::lmmc
