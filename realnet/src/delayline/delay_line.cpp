// The delay line's event loop: epoll over every TAP, one timerfd for the earliest release,
// one signalfd for a clean stop. See delay_line.hpp.
#include "delay_line.hpp"

#include "link_clock.hpp"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <deque>
#include <iostream>
#include <stdexcept>

namespace tsunagi::realnet {
namespace {

std::int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

std::runtime_error os_error(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

// A TAP device named `ifname` inside namespace `ns` (the calling thread enters it for good;
// the file descriptor keeps working wherever the thread goes next). With `offload` the device
// takes TCP segmentation and checksum offload (TUNSETOFFLOAD) and every frame read or written
// carries a virtio-net header: the kernel hands the line whole GSO super-frames (up to 64 KB
// of 1,448-byte segments) instead of one frame per segment, and segments them again where a
// device needs it. Both ends of a link must agree (the header is passed on untouched).
int open_tap(const std::string& ns, const std::string& ifname, bool offload) {
  const std::string path = "/var/run/netns/" + ns;
  const int ns_fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (ns_fd < 0) throw os_error("cannot open namespace " + path);
  const int entered = setns(ns_fd, CLONE_NEWNET);
  close(ns_fd);
  if (entered != 0) throw os_error("cannot enter namespace " + ns);
  const int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw os_error("cannot open /dev/net/tun");
  ifreq request{};
  request.ifr_flags = static_cast<short>(IFF_TAP | IFF_NO_PI | (offload ? IFF_VNET_HDR : 0));
  std::strncpy(request.ifr_name, ifname.c_str(), IFNAMSIZ - 1);
  if (ioctl(fd, TUNSETIFF, &request) != 0)
    throw os_error("cannot create TAP " + ifname + " in " + ns);
  const unsigned long features = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6;
  if (offload && ioctl(fd, TUNSETOFFLOAD, features) != 0)
    throw os_error("cannot turn on offloads of TAP " + ifname + " in " + ns);
  return fd;
}

struct Frame {
  std::int64_t release = 0;
  std::vector<std::uint8_t> bytes;
};

struct Direction {
  int from = -1;
  int to = -1;
  LinkClock clock;
  std::deque<Frame> queue;
  std::uint64_t dropped = 0;
};

// How late frames were written after their release time: the delay line's own cost (the
// timer's wake-up, the copy). A histogram in microseconds, printed at the end.
class Lateness {
 public:
  void add(std::int64_t late_ns) {
    const auto us = static_cast<std::size_t>(std::max<std::int64_t>(0, late_ns) / 1000);
    ++counts_[std::min(us, counts_.size() - 1)];
    ++frames_;
    max_ns_ = std::max(max_ns_, late_ns);
  }
  void print(std::ostream& out) const {
    if (frames_ == 0) return;
    out << "tsunagi-delayline: " << frames_ << " frames written, late by median "
        << quantile_us(0.5) << " us, p90 " << quantile_us(0.9) << " us, p99 " << quantile_us(0.99)
        << " us, max " << max_ns_ / 1000 << " us\n";
  }

 private:
  std::size_t quantile_us(double q) const {
    const auto rank = static_cast<std::uint64_t>(q * static_cast<double>(frames_ - 1));
    std::uint64_t seen = 0;
    for (std::size_t us = 0; us < counts_.size(); ++us) {
      seen += counts_[us];
      if (seen > rank) return us;
    }
    return counts_.size() - 1;
  }
  std::array<std::uint64_t, 10001> counts_{};  // the last one: 10 ms or more
  std::uint64_t frames_ = 0;
  std::int64_t max_ns_ = 0;
};

// Polling costs a core: at most a tenth of every 10 ms goes to it, so that many busy links
// (a hypercube's, releases microseconds apart) fall back to sleeping on the timer.
class SpinBudget {
 public:
  bool allow(std::int64_t now) {
    if (now - window_start_ >= kWindow) {
      window_start_ = now;
      spent_ = 0;
    }
    return spent_ < kWindow / 10;
  }
  void spend(std::int64_t from, std::int64_t to) { spent_ += to - from; }

 private:
  static constexpr std::int64_t kWindow = 10'000'000;
  std::int64_t window_start_ = 0;
  std::int64_t spent_ = 0;
};

}  // namespace

DelayLinkSpec parse_delay_link(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (parts.size() != 5 && parts.size() != 6)
    throw std::invalid_argument("--link '" + text +
                                "' is not NS_A:IF_A:NS_B:IF_B:DELAY_NS[:RATE_BIT_PER_S]");
  for (int i = 0; i < 4; ++i)
    if (parts[static_cast<std::size_t>(i)].empty() ||
        parts[static_cast<std::size_t>(i)].size() >= IFNAMSIZ + 40)
      throw std::invalid_argument("--link '" + text + "': empty or too long name");
  DelayLinkSpec spec{parts[0], parts[1], parts[2], parts[3], 0, 0};
  auto number = [&](const std::string& field, const char* what) {
    std::size_t used = 0;
    long long value = -1;
    try {
      value = std::stoll(field, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != field.size() || field.empty())
      throw std::invalid_argument("--link '" + text + "': " + what + " '" + field +
                                  "' is not an integer");
    if (value < 0) throw std::invalid_argument("--link '" + text + "': negative " + what);
    return static_cast<std::int64_t>(value);
  };
  spec.delay_ns = number(parts[4], "delay (ns)");
  if (parts.size() == 6) {
    spec.rate_bits_per_s = number(parts[5], "rate (bit/s)");
    if (spec.rate_bits_per_s == 0)
      throw std::invalid_argument("--link '" + text + "': a rate of 0 (leave it out instead)");
  }
  return spec;
}

int run_delay_lines(const std::vector<DelayLinkSpec>& links, std::size_t queue_limit,
                    std::int64_t spin_ns) {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigprocmask(SIG_BLOCK, &stop_signals, nullptr);
  std::vector<Direction> directions;
  try {
    for (const DelayLinkSpec& link : links) {
      // A serial link holds every frame for its own wire time: it must see MTU-sized frames.
      const bool offload = link.rate_bits_per_s == 0;
      const int a = open_tap(link.ns_a, link.if_a, offload);
      const int b = open_tap(link.ns_b, link.if_b, offload);
      directions.push_back({a, b, {link.delay_ns, link.rate_bits_per_s}, {}, 0});
      directions.push_back({b, a, {link.delay_ns, link.rate_bits_per_s}, {}, 0});
    }
  } catch (const std::exception& error) {
    std::cerr << "tsunagi-delayline: " << error.what() << '\n';
    return 1;
  }
  const int epoll = epoll_create1(EPOLL_CLOEXEC);
  const int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  const int signals = signalfd(-1, &stop_signals, SFD_NONBLOCK | SFD_CLOEXEC);
  auto watch = [&](int fd, std::uint64_t tag) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = tag;
    epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
  };
  for (std::size_t d = 0; d < directions.size(); ++d) watch(directions[d].from, d);
  constexpr std::uint64_t kTimerTag = ~std::uint64_t{0};
  constexpr std::uint64_t kSignalTag = kTimerTag - 1;
  watch(timer, kTimerTag);
  watch(signals, kSignalTag);
  std::cout << "ready" << std::endl;

  // A GSO super-frame: its virtio-net header, an Ethernet header and up to 64 KB of IP packet.
  std::vector<std::uint8_t> buffer(65536 + 1024);
  std::int64_t armed = -1;
  Lateness lateness;
  epoll_event events[64];
  bool spinning = false;  // a release is due within spin_ns: poll, do not sleep
  SpinBudget spin_budget;
  for (;;) {
    const std::int64_t before_wait = monotonic_ns();
    const int count = epoll_wait(epoll, events, 64, spinning ? 0 : -1);
    if (spinning) spin_budget.spend(before_wait, monotonic_ns());
    if (count < 0 && errno != EINTR) return 1;
    for (int i = 0; i < count; ++i) {
      const std::uint64_t tag = events[i].data.u64;
      if (tag == kSignalTag) {
        for (const Direction& d : directions)
          if (d.dropped > 0) std::cerr << "tsunagi-delayline: dropped " << d.dropped << " frames\n";
        lateness.print(std::cerr);
        return 0;
      }
      if (tag == kTimerTag) {
        std::uint64_t expirations = 0;
        if (read(timer, &expirations, sizeof expirations) < 0) { /* spurious: nothing due */
        }
        armed = -1;
        continue;
      }
      Direction& d = directions[tag];
      for (;;) {
        const ssize_t n = read(d.from, buffer.data(), buffer.size());
        if (n <= 0) break;
        if (d.queue.size() >= queue_limit) {
          ++d.dropped;
          continue;
        }
        const auto bytes = static_cast<std::size_t>(n);
        d.queue.push_back({d.clock.admit(monotonic_ns(), bytes),
                           std::vector<std::uint8_t>(buffer.begin(), buffer.begin() + n)});
      }
    }
    // Release what is due, then sleep until the next release.
    const std::int64_t now = monotonic_ns();
    std::int64_t next = -1;
    for (Direction& d : directions) {
      while (!d.queue.empty() && d.queue.front().release <= now) {
        const auto& bytes = d.queue.front().bytes;
        if (write(d.to, bytes.data(), bytes.size()) < 0) ++d.dropped;
        lateness.add(now - d.queue.front().release);
        d.queue.pop_front();
      }
      if (!d.queue.empty() && (next < 0 || d.queue.front().release < next))
        next = d.queue.front().release;
    }
    // Poll the last spin_ns before a release (reading new frames meanwhile) or sleep.
    const Wait wait = plan_wait(next, now, spin_ns, spin_budget.allow(now));
    spinning = wait.poll;
    if (wait.timer_ns >= 0 && wait.timer_ns != armed) {
      itimerspec when{};
      when.it_value.tv_sec = wait.timer_ns / 1'000'000'000;
      when.it_value.tv_nsec = wait.timer_ns % 1'000'000'000;
      timerfd_settime(timer, TFD_TIMER_ABSTIME, &when, nullptr);
      armed = wait.timer_ns;
    }
  }
}

}  // namespace tsunagi::realnet
