#include "tsunagi/model/lmmc/replay.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "tsunagi/model/lmmc/link.hpp"

namespace tsunagi::lmmc {

namespace {

using Key = std::pair<ProcId, PortId>;

// Byte k of port p: known to both sides, so every read checks that the bytes arrive in order
// and unchanged across page-outs and page-ins.
std::uint8_t pattern(PortId port, std::uint64_t k) {
  return static_cast<std::uint8_t>((k + std::uint64_t{port} * 37) % 251);
}

// Each process maps its ports on consecutive pages, in the order the trace lists them.
std::map<Key, VPage> number_pages(const std::vector<Key>& mappings) {
  std::map<Key, VPage> pages;
  std::map<ProcId, VPage> next;
  for (const Key& key : mappings)
    if (!pages.count(key)) pages[key] = next[key.first]++;
  return pages;
}

class Replayer {
 public:
  Replayer(const Trace& trace, const ReplayOptions& options)
      : trace_(trace),
        options_(options),
        link_(options.link, options.policy),
        writer_pages_(number_pages(trace.writers)),
        reader_pages_(number_pages(trace.readers)) {
    for (std::size_t i = 0; i < trace.ops.size(); ++i)
      if (trace.ops[i].kind == TraceOp::Kind::Write) write_ops_.push_back(i);
    for (const auto& [proc, port] : trace.readers) readers_of_[port].push_back(proc);
  }

  ReplayStats run() {
    if (!set_up()) return stats_;
    for (const TraceOp& op : trace_.ops) {
      const bool ok =
          op.kind == TraceOp::Kind::Write ? write(op) : read(op.proc, op.port, op.bytes);
      if (!ok) break;
      if (options_.check_every_step && !fail(link_.check_consistency())) break;
    }
    return stats_;
  }

 private:
  // Returns true when `problem` is empty; otherwise records it as the replay's error.
  bool fail(std::string problem) {
    if (problem.empty()) return true;
    if (stats_.error.empty()) stats_.error = std::move(problem);
    return false;
  }

  bool set_up() {
    if (!fail(link_.start(trace_.ports()))) return false;
    for (const auto& [key, page] : writer_pages_)
      if (!fail(link_.sender.map(key.first, page, key.second))) return false;
    for (const auto& [key, page] : reader_pages_)
      if (!fail(link_.receiver.map(key.first, page, key.second))) return false;
    return true;
  }

  // Writes up to `lookahead` ahead of the current one are posted before it is performed.
  void post_ahead() {
    const std::size_t want = std::min(
        write_ops_.size(), stats_.writes + 1 + static_cast<std::size_t>(options_.lookahead));
    for (; posted_ < want; ++posted_) {
      const TraceOp& op = trace_.ops[write_ops_[posted_]];
      const auto page = writer_pages_.find({op.proc, op.port});
      if (page != writer_pages_.end()) link_.sender.post(op.proc, page->second);
    }
  }

  bool write(const TraceOp& op) {
    const auto page = writer_pages_.find({op.proc, op.port});
    if (page == writer_pages_.end()) return fail("a write by a process that does not map its port");
    post_ahead();
    Bytes data(op.bytes);
    for (std::uint32_t i = 0; i < op.bytes; ++i) data[i] = pattern(op.port, written_[op.port] + i);
    WriteResult result = link_.sender.write(op.proc, page->second, data);
    if (result.refused == Refusal::FrameFull) {  // the reader catches up, then the write retries
      ++stats_.refusals;
      if (!drain(op.port)) return false;
      result = link_.sender.write(op.proc, page->second, data);
    }
    if (result.refused) return fail("write refused: " + to_string(*result.refused));
    written_[op.port] += op.bytes;
    account(result, op.port);
    std::uint64_t saved = 0;
    const bool ok = fail(link_.to_receiver(result.messages, stats_.reader_cost, saved));
    stats_.bytes_paged_out += saved;
    return ok;
  }

  void account(const WriteResult& result, PortId port) {
    ++stats_.writes;
    stats_.references.push_back(port);
    stats_.faults += result.fault ? 1 : 0;
    stats_.page_outs += result.paged_out != kNoPort ? 1 : 0;
    stats_.first_touches += result.first_touch ? 1 : 0;
    stats_.writer_cost += result.cost;
  }

  bool read(ProcId proc, PortId port, std::uint32_t bytes) {
    const auto page = reader_pages_.find({proc, port});
    if (page == reader_pages_.end()) return fail("a read by a process that does not map its port");
    const ReadResult result = link_.receiver.read(proc, page->second, bytes);
    if (result.refused) return fail("read refused: " + to_string(*result.refused));
    stats_.reads_from_store += result.from_store ? 1 : 0;
    stats_.first_touches += result.cost > 0 ? 1 : 0;
    stats_.reader_cost += result.cost;
    for (std::uint8_t byte : result.data)
      if (byte != pattern(port, read_[port]++))
        return fail("port " + std::to_string(port) + " delivered a wrong byte");
    return fail(link_.to_sender(result.messages));
  }

  // Every reader of the port reads what is there (the first one gets it all).
  bool drain(PortId port) {
    const auto readers = readers_of_.find(port);
    if (readers == readers_of_.end()) return fail("a full port nobody reads");
    for (ProcId proc : readers->second)
      if (!read(proc, port, options_.link.page_size)) return false;
    return true;
  }

  const Trace& trace_;
  ReplayOptions options_;
  Link link_;
  std::map<Key, VPage> writer_pages_, reader_pages_;
  std::map<PortId, std::vector<ProcId>> readers_of_;
  std::vector<std::size_t> write_ops_;
  std::size_t posted_ = 0;
  std::map<PortId, std::uint64_t> written_, read_;
  ReplayStats stats_;
};

}  // namespace

std::vector<PortId> Trace::ports() const {
  std::set<PortId> all;
  for (const auto& [proc, port] : writers) all.insert(port);
  for (const auto& [proc, port] : readers) all.insert(port);
  return {all.begin(), all.end()};
}

ReplayStats replay(const Trace& trace, const ReplayOptions& options) {
  return Replayer(trace, options).run();
}

}  // namespace tsunagi::lmmc
