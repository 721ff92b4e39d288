// The recorder: process labels, per-process sequence numbers, trace.jsonl bytes.
#include <catch2/catch.hpp>

#include <sstream>

#include "tsunagi/runner/driver/message_tap.hpp"
#include "tsunagi/runner/results/recorder.hpp"

using tsunagi::ExitCmd;
using tsunagi::ReportCmd;
using tsunagi::TraceCmd;
using tsunagi::runner::Recorder;

TEST_CASE("runner: process labels name ranks and the rendezvous", "[runner]") {
  CHECK(tsunagi::runner::process_label(0) == "r0");
  CHECK(tsunagi::runner::process_label(1234) == "r1234");
  CHECK(tsunagi::runner::process_label(tsunagi::kNoRank) == "rendezvous");
}

TEST_CASE("runner: recorder numbers each process's decisions from 0", "[runner]") {
  Recorder recorder;
  recorder.on_trace("r0", 10, TraceCmd{"groups", {{"n", 1}}});
  recorder.on_trace("r1", 11, TraceCmd{"groups", {{"n", 1}}});
  recorder.on_trace("r0", 12, TraceCmd{"routes", {{"n", 2}}});
  recorder.on_trace("rendezvous", 13, TraceCmd{"plan", nullptr});

  const auto& lines = recorder.trace();
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].proc == "r0");
  CHECK(lines[0].seq == 0);
  CHECK(lines[1].seq == 0);
  CHECK(lines[2].seq == 1);
  CHECK(lines[2].kind == "routes");
  CHECK(lines[2].t_ns == 12);
  CHECK(lines[3].seq == 0);
}

TEST_CASE("runner: trace.jsonl has fixed key order and compact lines", "[runner]") {
  Recorder recorder;
  recorder.on_trace("r3", 42, TraceCmd{"shortcut_opened", {{"to", 7}, {"evicted", 2}}});
  recorder.on_trace("rendezvous", 50, TraceCmd{"groups", {{"groups", {{0, 1}, {2}}}}});
  std::ostringstream out;
  recorder.write_trace(out);
  CHECK(out.str() ==
        "{\"proc\":\"r3\",\"seq\":0,\"kind\":\"shortcut_opened\","
        "\"detail\":{\"evicted\":2,\"to\":7},\"t_ns\":42}\n"
        "{\"proc\":\"rendezvous\",\"seq\":0,\"kind\":\"groups\","
        "\"detail\":{\"groups\":[[0,1],[2]]},\"t_ns\":50}\n");
}

TEST_CASE("runner: the same events give the same trace bytes", "[runner]") {
  auto record = [] {
    Recorder recorder;
    for (int i = 0; i < 20; ++i) {
      nlohmann::json detail = {{"z", i}, {"a", {{"y", 1.5}, {"b", "x"}}}};
      recorder.on_trace("r" + std::to_string(i % 3), i * 100, TraceCmd{"k", detail});
    }
    std::ostringstream out;
    recorder.write_trace(out);
    return out.str();
  };
  CHECK(record() == record());
}

TEST_CASE("runner: recorder keeps reports, exits and the latest backend counts", "[runner]") {
  std::vector<std::string> progress;
  Recorder recorder([&](const std::string& message) { progress.push_back(message); });
  recorder.on_report("r0", 5, ReportCmd{"node", {{"rank", 0}}});
  recorder.on_exit("r0", 6, ExitCmd{false, "connect storm"});
  recorder.on_backend_count("inference.rtt_probes", 10);
  recorder.on_backend_count("inference.rtt_probes", 12);
  recorder.on_progress("half way");

  REQUIRE(recorder.reports().size() == 1);
  CHECK(recorder.reports()[0].key == "node");
  CHECK(recorder.reports()[0].proc == "r0");
  REQUIRE(recorder.exits().size() == 1);
  CHECK_FALSE(recorder.exits()[0].ok);
  CHECK(recorder.exits()[0].reason == "connect storm");
  CHECK(recorder.backend_counts().at("inference.rtt_probes") == 12);
  CHECK(progress == std::vector<std::string>{"half way"});
}

TEST_CASE("runner: a recorder without a progress sink drops progress", "[runner]") {
  Recorder recorder;
  CHECK_NOTHROW(recorder.on_progress("nobody listens"));
}

TEST_CASE("runner: invalid UTF-8 in a detail does not abort the trace", "[runner]") {
  Recorder recorder;
  recorder.on_trace("r0", 1,
                    TraceCmd{"bytes",
                             {{"raw", std::string("a\xff"
                                                  "b")}}});
  std::ostringstream out;
  CHECK_NOTHROW(recorder.write_trace(out));
  CHECK(out.str().find("\"kind\":\"bytes\"") != std::string::npos);
}

TEST_CASE("runner: recorder pairs a message's departure and arrival in either order", "[runner]") {
  using tsunagi::runner::MessageEvent;
  Recorder recorder;
  recorder.on_message("r1", 70, MessageEvent{true, 0, 1, 3, 9, 64});  // a realnet clock ahead
  recorder.on_message("r0", 60, MessageEvent{false, 0, 1, 3, 9, 64});
  recorder.on_message("r1", 20, MessageEvent{false, 1, 0, 0, 9, 64});  // never seen to arrive
  recorder.on_message("r2", 90, MessageEvent{true, 2, 0, 0, 9, 64});   // never seen to leave
  const auto messages = recorder.messages();
  REQUIRE(messages.size() == 2);  // in the order they left, departures only
  CHECK(messages[0].from == 1);
  CHECK(messages[0].sent_ns == 20);
  CHECK(messages[0].received_ns == -1);
  CHECK(messages[1].from == 0);
  CHECK(messages[1].sent_ns == 60);
  CHECK(messages[1].received_ns == 70);
  CHECK(messages[1].bytes == 64);
  for (std::uint32_t seq = 0; seq < tsunagi::runner::kMessagesMax; ++seq)
    recorder.on_message("r5", 100, MessageEvent{false, 5, 0, seq, 9, 64});
  CHECK(recorder.messages().size() == tsunagi::runner::kMessagesMax - 1);  // r2's never left
}
