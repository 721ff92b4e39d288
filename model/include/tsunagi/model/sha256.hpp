// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), small and self-contained: the core
// authenticates every connection of a run with them (docs/security.md, "Authenticated runs").
// Pure functions of their inputs, so the core may use them; checked against the FIPS 180-4
// examples and the RFC 4231 test vectors (tests/unit/test_sha256.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tsunagi {

using Digest = std::array<std::uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  void update(const std::uint8_t* data, std::size_t size);
  void update(std::string_view text) {
    update(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  }
  Digest finish();  // the object must not be used afterwards

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> block_{};
  std::size_t filled_ = 0;    // bytes waiting in block_
  std::uint64_t length_ = 0;  // bytes hashed so far
};

Digest sha256(std::string_view data);

// HMAC-SHA-256 built up in pieces: new Hmac(key), update(...)..., finish().
class Hmac {
 public:
  explicit Hmac(std::string_view key);
  void update(const std::uint8_t* data, std::size_t size) { inner_.update(data, size); }
  void update(std::string_view text) { inner_.update(text); }
  Digest finish();

 private:
  Sha256 inner_;
  std::array<std::uint8_t, 64> outer_key_{};
};

Digest hmac_sha256(std::string_view key, std::string_view message);

// Compares two equally long byte strings in time that does not depend on where they differ, so
// a peer guessing a MAC learns nothing from how long a refusal took.
bool equal_in_constant_time(const std::uint8_t* a, const std::uint8_t* b, std::size_t size);

}  // namespace tsunagi
