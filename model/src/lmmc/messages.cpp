#include "tsunagi/model/lmmc/messages.hpp"

#include "tsunagi/model/codec.hpp"

namespace tsunagi::lmmc {

namespace {

enum Type : std::uint8_t { kPaging = 1, kWrite = 2, kCredit = 3 };
constexpr std::size_t kPagingSize = 11;
constexpr std::size_t kWriteHeader = 11;
constexpr std::size_t kCreditSize = 9;

struct Encoder {
  wire::Writer& out;
  void operator()(const PagingRequest& m) const {
    out.u8(kPaging);
    out.u32(m.seq);
    out.u16(m.frame);
    out.u32(m.page_in);
  }
  void operator()(const RemoteWrite& m) const {
    out.u8(kWrite);
    out.u32(m.port);
    out.u16(m.frame);
    out.u32(static_cast<std::uint32_t>(m.data.size()));
    for (std::uint8_t b : m.data) out.u8(b);
  }
  void operator()(const Credit& m) const {
    out.u8(kCredit);
    out.u32(m.port);
    out.u32(m.bytes);
  }
};

std::string length_error(const char* what, std::size_t got, std::size_t want) {
  return std::string(what) + " of " + std::to_string(got) + " bytes, expected " +
         std::to_string(want);
}

// Shared checks of a frame and a port field; "" when both are acceptable.
std::string check_frame(std::uint16_t frame, const LinkConfig& config) {
  if (frame >= config.frames)
    return "frame " + std::to_string(frame) + " out of range (" + std::to_string(config.frames) +
           " frames)";
  return "";
}

std::optional<Message> decode_paging(wire::Reader& in, std::size_t size, const LinkConfig& config,
                                     std::string& error) {
  if (size != kPagingSize) {
    error = length_error("paging request", size, kPagingSize);
    return std::nullopt;
  }
  PagingRequest m;
  m.seq = in.u32();
  m.frame = in.u16();
  m.page_in = in.u32();
  error = check_frame(m.frame, config);
  if (!error.empty()) return std::nullopt;
  return m;
}

std::optional<Message> decode_write(wire::Reader& in, std::size_t size, const LinkConfig& config,
                                    std::string& error) {
  if (size < kWriteHeader) {
    error = length_error("remote write", size, kWriteHeader);
    return std::nullopt;
  }
  RemoteWrite m;
  m.port = in.u32();
  m.frame = in.u16();
  const std::uint32_t length = in.u32();
  if (size != kWriteHeader + length)
    error = length_error("remote write", size, kWriteHeader + length);
  else if (m.port == kNoPort)
    error = "remote write to port id 0";
  else if (length == 0)
    error = "remote write of 0 bytes";
  else if (length > config.page_size)
    error = "remote write of " + std::to_string(length) + " bytes, more than a page";
  else
    error = check_frame(m.frame, config);
  if (!error.empty()) return std::nullopt;
  m.data.reserve(length);  // bounded: length was checked against the bytes present
  for (std::uint32_t i = 0; i < length; ++i) m.data.push_back(in.u8());
  return m;
}

std::optional<Message> decode_credit(wire::Reader& in, std::size_t size, std::string& error) {
  if (size != kCreditSize) {
    error = length_error("credit", size, kCreditSize);
    return std::nullopt;
  }
  Credit m;
  m.port = in.u32();
  m.bytes = in.u32();
  if (m.port == kNoPort)
    error = "credit for port id 0";
  else if (m.bytes == 0)
    error = "credit of 0 bytes";
  if (!error.empty()) return std::nullopt;
  return m;
}

}  // namespace

Bytes encode(const Message& message) {
  wire::Writer out;
  std::visit(Encoder{out}, message);
  return out.take();
}

std::optional<Message> decode(const Bytes& bytes, const LinkConfig& config, std::string& error) {
  error.clear();
  if (bytes.empty()) {
    error = "empty message";
    return std::nullopt;
  }
  wire::Reader in(bytes);
  const std::uint8_t type = in.u8();
  switch (type) {
    case kPaging:
      return decode_paging(in, bytes.size(), config, error);
    case kWrite:
      return decode_write(in, bytes.size(), config, error);
    case kCredit:
      return decode_credit(in, bytes.size(), error);
    default:
      error = "unknown message type " + std::to_string(type);
      return std::nullopt;
  }
}

}  // namespace tsunagi::lmmc
