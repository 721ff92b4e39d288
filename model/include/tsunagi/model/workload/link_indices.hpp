// Paper 004's link indices (section 5), computed from one ordered pair's measurements.
//   TCP    = TCP bandwidth (iperf) / nominal bandwidth (the paper: 1 Gbit/s)
//   OH_s   = (RTT of size s / 2) / (time of an MPI message of size s)
//   BW_s   = (s / time of an MPI message of size s) / TCP bandwidth
//   MB/s at 8 MB = 8 MiB / time of an 8 MiB message, in 10^6 bytes per second
//   BW_train = (rate of a train of back-to-back messages) / TCP bandwidth (not in the paper:
//              osu_bw's bandwidth, which a stream's one-way latency hardly touches)
// The time of a message is half the best blocking round trip (as mpptest reports it); the RTT
// of size s is a raw round trip of s bytes outside every connection (as ping), measured for
// sizes up to one datagram.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi {

// Largest raw round trip payload: one UDP datagram (a ping of 64 KB is 65,507 bytes).
inline constexpr std::uint64_t kMaxRawProbeBytes = 65507;
inline constexpr std::uint64_t kIndexSmall = 64;
inline constexpr std::uint64_t kIndexMedium = 65536;
inline constexpr std::uint64_t kIndexLarge = 8u << 20;

struct SizeMeasurement {
  std::uint64_t bytes = 0;
  TimeNs message_ns = 0;  // one-way time of a message of `bytes` (half the best round trip)
  TimeNs raw_rtt_ns = 0;  // raw round trip of min(bytes, kMaxRawProbeBytes); 0 = not measured
};

struct PairMeasurement {
  Rank from = 0;
  Rank to = 0;
  std::vector<SizeMeasurement> sizes;
  double tcp_bytes_per_second = 0;
  TimeNs tcp_elapsed_ns = 0;  // the bulk transfer's time, first byte sent to last byte in
  std::uint64_t train_message_bytes = 0;  // 0 = no train was sent
  double train_bytes_per_second = 0;
};

struct LinkIndices {
  double tcp = 0;
  std::optional<double> oh_64b, oh_64kb, bw_64kb, bw_8mb, mbps_8mb, bw_train;
};

// Bytes that take `elapsed` per message, or nullopt when nothing was measured.
std::optional<double> message_rate(std::uint64_t bytes, TimeNs elapsed);

LinkIndices link_indices(const PairMeasurement& pair, double nominal_bytes_per_second);

}  // namespace tsunagi
