// Authenticating measurements below the core. See probe_auth.hpp.
#include "probe_auth.hpp"

#include <algorithm>
#include <cstring>

#include "run_secret.hpp"
#include "tsunagi/model/sha256.hpp"

namespace tsunagi::realnet {
namespace {

// Separates these MACs from every other use of the run's secret (the handshake's carry their
// own labels), so no MAC made for one purpose is valid for another.
constexpr const char* kBulkLabel = "tsunagi-bulk-v1";

Digest bulk_mac(const std::string& secret, const std::uint8_t* size_and_nonce) {
  Hmac mac(secret);
  mac.update(kBulkLabel);
  mac.update(size_and_nonce, 8 + kProbeNonceSize);
  return mac.finish();
}

}  // namespace

ProbeNonce fresh_probe_nonce() {
  const std::string bytes = random_bytes(kProbeNonceSize);
  ProbeNonce nonce{};
  std::memcpy(nonce.data(), bytes.data(), nonce.size());
  return nonce;
}

BulkHeader make_bulk_header(const std::string& secret, std::uint64_t bytes) {
  BulkHeader header{};
  for (int i = 0; i < 8; ++i) header[i] = static_cast<std::uint8_t>(bytes >> (8 * i));
  const ProbeNonce nonce = fresh_probe_nonce();
  std::copy(nonce.begin(), nonce.end(), header.begin() + 8);
  const Digest mac = bulk_mac(secret, header.data());
  std::copy(mac.begin(), mac.end(), header.begin() + 8 + kProbeNonceSize);
  return header;
}

bool BulkGate::admit(const BulkHeader& header, std::uint64_t& bytes) {
  bytes = 0;
  for (int i = 0; i < 8; ++i) bytes |= std::uint64_t{header[i]} << (8 * i);
  if (secret_.empty()) return true;
  const Digest expected = bulk_mac(secret_, header.data());
  if (!equal_in_constant_time(expected.data(), header.data() + 8 + kProbeNonceSize,
                              expected.size()))
    return false;
  ProbeNonce nonce{};
  std::copy_n(header.begin() + 8, kProbeNonceSize, nonce.begin());
  return seen_.insert(nonce).second;
}

}  // namespace tsunagi::realnet
