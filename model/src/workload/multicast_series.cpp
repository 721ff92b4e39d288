#include "workload/multicast_series.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "tsunagi/model/rng.hpp"

namespace tsunagi::multicast {
namespace {

std::vector<Rank> workers_of(int processes, Rank master) {
  std::vector<Rank> workers;
  for (Rank rank = 0; rank < processes; ++rank)
    if (rank != master) workers.push_back(rank);
  return workers;
}

// The paper's groups: worker W/r*i for i = 0..r-1 (256/r*i with 256 workers).
std::vector<Rank> strided_group(const std::vector<Rank>& workers, int r) {
  const auto w = static_cast<std::int64_t>(workers.size());
  std::vector<Rank> members;
  for (std::int64_t i = 0; i < r; ++i) members.push_back(workers[w * i / r]);
  return members;
}

// r workers drawn without replacement (a partial Fisher-Yates shuffle of the worker list).
std::vector<Rank> random_group(std::vector<Rank> workers, int r, Rng& rng) {
  for (int i = 0; i < r; ++i) {
    const auto pick =
        i + static_cast<int>(rng.uniform(workers.size() - static_cast<std::size_t>(i)));
    std::swap(workers[i], workers[pick]);
  }
  workers.resize(static_cast<std::size_t>(r));
  std::sort(workers.begin(), workers.end());
  return workers;
}

}  // namespace

Rank master_rank(const MulticastConfig& config, int processes) {
  return config.master < 0 ? processes - 1 : config.master;
}

std::vector<Planned> plan_series(const MulticastConfig& config, int processes, Rank master,
                                 std::uint64_t seed) {
  if (master < 0 || master >= processes)
    throw std::invalid_argument("master rank " + std::to_string(master) + " is not one of the " +
                                std::to_string(processes) + " ranks");
  if (config.groups != "strided" && config.groups != "random")
    throw std::invalid_argument("groups must be \"strided\" or \"random\", not \"" + config.groups +
                                "\"");
  const std::vector<Rank> workers = workers_of(processes, master);
  Rng rng(derive_seed(seed, 0x6d63617374));  // "mcast"
  std::vector<Planned> series;
  for (const std::string& name : config.algorithms) {
    Algorithm algorithm;
    if (!parse_algorithm(name, algorithm))
      throw std::invalid_argument("unknown multicast algorithm \"" + name + "\"");
    for (std::uint64_t bytes : config.sizes) {
      for (int r : config.group_sizes) {
        if (r < 1 || r > static_cast<int>(workers.size()))
          throw std::invalid_argument("a group of " + std::to_string(r) +
                                      " needs that many of the " + std::to_string(workers.size()) +
                                      " workers");
        for (int repeat = 0; repeat < config.repeats; ++repeat) {
          Planned planned{series.size() + 1, algorithm, bytes, r, repeat, {}};
          planned.members =
              config.groups == "random" ? random_group(workers, r, rng) : strided_group(workers, r);
          series.push_back(std::move(planned));
        }
      }
    }
  }
  return series;
}

double trimmed_mean(std::vector<double> values, double trim) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto cut = static_cast<std::size_t>(trim * static_cast<double>(values.size()));
  if (2 * cut >= values.size()) return values[values.size() / 2];
  double sum = 0;
  for (std::size_t i = cut; i < values.size() - cut; ++i) sum += values[i];
  return sum / static_cast<double>(values.size() - 2 * cut);
}

nlohmann::json summarise(const std::vector<Planned>& series, const std::vector<Outcome>& outcomes,
                         double trim) {
  struct Row {
    std::vector<double> times, deliveries, from_root;
    std::set<std::string> chosen;
    int runs = 0, verified = 0;
  };
  std::map<std::tuple<int, std::uint64_t, int>, Row> rows;  // by algorithm, bytes, group size
  std::map<std::tuple<int, std::uint64_t, int>, Algorithm> requested;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const Planned& p = series[i];
    const auto key = std::make_tuple(static_cast<int>(p.requested), p.bytes, p.group_size);
    Row& row = rows[key];
    requested[key] = p.requested;
    ++row.runs;
    const Outcome& o = outcomes[i];
    if (!o.done) continue;
    row.chosen.insert(to_string(o.result.algorithm));
    if (o.failure.empty()) ++row.verified;
    row.times.push_back(static_cast<double>(o.result.completed_at - o.result.started_at));
    row.deliveries.push_back(static_cast<double>(o.result.last_delivery - o.result.started_at));
    row.from_root.push_back(static_cast<double>(o.result.completed_at - o.result.root_received_at));
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [key, row] : rows) {
    out.push_back({{"algorithm", to_string(requested[key])},
                   {"chosen", row.chosen},
                   {"bytes", std::get<1>(key)},
                   {"group_size", std::get<2>(key)},
                   {"runs", row.runs},
                   {"verified", row.verified},
                   {"completion_ns", trimmed_mean(row.times, trim)},
                   {"last_delivery_ns", trimmed_mean(row.deliveries, trim)},
                   {"from_root_ns", trimmed_mean(row.from_root, trim)}});
  }
  return out;
}

}  // namespace tsunagi::multicast
