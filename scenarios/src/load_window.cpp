// protocol.window (issue 15) and [workload.indices] (paper 004's link indices).
#include "readers.hpp"
#include "tsunagi/scenarios/site_tcp.hpp"

namespace tsunagi::scenario {
namespace {

constexpr std::uint64_t kMaxBuffer = std::uint64_t{1} << 30;

std::uint64_t checked_size(const Section& s, std::string_view key, const toml::node& node,
                           std::uint64_t min, std::uint64_t max) {
  std::optional<std::uint64_t> bytes;
  if (auto whole = node.value_exact<std::int64_t>(); whole && *whole >= 0)
    bytes = static_cast<std::uint64_t>(*whole);
  else if (auto text = node.value_exact<std::string>())
    bytes = parse_size(*text);
  if (!bytes || *bytes < min || *bytes > max) {
    s.fail(key, s.path_of(key) + " must be a size from " + std::to_string(min) + " to " +
                    std::to_string(max) + " bytes — e.g. \"64KB\" or \"4MB\" (1024-based)");
  }
  return *bytes;
}

std::uint64_t size_key(const Section& s, std::string_view key, std::uint64_t fallback,
                       std::uint64_t min, std::uint64_t max) {
  const toml::node* node = s.table().get(key);
  return node ? checked_size(s, key, *node, min, max) : fallback;
}

}  // namespace

void read_window(const Section& protocol, WindowConfig& out) {
  if (const toml::node* node = protocol.table().get("window")) {
    const auto text = node->value_exact<std::string>();
    if (text && *text == "default") {
      out.mode = WindowMode::Default;
    } else if (text && *text == "auto") {
      out.mode = WindowMode::Auto;
    } else {
      const auto bytes = text ? parse_size(*text) : std::nullopt;
      if (!bytes || *bytes < 1024 || *bytes > kMaxBuffer) {
        protocol.fail("window",
                      "window must be \"default\" (the host stack's buffers), "
                      "\"auto\" (from the measured bandwidth-delay product) or a size "
                      "from 1KB to 1GB such as \"1MB\"");
      }
      out.mode = WindowMode::Fixed;
      out.bytes = *bytes;
    }
  }
  out.headroom = protocol.number("window_headroom", out.headroom, 0.1, 16);
  out.max_bytes = size_key(protocol, "window_max", out.max_bytes, 65536, kMaxBuffer);
  out.probe_bytes = size_key(protocol, "window_probe_bytes", out.probe_bytes, 65536, kMaxBuffer);
  for (const char* key : {"window_headroom", "window_max", "window_probe_bytes"}) {
    if (protocol.has(key) && out.mode != WindowMode::Auto) {
      protocol.fail(key, std::string(key) +
                             " only applies to window = \"auto\" — remove it or set "
                             "window = \"auto\"");
    }
  }
}

IndicesConfig read_indices(const Section& s, IndicesConfig c) {
  if (const toml::node* node = s.table().get("sizes")) {
    const toml::array* list = node->as_array();
    if (!list || list->empty())
      s.fail("sizes", "sizes must be a list of message sizes, e.g. [\"64B\", \"64KB\", \"8MB\"]");
    c.sizes.clear();
    for (const toml::node& item : *list) {
      c.sizes.push_back(checked_size(s, "sizes", item, 1, kMaxBuffer));
      if (c.sizes.size() > 1 && c.sizes.back() <= c.sizes[c.sizes.size() - 2])
        s.fail("sizes", "sizes must grow from one entry to the next — sort them");
    }
  }
  c.repeats = static_cast<int>(s.integer("repeats", c.repeats, 1, 1000));
  c.stream_bytes = size_key(s, "stream_bytes", c.stream_bytes, 65536, kMaxBuffer);
  c.train_messages = static_cast<int>(s.integer("train_messages", c.train_messages, 0, 1000));
  c.nominal_bandwidth = s.bandwidth("nominal_bandwidth", c.nominal_bandwidth);
  return c;
}

}  // namespace tsunagi::scenario
