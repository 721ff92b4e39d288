// SHA-256 and HMAC-SHA-256 of the core (tsunagi/model/sha256.hpp) against the published test
// vectors: FIPS 180-4's examples (NIST's "Examples with intermediate values") and RFC 4231.
#include <catch2/catch.hpp>

#include <string>

#include "tsunagi/model/sha256.hpp"

using namespace tsunagi;

namespace {

std::string hex(const Digest& d) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : d) {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}

std::string bytes(std::size_t n, unsigned char value) {
  return std::string(n, static_cast<char>(value));
}

}  // namespace

TEST_CASE("sha256: FIPS 180-4 examples", "[auth][sha256]") {
  CHECK(hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex(sha256(std::string(1'000'000, 'a'))) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256: fed in pieces of every size gives the same digest", "[auth][sha256]") {
  // Lengths around the 55/56/64-byte padding edges, split at every point.
  for (std::size_t length : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 119u, 120u, 128u, 200u}) {
    std::string text;
    for (std::size_t i = 0; i < length; ++i) text.push_back(static_cast<char>('a' + i % 26));
    const Digest whole = sha256(text);
    for (std::size_t split = 0; split <= length; ++split) {
      Sha256 hash;
      hash.update(std::string_view(text).substr(0, split));
      hash.update(std::string_view(text).substr(split));
      REQUIRE(hash.finish() == whole);
    }
  }
}

TEST_CASE("hmac-sha256: RFC 4231 test cases 1-4, 6, 7", "[auth][sha256]") {
  CHECK(hex(hmac_sha256(bytes(20, 0x0b), "Hi There")) ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(hex(hmac_sha256("Jefe", "what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(hex(hmac_sha256(bytes(20, 0xaa), bytes(50, 0xdd))) ==
        "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  std::string key4;
  for (int i = 1; i <= 25; ++i) key4.push_back(static_cast<char>(i));
  CHECK(hex(hmac_sha256(key4, bytes(50, 0xcd))) ==
        "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
  // Keys longer than a block are hashed first.
  CHECK(hex(hmac_sha256(bytes(131, 0xaa),
                        "Test Using Larger Than Block-Size Key - Hash Key First")) ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  CHECK(hex(hmac_sha256(bytes(131, 0xaa),
                        "This is a test using a larger than block-size key and a larger than "
                        "block-size data. The key needs to be hashed before being used by the "
                        "HMAC algorithm.")) ==
        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST_CASE("constant-time comparison finds a difference in any byte", "[auth][sha256]") {
  const Digest a = sha256("a");
  CHECK(equal_in_constant_time(a.data(), a.data(), a.size()));
  for (std::size_t i = 0; i < a.size(); ++i) {
    Digest b = a;
    b[i] ^= 1;
    CHECK_FALSE(equal_in_constant_time(a.data(), b.data(), a.size()));
  }
}
