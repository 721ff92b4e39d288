// Private to the frame encoders and decoders: the shared head and tail of every message.
#pragma once

#include <optional>
#include <string>

#include "tsunagi/model/codec.hpp"
#include "tsunagi/model/messages.hpp"

namespace tsunagi::wire {

inline Frame framed(FrameType type, Bytes payload, Rank src = kNoRank, Rank dst = kNoRank) {
  Frame f;
  f.type = type;
  f.src = src;
  f.dst = dst;
  f.payload = std::move(payload);
  return f;
}

// Shared tail of every decoder: the type must match and the payload be consumed exactly.
template <class T>
Decoded<T> finish(Reader& r, T value, const char* what) {
  if (!r.finish(what)) return DecodeError{std::string(what) + ": " + r.error()};
  return value;
}

inline std::optional<DecodeError> expect(const Frame& f, FrameType type) {
  if (f.type == type) return std::nullopt;
  return DecodeError{std::string("expected ") + to_string(type) + " frame, got " +
                     to_string(f.type)};
}

inline bool valid_rank(Rank r) {
  return r >= 0 && static_cast<std::size_t>(r) < kMaxRanks;
}

}  // namespace tsunagi::wire
