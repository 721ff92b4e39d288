#include "tsunagi/model/lmmc/tables.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

namespace tsunagi::lmmc {

namespace {

std::string where(const Mapping& m) {
  return "process " + std::to_string(m.proc) + " page " + std::to_string(m.vpage);
}

}  // namespace

LinkTables::LinkTables(int frames) {
  if (frames < 1 || frames > LinkConfig::kMaxFrames)
    throw std::invalid_argument("a link end needs 1.." + std::to_string(LinkConfig::kMaxFrames) +
                                " link page frames, not " + std::to_string(frames));
  frame_table.assign(static_cast<std::size_t>(frames), kNoPort);
}

std::string LinkTables::open_port(PortId port) {
  if (port == kNoPort) return "port id 0 is not a port (ids are positive)";
  if (is_open(port)) return "port " + std::to_string(port) + " is already open";
  port_table[port];
  return "";
}

std::string LinkTables::map(ProcId proc, VPage vpage, PortId port) {
  if (!is_open(port)) return "port " + std::to_string(port) + " is not open";
  if (entry(proc, vpage) != nullptr) return where({proc, vpage}) + " is already mapped";
  PageEntry e;
  if (const auto frame = frame_of(port)) {
    e.valid = true;
    e.frame_or_port = *frame;
  } else {
    e.frame_or_port = port;
  }
  page_tables[proc][vpage] = e;
  port_table[port].push_back({proc, vpage});
  return "";
}

const PageEntry* LinkTables::entry(ProcId proc, VPage vpage) const {
  const auto table = page_tables.find(proc);
  if (table == page_tables.end()) return nullptr;
  const auto it = table->second.find(vpage);
  return it == table->second.end() ? nullptr : &it->second;
}

PageEntry* LinkTables::mutable_entry(const Mapping& m) {
  return const_cast<PageEntry*>(entry(m.proc, m.vpage));
}

bool LinkTables::touch(ProcId proc, VPage vpage) {
  PageEntry* e = mutable_entry({proc, vpage});
  return e != nullptr && !std::exchange(e->touched, true);
}

PortId LinkTables::port_of(const PageEntry& e) const {
  if (!e.valid) return e.frame_or_port;
  return e.frame_or_port < frame_table.size() ? frame_table[e.frame_or_port] : kNoPort;
}

std::optional<FrameIndex> LinkTables::frame_of(PortId port) const {
  if (port == kNoPort) return std::nullopt;
  const auto it = std::find(frame_table.begin(), frame_table.end(), port);
  if (it == frame_table.end()) return std::nullopt;
  return static_cast<FrameIndex>(it - frame_table.begin());
}

std::optional<FrameIndex> LinkTables::free_frame() const {
  const auto it = std::find(frame_table.begin(), frame_table.end(), kNoPort);
  if (it == frame_table.end()) return std::nullopt;
  return static_cast<FrameIndex>(it - frame_table.begin());
}

void LinkTables::assign(FrameIndex frame, PortId port) {
  frame_table.at(frame) = port;
  for (const Mapping& m : port_table.at(port)) {
    PageEntry* e = mutable_entry(m);
    e->valid = true;
    e->frame_or_port = frame;
  }
}

PortId LinkTables::release(FrameIndex frame) {
  const PortId port = std::exchange(frame_table.at(frame), kNoPort);
  if (port == kNoPort) return kNoPort;
  for (const Mapping& m : port_table.at(port)) {
    PageEntry* e = mutable_entry(m);
    e->valid = false;
    e->frame_or_port = port;  // the trap on the next write reads the port from here
  }
  return port;
}

std::string LinkTables::check_consistency() const {
  for (const std::string& problem : {check_frames(), check_page_tables(), check_port_table()})
    if (!problem.empty()) return problem;
  return "";
}

// A frame holds an open port or nothing, and no port sits in two frames.
std::string LinkTables::check_frames() const {
  std::set<PortId> seen;
  for (std::size_t f = 0; f < frame_table.size(); ++f) {
    const PortId port = frame_table[f];
    if (port == kNoPort) continue;
    const std::string frame = "frame " + std::to_string(f);
    if (!is_open(port)) return frame + " holds port " + std::to_string(port) + ", not open";
    if (!seen.insert(port).second)
      return "port " + std::to_string(port) + " is resident in two frames (one is " + frame + ")";
  }
  return "";
}

// Every sharer the port table lists has a page entry that leads back to that port.
std::string LinkTables::check_port_table() const {
  for (const auto& [port, sharers] : port_table) {
    if (port == kNoPort) return "the port table holds port id 0";
    for (std::size_t i = 0; i < sharers.size(); ++i) {
      const Mapping& m = sharers[i];
      if (std::find(sharers.begin(), sharers.begin() + static_cast<std::ptrdiff_t>(i), m) !=
          sharers.begin() + static_cast<std::ptrdiff_t>(i))
        return "port " + std::to_string(port) + " lists " + where(m) + " twice";
      const PageEntry* e = entry(m.proc, m.vpage);
      if (e == nullptr)
        return "port " + std::to_string(port) + " lists " + where(m) + ", which is not mapped";
      if (port_of(*e) != port)
        return where(m) + " is listed under port " + std::to_string(port) + " but leads to " +
               std::to_string(port_of(*e));
    }
  }
  return "";
}

// Every page entry is listed under its port; valid entries point at that port's frame and
// invalid ones name a port that is not resident (otherwise the write would trap for nothing).
std::string LinkTables::check_page_tables() const {
  for (const auto& [proc, table] : page_tables) {
    for (const auto& [vpage, e] : table) {
      const Mapping m{proc, vpage};
      if (e.valid && e.frame_or_port >= frame_table.size())
        return where(m) + " is valid with frame " + std::to_string(e.frame_or_port) +
               ", out of range";
      const PortId port = port_of(e);
      if (port == kNoPort) return where(m) + " is valid but its frame is free";
      const auto sharers = port_table.find(port);
      if (sharers == port_table.end())
        return where(m) + " leads to port " + std::to_string(port) + ", not open";
      if (std::find(sharers->second.begin(), sharers->second.end(), m) == sharers->second.end())
        return where(m) + " is not listed under its port " + std::to_string(port);
      if (!e.valid && resident(port))
        return where(m) + " is invalid but its port " + std::to_string(port) + " is resident";
    }
  }
  return "";
}

}  // namespace tsunagi::lmmc
