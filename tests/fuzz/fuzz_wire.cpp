// libFuzzer target: the deframer, every payload decoder and the connection handshake on
// arbitrary bytes (docs/security.md, "Fuzzing"). The input is a byte stream cut into chunks of
// fuzzer-chosen sizes, as a socket delivers it; every frame that comes out is handed to every
// decoder and to both ends of a handshake. Oracles: no crash, no sanitizer report, and
// re-encoding a decoded frame gives back the bytes it came from (the decoder is strict).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdlib>

#include "tsunagi/model/handshake.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/wire.hpp"

using namespace tsunagi;

namespace {

void decode_all(const wire::Frame& f) {
  (void)wire::read_hello(f);
  (void)wire::read_register(f);
  (void)wire::read_directory(f);
  (void)wire::read_rtt_report(f);
  (void)wire::read_probe_order(f);
  (void)wire::read_rtt_order(f);
  (void)wire::read_rtt_column(f);
  (void)wire::read_probe_result(f);
  (void)wire::read_groups(f);
  (void)wire::read_route_round(f);
  (void)wire::read_data(f);
  (void)wire::read_endpoint_query(f);
  (void)wire::read_endpoint_reply(f);
  (void)wire::read_relay_register(f);
  (void)wire::read_relay_list(f);
  (void)wire::read_relay_hello(f);
  (void)wire::read_link_advert(f);
  (void)wire::read_undeliverable(f);
  (void)wire::goodbye_reason(f);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  auth::RunKey key("fuzz secret", in.ConsumeIntegral<std::uint64_t>());
  auth::Handshake acceptor, initiator;
  (void)auth::begin_acceptor(acceptor, key);
  auth::begin_initiator(initiator, key);
  wire::Deframer deframer;
  while (in.remaining_bytes() > 0) {
    const auto chunk = in.ConsumeIntegralInRange<std::size_t>(1, 512);
    const std::vector<std::uint8_t> bytes = in.ConsumeBytes<std::uint8_t>(chunk);
    deframer.feed(bytes, in.ConsumeBool() ? in.ConsumeIntegralInRange<std::uint64_t>(0, 4096) : 0);
    while (true) {
      auto next = deframer.next();
      if (std::holds_alternative<wire::DecodeError>(next)) return 0;  // the stream is dead
      const auto* frame = std::get_if<wire::Frame>(&next);
      if (frame == nullptr) break;
      decode_all(*frame);
      // The decoder accepts only what the encoder writes: header + payload round-trip.
      const wire::Bytes again = wire::encode(*frame);
      auto redecoded = wire::decode_one(again, frame->filler);
      if (!std::holds_alternative<wire::Frame>(redecoded)) std::abort();
      if (wire::encode(std::get<wire::Frame>(redecoded)) != again) std::abort();
      (void)auth::on_frame(acceptor, key, *frame);
      if (auth::on_frame(initiator, key, *frame).prove) {
        initiator.first = auth::first_frame_bytes(*frame);
        (void)auth::prove(initiator, key);
      }
    }
  }
  return 0;
}
