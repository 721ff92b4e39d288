// Authenticating measurements (docs/security.md, "Measurements only from the run"). The core's
// probe ids are small numbers anyone can guess, and the RTT echo and the throughput sink sit on
// every process's port: before issue 29 a stranger could answer pings in the target's place
// (a run ended `result ok` with all its RTTs forged) and hold throughput sinks open without the
// run's secret. Here, below the core, which never sees these bytes:
//   - every RTT probe draws a 16-byte nonce from the kernel's CSPRNG; each ping carries it and a
//     pong counts only if it comes from the probed target's address and port and echoes it;
//   - a throughput probe opens with a fresh nonce and HMAC-SHA-256(secret, label ‖ nonce ‖
//     size), which the sink checks (and never accepts twice) before it reads a byte of the bulk.
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <string>

namespace tsunagi::realnet {

constexpr std::size_t kProbeNonceSize = 16;
using ProbeNonce = std::array<std::uint8_t, kProbeNonceSize>;
constexpr std::size_t kBulkMacSize = 32;

// 16 bytes from getrandom(2), never from the core (whose randomness is the scenario's seed).
ProbeNonce fresh_probe_nonce();

// What follows the purpose byte of a throughput probe: size (8, little-endian), nonce, MAC.
constexpr std::size_t kBulkHeaderSize = 8 + kProbeNonceSize + kBulkMacSize;
using BulkHeader = std::array<std::uint8_t, kBulkHeaderSize>;

// A prober's header for `bytes` under the run's `secret` (a fresh nonce each call).
BulkHeader make_bulk_header(const std::string& secret, std::uint64_t bytes);

// The sink's side: checks headers and remembers the nonces it took, so a recorded header cannot
// open a second sink. Only headers with a valid MAC are remembered: strangers cannot grow it.
class BulkGate {
 public:
  explicit BulkGate(std::string secret) : secret_(std::move(secret)) {}
  // The announced size when `header` proves the secret and is new; nothing otherwise. Without
  // a secret (adapter tests only) every header passes.
  bool admit(const BulkHeader& header, std::uint64_t& bytes);

 private:
  std::string secret_;
  std::set<ProbeNonce> seen_;
};

}  // namespace tsunagi::realnet
