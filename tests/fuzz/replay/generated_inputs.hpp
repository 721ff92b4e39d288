// The inputs the fuzz replay generates (tests/fuzz/replay/replay_main.cpp): input i is bytes of
// a SplitMix64 stream seeded with i, its length drawn so that every power-of-two scale from 1 to
// 4,096 bytes (libFuzzer's -max_len in tools/fuzz.sh) is as likely: short inputs end a role
// early, in its configuration or first events; long ones reach 400 events. Integer arithmetic
// only, so input i is the same bytes on every machine and compiler.
//
// Random bytes suit the role targets: each reads its input through FuzzedDataProvider, which
// turns any bytes into valid choices (a configuration, events, frames with drawn fields). A
// deframer needs a 32-byte header with a magic byte first, which random bytes almost never
// give, so every odd input opens with 1-4 well-formed frames of the core's own encoder (any
// type, small random payloads): FuzzedDataProvider hands the front of an input out as byte
// strings (fuzz_wire's stream chunks, a role's raw bytes and payloads) and reads its choices
// off the back, so those frames reach the deframers and the decoders behind them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tsunagi/model/wire.hpp"

namespace tsunagi::fuzz {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

inline std::vector<std::uint8_t> random_bytes(std::uint64_t& state, std::size_t size) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(size);
  while (bytes.size() < size) {
    std::uint64_t word = splitmix64(state);
    for (int k = 0; k < 8 && bytes.size() < size; ++k, word >>= 8)
      bytes.push_back(static_cast<std::uint8_t>(word));
  }
  return bytes;
}

// 1-4 frames of any type between ranks -1..8, payloads of 0-63 random bytes.
inline std::vector<std::uint8_t> encoded_frames(std::uint64_t& state) {
  std::vector<std::uint8_t> out;
  const std::uint64_t count = 1 + splitmix64(state) % 4;
  for (std::uint64_t f = 0; f < count; ++f) {
    wire::Frame frame;
    frame.type = static_cast<wire::FrameType>(
        1 + splitmix64(state) % static_cast<std::uint64_t>(wire::kLastFrameType));
    frame.src = static_cast<Rank>(splitmix64(state) % 10) - 1;
    frame.dst = static_cast<Rank>(splitmix64(state) % 10) - 1;
    frame.seq = static_cast<std::uint32_t>(splitmix64(state) % 4);
    frame.payload = random_bytes(state, static_cast<std::size_t>(splitmix64(state) % 64));
    const wire::Bytes bytes = wire::encode(frame);
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

inline std::vector<std::uint8_t> generated_input(std::uint64_t index) {
  std::uint64_t state = index;
  const std::uint64_t scale = splitmix64(state) % 13;  // up to 2^12 = 4,096 bytes
  const std::size_t size = 1 + static_cast<std::size_t>(splitmix64(state) % (1ULL << scale));
  std::vector<std::uint8_t> bytes = random_bytes(state, size);
  if (index % 2 == 1) {
    const std::vector<std::uint8_t> frames = encoded_frames(state);
    bytes.insert(bytes.begin(), frames.begin(), frames.end());
    bytes.resize(std::min<std::size_t>(bytes.size(), 4096));
  }
  return bytes;
}

}  // namespace tsunagi::fuzz
