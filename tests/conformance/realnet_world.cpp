// The conformance World on realnet: one AsioProcess per rank plus the rendezvous, all in one
// io_context on 127.0.0.1 with kernel-chosen ports, real kernel TCP and UDP, no root needed.
//
// This file plays the part of the realnet daemon and launcher (realnet/src/daemon/daemon.cpp,
// realnet/src/launcher/) around the adapter, and does what they do:
//   * an ok exit closes the process's sockets once what its core sent has reached the kernel
//     (AsioProcess::flushed, looked at every 5 ms), or after the launcher's --linger of 120 s;
//   * a failed exit (or a stop) closes its sockets at once, so peers notice;
//   * a scenario [[faults]] kill is what SIGTERM does to a daemon: AsioProcess::stop, then
//     shut_down (the launcher's own faults are SIGKILLs of the daemon; closing every socket is
//     what the kernel then does);
//   * once every process has exited (the rendezvous too: backends do not stop it) the run is
//     over and every socket closes.
// What realnet in-process cannot do: cluster policies (no routers, no firewall); a firewalled
// endpoint is a loopback listener whose accept queue is full (RealnetDirectory).
#include <utility>  // before Boost.Asio: Boost 1.74 with C++20 needs std::exchange declared

#include <boost/asio.hpp>

#include "adapter/asio_process.hpp"
#include "world.hpp"

namespace tsunagi::conformance {
namespace {

namespace asio = boost::asio;
namespace rn = tsunagi::realnet;
using tcp = asio::ip::tcp;

const auto kLoopback = asio::ip::make_address("127.0.0.1");
// The launcher's --linger (launch_plan.cpp): how long an exited daemon waits at most for its
// writes to drain.
constexpr TimeNs kLinger = 120 * kNsPerSec;

std::string loopback_endpoint(std::uint16_t port) {
  return "127.0.0.1:" + std::to_string(port);
}

class RealnetDirectory final : public Directory {
 public:
  explicit RealnetDirectory(asio::io_context& io) : black_hole_(io), filler_(io) {
    // A listener with a backlog of 0 that never accepts, its queue filled by one connection:
    // Linux drops every further SYN to it (accept queue overflow, net.ipv4.tcp_abort_on_overflow
    // = 0), so a connect there gets no answer at all, the way a dropping firewall behaves, and
    // nothing leaves the machine.
    black_hole_.open(tcp::v4());
    black_hole_.bind(tcp::endpoint(kLoopback, 0));
    black_hole_.listen(0);
    filler_.connect(black_hole_.local_endpoint());
    firewalled_ = loopback_endpoint(black_hole_.local_endpoint().port());
  }

  // A port nobody listens on: bound by the kernel's choice, then released. Called once every
  // process listens, so no listener of the run can be given that port afterwards.
  void pick_vacant_port(asio::io_context& io) {
    tcp::acceptor probe(io, tcp::endpoint(kLoopback, 0));
    vacant_ = loopback_endpoint(probe.local_endpoint().port());
  }

  Endpoint endpoint_of(Rank rank) const override {
    return rank == kNoRank ? rendezvous : ranks.at(static_cast<std::size_t>(rank));
  }
  Endpoint vacant_endpoint() const override { return vacant_; }
  Endpoint firewalled_endpoint(Rank) const override { return firewalled_; }

  std::vector<Endpoint> ranks;  // filled once every process has opened its sockets
  Endpoint rendezvous;

 private:
  tcp::acceptor black_hole_;
  tcp::socket filler_;
  Endpoint vacant_;
  Endpoint firewalled_;
};

// One process of the run and what the harness knows about it.
struct Member {
  Rank rank = kNoRank;
  std::string label;
  std::unique_ptr<rn::EventLog> log;
  std::unique_ptr<rn::AsioProcess> process;
};

class RealnetRun {
 public:
  RealnetRun(const scenario::Scenario& scenario, const Scripts& scripts, Outcome& outcome,
             std::chrono::seconds limit)
      : scenario_(scenario),
        outcome_(outcome),
        directory_(io_),
        epoch_(rn::SteadyClock::now()),
        limit_(limit) {
    const int ranks = scenario::process_count(scenario);
    auto config = std::make_shared<ProtocolConfig>(scenario.protocol);
    config->processes = ranks;
    const auto hosts = scenario::enumerate_hosts(scenario.network);
    const auto host_of = scenario::rank_to_host(scenario);
    const auto cluster_of = scenario::rank_clusters(scenario);
    for (Rank r = kNoRank; r < ranks; ++r) outcome_.inputs[r];  // addresses stay put from here
    for (Rank r = kNoRank; r < ranks; ++r) {
      rn::AdapterOptions options;
      options.rank = r;
      options.label = runner::process_label(r);
      options.listen_address = kLoopback;
      options.config = config;
      options.epoch = epoch_;
      if (r == kNoRank) {
        options.host_label = "rendezvous";
      } else {
        const auto index = static_cast<std::size_t>(r);
        options.host_label = hosts[static_cast<std::size_t>(host_of[index])].host;
        if (cluster_of[index] >= 0)
          options.site =
              scenario.network.clusters[static_cast<std::size_t>(cluster_of[index])].name;
        options.rendezvous = directory_.rendezvous;  // as the launcher passes it
      }
      Script script = script_for(scripts, r, outcome_.exits, ranks, limit);
      auto member = std::make_unique<Member>();
      member->rank = r;
      member->label = options.label;
      member->log = std::make_unique<rn::EventLog>("/dev/null", options.label);
      member->process = std::make_unique<rn::AsioProcess>(
          io_, std::make_unique<Scripted>(std::move(script), &outcome_.inputs[r], directory_),
          std::move(options), *member->log);
      // Sockets are bound now, so every endpoint is known before any process starts.
      member->process->open();
      if (r == kNoRank)
        directory_.rendezvous = member->process->endpoint();
      else
        directory_.ranks.push_back(member->process->endpoint());
      Member* m = member.get();
      m->process->on_exit = [this, m](const ExitCmd& exit) { on_exit(*m, exit); };
      members_.push_back(std::move(member));
    }
    directory_.pick_vacant_port(io_);
  }

