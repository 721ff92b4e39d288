// The LMMC workload's node: link ends per peer, the write routine with flow control and remote
// paging, reads with credits, the costs on the CPU queue. See lmmc_node.hpp.
#include "workload/lmmc_node.hpp"

#include <algorithm>

namespace tsunagi {

LmmcNode::LmmcNode(LmmcConfig cfg) : cfg_(std::move(cfg)) {
  link_.frames = cfg_.frames;
  link_.page_size = cfg_.page_size;
  link_.costs = {cfg_.send_routine, cfg_.receive_write, cfg_.first_touch, cfg_.paging_trap};
  policy_ = lmmc::policy_from_string(cfg_.policy).value_or(lmmc::PolicyKind::Lru);
}

// Link ends are set up on first use: process p maps its virtual link page 0 onto port p + 1 of
// the link, at both ends (the initialisation routine, paper 003 §4.2).
LmmcNode::Peer& LmmcNode::peer(Rank r) {
  auto [it, inserted] = peers_.try_emplace(r);
  Peer& p = it->second;
  if (!inserted) return p;
  p.out = std::make_unique<lmmc::SendEnd>(link_, policy_);
  p.in = std::make_unique<lmmc::RecvEnd>(link_);
  for (int proc = 0; proc < ports(); ++proc) {
    const auto port = static_cast<lmmc::PortId>(proc + 1);
    p.out->open_port(port);
    p.out->map(proc, 0, port);
    p.in->open_port(port);
    p.in->map(proc, 0, port);
  }
  p.out->start();
  p.in->start();
  return p;
}

void LmmcNode::start(WorkloadContext& ctx) {
  started_at_ = ctx.now();
  pump(ctx);
  check_done(ctx);
}

void LmmcNode::queue_write(WorkloadContext& ctx, LmmcWrite write) {
  program_.push_back(write);
  pump(ctx);
}

// Posts the current write and `lookahead` more to their link ends, as the offline replay does:
// what an asynchronous send's descriptor shows before the data moves (COMM keeps such ports).
void LmmcNode::post_ahead() {
  const std::size_t until =
      std::min(program_.size(), next_ + static_cast<std::size_t>(std::max(cfg_.lookahead, 0)) + 1);
  for (; posted_ < until; ++posted_) {
    const LmmcWrite& w = program_[posted_];
    peer(w.dst).out->post(w.proc, 0);
  }
}

// The application thread: one write after another, in program order. A write refused for a
// full frame waits for the reader's credit (STAFF-Link's hardware retry, one level up).
void LmmcNode::pump(WorkloadContext& ctx) {
  while (!busy_ && !failed_ && blocked_on_ == kNoRank && next_ < program_.size()) {
    post_ahead();
    const LmmcWrite w = program_[next_];
    Peer& p = peer(w.dst);
    const std::uint32_t len = std::min<std::uint32_t>(link_.page_size, w.bytes - sent_in_msg_);
    lmmc::Bytes data(len);
    std::uint64_t& offset = p.sent[w.proc];
    for (std::uint32_t i = 0; i < len; ++i)
      data[i] = lmmc_stream_byte(ctx.rank(), w.proc, offset + i);
    lmmc::WriteResult result = p.out->write(w.proc, 0, data);
    if (result.refused == lmmc::Refusal::FrameFull) {
      ++counts_.blocked_writes;
      blocked_on_ = w.dst;
      return;
    }
    if (result.refused) return fail(ctx, "write refused: " + lmmc::to_string(*result.refused));
    ++counts_.writes;
    counts_.bytes_written += len;
    counts_.first_touches += result.first_touch ? 1 : 0;
    if (result.fault) {
      ++counts_.page_faults;
      ++counts_.paging_requests_sent;
      ctx.decision("lmmc_page", {{"to", w.dst},
                                 {"port", w.proc + 1},
                                 {"paged_out", result.paged_out},
                                 {"write", counts_.writes}});
    }
    offset += len;
    sent_in_msg_ += len;
    if (sent_in_msg_ == w.bytes) {
      ++next_;
      sent_in_msg_ = 0;
    }
    busy_ = true;
    after_cpu(ctx, result.cost,
              [this, dst = w.dst, messages = std::move(result.messages)](WorkloadContext& c) {
                for (const lmmc::Bytes& m : messages) c.send(dst, kTag, m);
                busy_ = false;
                pump(c);
                check_done(c);
              });
  }
}

void LmmcNode::after_cpu(WorkloadContext& ctx, TimeNs cost,
                         std::function<void(WorkloadContext&)> then) {
  const std::uint64_t task = next_task_++;
  tasks_[task] = std::move(then);
  ctx.cpu(task, cost);
}

void LmmcNode::on_compute_done(WorkloadContext& ctx, std::uint64_t task) {
  const auto it = tasks_.find(task);
  if (it == tasks_.end()) return;
  auto then = std::move(it->second);
  tasks_.erase(it);
  if (then) then(ctx);
}

void LmmcNode::on_message(WorkloadContext& ctx, Rank src, std::uint32_t tag, const Bytes& body,
                          std::uint64_t /*filler*/) {
  if (tag != kTag) return;
  if (src < 0 || src >= ctx.size() || src == ctx.rank())
    return reject(ctx, src, "message from rank " + std::to_string(src));
  std::string error;
  const auto message = lmmc::decode(body, link_, error);
  if (!message) return reject(ctx, src, error);
  if (std::holds_alternative<lmmc::Credit>(*message)) return on_credit(ctx, src, body);
  on_link_message(ctx, src, body, *message);
}

void LmmcNode::on_credit(WorkloadContext& ctx, Rank src, const Bytes& body) {
  const std::string error = peer(src).out->on_message(body);
  if (!error.empty()) return reject(ctx, src, error);
  ++counts_.credits;
  if (blocked_on_ == src) {
    blocked_on_ = kNoRank;
    pump(ctx);
  }
  check_done(ctx);
}

// The link memory management thread: a paging request or a remote write into a frame; the
// reading process then reads its port locally, which credits the writer.
void LmmcNode::on_link_message(WorkloadContext& ctx, Rank src, const Bytes& body,
                               const lmmc::Message& message) {
  const lmmc::Delivery delivery = peer(src).in->on_message(body);
  if (!delivery.error.empty()) return reject(ctx, src, delivery.error);
  const auto* write = std::get_if<lmmc::RemoteWrite>(&message);
  if (write == nullptr) {
    ++counts_.paging_requests_applied;
    return after_cpu(ctx, delivery.cost, nullptr);
  }
  // The process reads exactly this write's bytes once it is in link memory: a later write to
  // the same port is read (and credited) only after its own receive cost.
  const int proc = static_cast<int>(write->port) - 1;
  const auto length = static_cast<std::uint32_t>(write->data.size());
  after_cpu(ctx, delivery.cost,
            [this, src, proc, length](WorkloadContext& c) { read_port(c, src, proc, length); });
}

void LmmcNode::read_port(WorkloadContext& ctx, Rank src, int proc, std::uint32_t length) {
  Peer& p = peer(src);
  lmmc::ReadResult result = p.in->read(proc, 0, length);
  if (result.refused) return fail(ctx, "read refused: " + lmmc::to_string(*result.refused));
  std::uint64_t& offset = p.read[proc];
  for (std::uint8_t byte : result.data)
    if (byte != lmmc_stream_byte(src, proc, offset++)) ++counts_.mismatched_bytes;
  counts_.bytes_read += result.data.size();
  // The read is over (and credited) once the page's first touch, if any, is paid.
  auto over = [this, src, proc, bytes = result.data.size(),
               credits = std::move(result.messages)](WorkloadContext& c) {
    for (const lmmc::Bytes& m : credits) c.send(src, kTag, m);
    std::uint64_t& assembled = msg_read_[{src, proc}];
    assembled += bytes;
    const std::uint64_t size = std::max<std::uint64_t>(message_size(), 1);
    while (assembled >= size) {
      assembled -= size;
      ++counts_.messages_read;
      on_message_read(c, src, proc);
    }
  };
  if (result.cost > 0) return after_cpu(ctx, result.cost, std::move(over));
  over(ctx);
}

void LmmcNode::touch_read_page(WorkloadContext& ctx, Rank src, int proc) {
  const lmmc::ReadResult result = peer(src).in->read(proc, 0, link_.page_size);
  if (result.cost > 0) after_cpu(ctx, result.cost, nullptr);
}

void LmmcNode::preload(WorkloadContext& ctx, Rank dst) {
  lmmc::SendEnd& out = *peer(dst).out;
  const int fit = std::min(ports(), cfg_.frames);
  for (int proc = 0; proc < fit; ++proc) {
    lmmc::PagingResult result = out.page_in(static_cast<lmmc::PortId>(proc + 1));
    if (!result.error.empty()) return fail(ctx, "preload: " + result.error);
    ++counts_.paging_requests_sent;
    after_cpu(ctx, result.cost, [dst, messages = std::move(result.messages)](WorkloadContext& c) {
      for (const lmmc::Bytes& m : messages) c.send(dst, kTag, m);
    });
  }
}

void LmmcNode::check_done(WorkloadContext& ctx) {
  if (done_at_ >= 0 || failed_ || busy_ || next_ < program_.size() || !done_writing()) return;
  for (const auto& [rank, p] : peers_)
    for (int proc = 0; proc < ports(); ++proc)
      if (p.out->unread(static_cast<lmmc::PortId>(proc + 1)) > 0) return;  // not all read yet
  done_at_ = ctx.now();
  on_done(ctx);
}

void LmmcNode::on_done(WorkloadContext& ctx) {
  if (ctx.rank() == 0)
    ctx.report("workload", {{"name", "lmmc"},
                            {"makespan_ns", done_at_ - started_at_},
                            {"verified", !failed_ && counts_.mismatched_bytes == 0},
                            {"pattern", cfg_.pattern},
                            {"policy", cfg_.policy},
                            {"frames", cfg_.frames}});
  ctx.finished();
}

void LmmcNode::fail(WorkloadContext& ctx, const std::string& why) {
  if (failed_) return;
  failed_ = true;
  error_ = why;
  ctx.decision("lmmc_failed", {{"reason", why}});
  if (ctx.rank() == 0)
    ctx.report("workload", {{"name", "lmmc"}, {"verified", false}, {"error", why}});
  ctx.finished();
}

void LmmcNode::reject(WorkloadContext& ctx, Rank src, const std::string& why) {
  ++counts_.rejected;
  if (first_rejection_.empty()) first_rejection_ = "from rank " + std::to_string(src) + ": " + why;
  ctx.decision("message_rejected", {{"workload", "lmmc"}, {"from", src}, {"reason", why}});
}

// Every rank's counts, once the whole run is over (its reads of others' writes included).
void LmmcNode::on_shutdown(WorkloadContext& ctx) {
  ctx.report("lmmc_rank", {{"policy", cfg_.policy},
                           {"frames", cfg_.frames},
                           {"writes", counts_.writes},
                           {"page_faults", counts_.page_faults},
                           {"first_touches", counts_.first_touches},
                           {"paging_requests_sent", counts_.paging_requests_sent},
                           {"paging_requests_applied", counts_.paging_requests_applied},
                           {"bytes_written", counts_.bytes_written},
                           {"bytes_read", counts_.bytes_read},
                           {"messages_read", counts_.messages_read},
                           {"blocked_writes", counts_.blocked_writes},
                           {"credits", counts_.credits},
                           {"rejected", counts_.rejected},
                           {"first_rejection", first_rejection_},
                           {"mismatched_bytes", counts_.mismatched_bytes},
                           {"unfinished", done_at_ < 0 ? 1 : 0},
                           {"error", error_},
                           {"makespan_ns", done_at_ < 0 ? 0 : done_at_ - started_at_}});
}

}  // namespace tsunagi
