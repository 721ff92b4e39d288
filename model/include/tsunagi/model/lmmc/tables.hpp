// The three tables of LMMC port management (paper 003 §2.2.1), for one link end:
//
//  - page tables, one per process: virtual link page -> link page frame when the page is
//    resident; when it is not, the entry keeps the port id in place of the frame number, so a
//    trap knows which port the faulting write was for (§2.3, sender step 2);
//  - the link page frame table: frame -> the port it holds (or none);
//  - the port table: port -> the processes and virtual link pages that share it.
//
// The paper has one page table per process covering every link. A port belongs to exactly one
// link direction, so we keep each process's entries for a link's ports with that link end: the
// partition loses nothing and lets one link end be checked on its own.
//
// The tables are plain data so tests can break them on purpose; the link ends change them only
// through assign/release, which keep all three in step. check_consistency() says whether they do.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tsunagi/model/lmmc/types.hpp"

namespace tsunagi::lmmc {

struct PageEntry {
  bool valid = false;
  std::uint32_t frame_or_port = 0;  // a FrameIndex when valid, the PortId when not
  bool touched = false;             // used once already: the first-touch cost is paid
  bool operator==(const PageEntry&) const = default;
};

struct Mapping {
  ProcId proc = 0;
  VPage vpage = 0;
  bool operator==(const Mapping&) const = default;
};

struct LinkTables {
  explicit LinkTables(int frames);

  // Registers a port on this link end. Returns "" or why not (0, or already open).
  std::string open_port(PortId port);
  bool is_open(PortId port) const { return port_table.count(port) != 0; }
  // Process `proc` maps its virtual link page `vpage` onto `port` (an open port). The entry is
  // valid at once when the port is resident. Returns "" or why not.
  std::string map(ProcId proc, VPage vpage, PortId port);

  const PageEntry* entry(ProcId proc, VPage vpage) const;
  // Marks the page used; true the first time (the caller charges the first-touch cost).
  bool touch(ProcId proc, VPage vpage);
  // The port behind a page entry: via the frame table when valid, stored in it when not.
  PortId port_of(const PageEntry& entry) const;
  std::optional<FrameIndex> frame_of(PortId port) const;
  std::optional<FrameIndex> free_frame() const;  // the lowest free frame
  bool resident(PortId port) const { return frame_of(port).has_value(); }

  // Page-in of `port` into the free frame `frame`: frame table, then every sharer's page entry
  // becomes valid (sender step 6, receiver steps 5-6).
  void assign(FrameIndex frame, PortId port);
  // Page-out of whatever `frame` holds: every sharer's entry becomes invalid and keeps the port
  // id (sender step 5, receiver steps 3-4). Returns the port, or kNoPort for a free frame.
  PortId release(FrameIndex frame);

  // The first violated invariant, or "" when the three tables agree (docs/lmmc.md lists them).
  std::string check_consistency() const;

  std::map<ProcId, std::map<VPage, PageEntry>> page_tables;
  std::vector<PortId> frame_table;                    // index = frame; kNoPort = free
  std::map<PortId, std::vector<Mapping>> port_table;  // port -> sharers, in mapping order

 private:
  PageEntry* mutable_entry(const Mapping& m);
  std::string check_frames() const;
  std::string check_port_table() const;
  std::string check_page_tables() const;
};

}  // namespace tsunagi::lmmc