  void run() {
    schedule_faults();
    // Past the limit the harness's rendezvous has given up; whatever still runs is stopped.
    asio::steady_timer limit(io_, epoch_ + limit_ + std::chrono::milliseconds(100));
    limit.async_wait([this](const boost::system::error_code& error) {
      if (error || over_) return;
      for (auto& member : members_)
        if (!member->process->exited())
          member->process->stop("still running after the limit of " +
                                std::to_string(limit_.count()) + " s");
      end_run();
    });
    // The rendezvous first, as every backend starts it.
    for (auto& member : members_) member->process->start();
    io_.run();
    limit.cancel();
    bool ok = true;
    for (const ExitRecord& exit : outcome_.exits) {
      if (exit.ok) continue;
      if (ok) outcome_.failure = exit.proc + " failed: " + exit.reason;
      ok = false;
    }
    outcome_.all_exited_ok = ok && !outcome_.exits.empty();
  }

 private:
  TimeNs now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(rn::SteadyClock::now() - epoch_)
        .count();
  }

  bool all_exited() const {
    for (const auto& member : members_)
      if (!member->process->exited()) return false;
    return true;
  }

  void on_exit(Member& member, const ExitCmd& exit) {
    if (over_) return;  // the harness closing the sockets at the end
    outcome_.exits.push_back({member.label, now(), exit.ok, exit.reason});
    // daemon.cpp: a failure is seen by the peers at once; an ok exit first lets its last
    // frames reach the kernel.
    if (exit.ok)
      asio::post(io_, [this, &member] { close_when_flushed(member, now() + kLinger); });
    else
      asio::post(io_, [&member] { member.process->shut_down(); });
    if (all_exited()) asio::post(io_, [this] { end_run(); });
  }

  void close_when_flushed(Member& member, TimeNs until) {
    if (over_) return;
    if (member.process->flushed() || now() >= until) return member.process->shut_down();
    auto timer = std::make_shared<asio::steady_timer>(io_, std::chrono::milliseconds(5));
    timer->async_wait([this, &member, until, timer](const boost::system::error_code& error) {
      if (!error) close_when_flushed(member, until);
    });
  }

  void schedule_faults() {
    for (const scenario::FaultSpec& fault : scenario_.faults) {
      Member* victim = nullptr;
      for (auto& member : members_)
        if (member->label == fault.kill) victim = member.get();
      if (victim == nullptr) throw std::invalid_argument("no process labelled " + fault.kill);
      auto timer =
          std::make_shared<asio::steady_timer>(io_, epoch_ + std::chrono::nanoseconds(fault.at));
      timer->async_wait([this, victim, timer](const boost::system::error_code& error) {
        if (error || over_) return;
        victim->process->stop("killed by the scenario's [[faults]]");
        victim->process->shut_down();
      });
      fault_timers_.push_back(timer);
    }
  }

  // Every process has exited: the launcher's SIGTERMs, every socket closes.
  void end_run() {
    if (over_) return;
    over_ = true;
    for (auto& timer : fault_timers_) timer->cancel();
    for (auto& member : members_) member->process->shut_down();
    io_.stop();
  }

  const scenario::Scenario& scenario_;
  Outcome& outcome_;
  asio::io_context io_;
  RealnetDirectory directory_;
  rn::SteadyClock::time_point epoch_;
  std::chrono::seconds limit_;
  std::vector<std::unique_ptr<Member>> members_;  // the rendezvous, then ranks in order
  std::vector<std::shared_ptr<asio::steady_timer>> fault_timers_;
  bool over_ = false;
};

class RealnetWorld final : public World {
 public:
  std::string name() const override { return "realnet"; }
  bool simulated() const override { return false; }

  Outcome run(const scenario::Scenario& scenario, const Scripts& scripts,
              std::chrono::seconds limit) override {
    Outcome outcome;
    RealnetRun run(scenario, scripts, outcome, limit);
    run.run();
    return outcome;
  }
};

}  // namespace

std::unique_ptr<World> make_world() {
  return std::make_unique<RealnetWorld>();
}

}  // namespace tsunagi::conformance
