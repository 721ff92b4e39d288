#include "tsunagi/model/lmmc/link.hpp"

namespace tsunagi::lmmc {

std::string Link::start(const std::vector<PortId>& ports) {
  sender.start();
  receiver.start();
  for (PortId port : ports) {
    if (std::string error = sender.open_port(port); !error.empty()) return error;
    if (std::string error = receiver.open_port(port); !error.empty()) return error;
  }
  return "";
}

std::string Link::to_receiver(const std::vector<Bytes>& messages, TimeNs& cost,
                              std::uint64_t& bytes_saved) {
  for (const Bytes& message : messages) {
    const Delivery delivery = receiver.on_message(message);
    if (!delivery.error.empty()) return "reader rejected a message: " + delivery.error;
    cost += delivery.cost;
    bytes_saved += delivery.bytes_saved;
  }
  return "";
}

std::string Link::to_sender(const std::vector<Bytes>& messages) {
  for (const Bytes& message : messages)
    if (std::string error = sender.on_message(message); !error.empty())
      return "writer rejected a message: " + error;
  return "";
}

std::string Link::check_consistency() const {
  if (std::string problem = sender.check_consistency(); !problem.empty())
    return "writer: " + problem;
  if (std::string problem = receiver.check_consistency(); !problem.empty())
    return "reader: " + problem;
  const auto& frames = sender.tables().frame_table;
  for (std::size_t f = 0; f < frames.size(); ++f)
    if (frames[f] != receiver.tables().frame_table[f])
      return "frame " + std::to_string(f) + " holds port " + std::to_string(frames[f]) +
             " at the writer, " + std::to_string(receiver.tables().frame_table[f]) +
             " at the reader";
  if (sender.paging_requests() != receiver.paging_requests())
    return "the writer sent " + std::to_string(sender.paging_requests()) +
           " paging requests, the reader applied " + std::to_string(receiver.paging_requests());
  for (const auto& [port, sharers] : sender.tables().port_table) {
    if (!receiver.tables().is_open(port))
      return "port " + std::to_string(port) + " is open at the writer only";
    if (sender.unread(port) != receiver.unread(port))
      return "port " + std::to_string(port) + ": the writer counts " +
             std::to_string(sender.unread(port)) + " unread bytes, the reader holds " +
             std::to_string(receiver.unread(port));
  }
  return "";
}

}  // namespace tsunagi::lmmc
