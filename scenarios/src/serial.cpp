// Serial-link network ground truth: layouts as link lists, shortest routes by breadth-first
// search with the lowest-numbered neighbour first. See serial.hpp.
#include "tsunagi/scenarios/serial.hpp"

#include <algorithm>
#include <deque>
#include <set>
#include <stdexcept>

namespace tsunagi::scenario {
namespace {

void add(std::set<std::pair<int, int>>& links, int a, int b) {
  if (a != b) links.insert(std::minmax(a, b));
}

std::set<std::pair<int, int>> layout_links(const SerialSpec& spec) {
  std::set<std::pair<int, int>> links;
  const int n = spec.nodes;
  switch (spec.layout) {
    case SerialLayout::Ring:
      for (int i = 0; i < n; ++i) add(links, i, (i + 1) % n);
      break;
    case SerialLayout::Mesh:
    case SerialLayout::Torus: {
      const bool wrap = spec.layout == SerialLayout::Torus;
      for (int r = 0; r < spec.rows; ++r)
        for (int c = 0; c < spec.cols; ++c) {
          const int i = r * spec.cols + c;
          if (c + 1 < spec.cols || wrap) add(links, i, r * spec.cols + (c + 1) % spec.cols);
          if (r + 1 < spec.rows || wrap) add(links, i, ((r + 1) % spec.rows) * spec.cols + c);
        }
      break;
    }
    case SerialLayout::Hypercube:
      for (int i = 0; i < n; ++i)
        for (int bit = 1; bit < n; bit <<= 1) add(links, i, i ^ bit);
      break;
    case SerialLayout::Links:
      for (const auto& [a, b] : spec.links) add(links, a, b);
      break;
  }
  return links;
}

std::vector<std::vector<int>> neighbours(const SerialSpec& spec) {
  std::vector<std::vector<int>> out(static_cast<std::size_t>(spec.nodes));
  for (const SerialLink& link : serial_links(spec)) {
    out[static_cast<std::size_t>(link.a)].push_back(link.b);
    out[static_cast<std::size_t>(link.b)].push_back(link.a);
  }
  for (auto& list : out) std::sort(list.begin(), list.end());
  return out;
}

std::vector<int> distances_to(const std::vector<std::vector<int>>& adj, int to) {
  std::vector<int> dist(adj.size(), -1);
  std::deque<int> queue{to};
  dist[static_cast<std::size_t>(to)] = 0;
  while (!queue.empty()) {
    const int v = queue.front();
    queue.pop_front();
    for (int w : adj[static_cast<std::size_t>(v)])
      if (dist[static_cast<std::size_t>(w)] < 0) {
        dist[static_cast<std::size_t>(w)] = dist[static_cast<std::size_t>(v)] + 1;
        queue.push_back(w);
      }
  }
  return dist;
}

int next_by(const std::vector<std::vector<int>>& adj, const std::vector<int>& dist, int from) {
  const int d = dist[static_cast<std::size_t>(from)];
  if (d <= 0) return -1;
  for (int w : adj[static_cast<std::size_t>(from)])
    if (dist[static_cast<std::size_t>(w)] == d - 1) return w;
  return -1;
}

void check_node(const SerialSpec& spec, int node) {
  if (node < 0 || node >= spec.nodes)
    throw std::out_of_range("serial: node " + std::to_string(node) + " of " +
                            std::to_string(spec.nodes));
}

}  // namespace

const char* to_string(SerialLayout layout) {
  switch (layout) {
    case SerialLayout::Ring:
      return "ring";
    case SerialLayout::Mesh:
      return "mesh";
    case SerialLayout::Torus:
      return "torus";
    case SerialLayout::Hypercube:
      return "hypercube";
    case SerialLayout::Links:
      return "links";
  }
  return "?";
}

const char* to_string(SerialMedium medium) {
  return medium == SerialMedium::Shared ? "shared" : "links";
}

std::vector<SwitchSpec> serial_switches(const SerialSpec& spec) {
  std::vector<SwitchSpec> switches;
  if (spec.medium == SerialMedium::Shared) {
    SwitchSpec segment;
    segment.name = "segment";
    segment.hosts = spec.nodes;
    segment.host_bandwidth = spec.segment_bandwidth;
    segment.host_latency = spec.segment_latency;
    return {segment};
  }
  for (int i = 0; i < spec.nodes; ++i) {
    SwitchSpec card;
    card.name = "n" + std::to_string(i);
    card.hosts = 1;
    card.host_bandwidth = spec.bus_bandwidth;
    card.host_latency = spec.bus_latency;
    switches.push_back(card);
  }
  return switches;
}

std::vector<SerialLink> serial_links(const SerialSpec& spec) {
  std::vector<SerialLink> out;
  if (spec.medium == SerialMedium::Shared) return out;
  for (const auto& [a, b] : layout_links(spec)) out.push_back({a, b});
  return out;
}

std::vector<int> serial_degrees(const SerialSpec& spec) {
  std::vector<int> degree(static_cast<std::size_t>(spec.nodes), 0);
  for (const SerialLink& link : serial_links(spec)) {
    ++degree[static_cast<std::size_t>(link.a)];
    ++degree[static_cast<std::size_t>(link.b)];
  }
  return degree;
}

int serial_next_node(const SerialSpec& spec, int from, int to) {
  check_node(spec, from);
  check_node(spec, to);
  if (from == to) throw std::invalid_argument("serial: no next node from a node to itself");
  const auto adj = neighbours(spec);
  return next_by(adj, distances_to(adj, to), from);
}

std::vector<int> serial_path(const SerialSpec& spec, int from, int to) {
  check_node(spec, from);
  check_node(spec, to);
  const auto adj = neighbours(spec);
  const std::vector<int> dist = distances_to(adj, to);
  if (dist[static_cast<std::size_t>(from)] < 0) return {};
  std::vector<int> path{from};
  while (path.back() != to) path.push_back(next_by(adj, dist, path.back()));
  return path;
}

std::vector<std::vector<int>> serial_hops(const SerialSpec& spec) {
  const auto adj = neighbours(spec);
  std::vector<std::vector<int>> hops;
  for (int to = 0; to < spec.nodes; ++to) hops.push_back(distances_to(adj, to));
  // distances_to(to)[from] is symmetric on an undirected graph: row = from as well.
  return hops;
}

}  // namespace tsunagi::scenario
