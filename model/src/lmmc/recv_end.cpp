#include "tsunagi/model/lmmc/recv_end.hpp"

#include <algorithm>

namespace tsunagi::lmmc {

namespace {

std::string port_name(PortId port) {
  return "port " + std::to_string(port);
}

}  // namespace

RecvEnd::RecvEnd(LinkConfig config)
    : config_(config),
      tables_(config.frames),
      frame_data_(static_cast<std::size_t>(config.frames)) {}

std::string RecvEnd::open_port(PortId port) {
  return tables_.open_port(port);
}

Delivery RecvEnd::on_message(const Bytes& bytes) {
  Delivery out;
  const auto message = decode(bytes, config_, out.error);
  if (!message) return out;
  if (phase_ != Phase::Running) {
    out.error = "message before the receive end was initialised";
    return out;
  }
  if (const auto* request = std::get_if<PagingRequest>(&*message)) return page(*request);
  if (const auto* write_msg = std::get_if<RemoteWrite>(&*message)) return write(*write_msg);
  out.error = "the reading end does not accept credits";
  return out;
}

// Receiver steps: (1) the interface traps; (2) the frame table names the port to page out;
// (3) its unread bytes go to ordinary memory; (4) its sharers' entries become invalid; (5) the
// requested port comes in with its saved bytes; (6) its sharers' entries become valid; (7) return.
Delivery RecvEnd::page(const PagingRequest& request) {
  Delivery out;
  const PortId in = request.page_in;
  if (request.seq != expected_seq_)
    out.error = "paging request " + std::to_string(request.seq) + " out of sequence (expected " +
                std::to_string(expected_seq_) + ")";
  else if (in != kNoPort && !tables_.is_open(in))
    out.error = "paging request for unknown " + port_name(in);
  else if (in != kNoPort && tables_.resident(in))
    out.error =
        port_name(in) + " is already resident in frame " + std::to_string(*tables_.frame_of(in));
  else if (in == kNoPort && tables_.frame_table[request.frame] == kNoPort)
    out.error = "page-out of frame " + std::to_string(request.frame) + ", which is free";
  if (!out.error.empty()) return out;
  ++expected_seq_;
  Bytes& data = frame_data_[request.frame];
  out.paged_out = tables_.frame_table[request.frame];  // step 2
  if (out.paged_out != kNoPort) {
    out.bytes_saved = static_cast<std::uint32_t>(data.size());
    if (!data.empty()) saved_[out.paged_out] = std::move(data);  // step 3
    data.clear();
    tables_.release(request.frame);  // step 4
  }
  if (in != kNoPort) {
    if (const auto it = saved_.find(in); it != saved_.end()) {  // step 5
      data = std::move(it->second);
      saved_.erase(it);
    }
    tables_.assign(request.frame, in);  // step 6
  }
  out.cost = config_.costs.paging_trap;
  return out;
}

Delivery RecvEnd::write(const RemoteWrite& message) {
  Delivery out;
  const PortId holder = tables_.frame_table[message.frame];
  Bytes& data = frame_data_[message.frame];
  if (holder != message.port)
    out.error = "remote write for " + port_name(message.port) + " into frame " +
                std::to_string(message.frame) + ", which holds " +
                (holder == kNoPort ? std::string("nothing") : port_name(holder));
  else if (data.size() + message.data.size() > config_.page_size)
    out.error = "remote write overflows the frame of " + port_name(message.port);
  if (!out.error.empty()) return out;
  data.insert(data.end(), message.data.begin(), message.data.end());
  out.cost = config_.costs.receive_write;
  return out;
}

ReadResult RecvEnd::read(ProcId proc, VPage vpage, std::uint32_t max_bytes) {
  ReadResult result;
  const PageEntry* entry = tables_.entry(proc, vpage);
  if (phase_ != Phase::Running)
    result.refused = Refusal::NotStarted;
  else if (entry == nullptr)
    result.refused = Refusal::NotMapped;
  else if (max_bytes == 0)
    result.refused = Refusal::Empty;
  if (result.refused) return result;
  if (tables_.touch(proc, vpage)) result.cost = config_.costs.first_touch;
  const PortId port = tables_.port_of(*entry);
  result.from_store = !entry->valid;
  Bytes& queue = queue_of(port);
  const std::size_t n = std::min<std::size_t>(max_bytes, queue.size());
  result.data.assign(queue.begin(), queue.begin() + static_cast<std::ptrdiff_t>(n));
  queue.erase(queue.begin(), queue.begin() + static_cast<std::ptrdiff_t>(n));
  if (result.from_store && queue.empty()) saved_.erase(port);
  if (n > 0) result.messages.push_back(encode(Credit{port, static_cast<std::uint32_t>(n)}));
  return result;
}

// Where the port's unread bytes are: its frame, or ordinary memory when it is paged out.
Bytes& RecvEnd::queue_of(PortId port) {
  if (const auto frame = tables_.frame_of(port)) return frame_data_[*frame];
  return saved_[port];
}

std::uint32_t RecvEnd::unread(PortId port) const {
  if (const auto frame = tables_.frame_of(port))
    return static_cast<std::uint32_t>(frame_data_[*frame].size());
  const auto it = saved_.find(port);
  return it == saved_.end() ? 0 : static_cast<std::uint32_t>(it->second.size());
}

std::string RecvEnd::check_consistency() const {
  if (std::string problem = tables_.check_consistency(); !problem.empty()) return problem;
  for (std::size_t f = 0; f < frame_data_.size(); ++f) {
    const std::string frame = "frame " + std::to_string(f);
    if (frame_data_[f].size() > config_.page_size) return frame + " holds more than a page";
    if (tables_.frame_table[f] == kNoPort && !frame_data_[f].empty())
      return frame + " is free but holds " + std::to_string(frame_data_[f].size()) + " bytes";
  }
  for (const auto& [port, data] : saved_) {
    if (!tables_.is_open(port)) return "bytes saved for " + port_name(port) + ", not open";
    if (tables_.resident(port)) return "bytes saved for resident " + port_name(port);
    if (data.empty() || data.size() > config_.page_size)
      return port_name(port) + " saved " + std::to_string(data.size()) + " bytes";
  }
  return "";
}

}  // namespace tsunagi::lmmc
