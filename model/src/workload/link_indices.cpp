// Paper 004's indices from measured times (link_indices.hpp).
#include "tsunagi/model/workload/link_indices.hpp"

namespace tsunagi {
namespace {

const SizeMeasurement* find_size(const PairMeasurement& pair, std::uint64_t bytes) {
  for (const SizeMeasurement& m : pair.sizes)
    if (m.bytes == bytes && m.message_ns > 0) return &m;
  return nullptr;
}

std::optional<double> overhead(const PairMeasurement& pair, std::uint64_t bytes) {
  const SizeMeasurement* m = find_size(pair, bytes);
  if (m == nullptr || m->raw_rtt_ns <= 0) return std::nullopt;
  return (static_cast<double>(m->raw_rtt_ns) / 2) / static_cast<double>(m->message_ns);
}

std::optional<double> bandwidth_share(const PairMeasurement& pair, std::uint64_t bytes) {
  const SizeMeasurement* m = find_size(pair, bytes);
  if (m == nullptr || pair.tcp_bytes_per_second <= 0) return std::nullopt;
  return *message_rate(bytes, m->message_ns) / pair.tcp_bytes_per_second;
}

}  // namespace

std::optional<double> message_rate(std::uint64_t bytes, TimeNs elapsed) {
  if (elapsed <= 0) return std::nullopt;
  return static_cast<double>(bytes) / (static_cast<double>(elapsed) / 1e9);
}

LinkIndices link_indices(const PairMeasurement& pair, double nominal_bytes_per_second) {
  LinkIndices out;
  if (nominal_bytes_per_second > 0) out.tcp = pair.tcp_bytes_per_second / nominal_bytes_per_second;
  out.oh_64b = overhead(pair, kIndexSmall);
  out.oh_64kb = overhead(pair, kIndexMedium);
  out.bw_64kb = bandwidth_share(pair, kIndexMedium);
  out.bw_8mb = bandwidth_share(pair, kIndexLarge);
  if (const SizeMeasurement* m = find_size(pair, kIndexLarge))
    out.mbps_8mb = *message_rate(kIndexLarge, m->message_ns) / 1e6;
  if (pair.train_bytes_per_second > 0 && pair.tcp_bytes_per_second > 0)
    out.bw_train = pair.train_bytes_per_second / pair.tcp_bytes_per_second;
  return out;
}

}  // namespace tsunagi
