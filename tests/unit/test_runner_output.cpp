// Writing a run's files: result.json reads back as written, rank lists stay on one line.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "tsunagi/runner/results/output_files.hpp"

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

fs::path fresh_dir() {
  static std::atomic<int> counter{0};
  return fs::temp_directory_path() /
         ("tsunagi-output-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
}

std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("runner: result.json reads back and keeps rank lists on one line", "[runner]") {
  const fs::path dir = fresh_dir();
  tsunagi::runner::prepare_output_dir(dir / "nested");
  ordered_json result = {
      {"scenario", "x"},
      {"inference", {{"groups", {{0, 1}, {2, 3}}}, {"empty", ordered_json::object()}}},
      {"run", {{"failed_exits", {{{"proc", "r1"}}}}}}};
  const fs::path file = dir / "nested" / "result.json";
  tsunagi::runner::write_result_file(file, result);
  const std::string text = slurp(file);
  CHECK(ordered_json::parse(text) == result);
  CHECK(text.find("\"groups\": [[0,1],[2,3]]") != std::string::npos);
  CHECK(text.find("\"empty\": {}") != std::string::npos);
  CHECK(text.back() == '\n');
  CHECK_FALSE(fs::exists(dir / "nested" / "result.json.partial"));
  fs::remove_all(dir);
}

TEST_CASE("runner: trace.jsonl is written as the recorder holds it", "[runner]") {
  const fs::path dir = fresh_dir();
  tsunagi::runner::prepare_output_dir(dir);
  tsunagi::runner::Recorder recorder;
  recorder.on_trace("r0", 5, tsunagi::TraceCmd{"plan", {{"peers", {1}}}});
  tsunagi::runner::write_trace_file(dir / "trace.jsonl", recorder);
  CHECK(slurp(dir / "trace.jsonl") ==
        "{\"proc\":\"r0\",\"seq\":0,\"kind\":\"plan\",\"detail\":{\"peers\":[1]},\"t_ns\":5}\n");
  fs::remove_all(dir);
}

TEST_CASE("runner: an output path that is a file is refused before the run", "[runner]") {
  const fs::path dir = fresh_dir();
  fs::create_directories(dir);
  std::ofstream(dir / "plain") << "x";
  CHECK_THROWS_AS(tsunagi::runner::prepare_output_dir(dir / "plain"), tsunagi::runner::OutputError);
  fs::remove_all(dir);
}

TEST_CASE("runner: relays.dot draws each site, relay and link once", "[runner][relay]") {
  const fs::path dir = fresh_dir();
  tsunagi::runner::prepare_output_dir(dir);
  const fs::path file = dir / tsunagi::runner::kRelayGraphFileName;
  tsunagi::runner::Recorder recorder;
  CHECK_FALSE(tsunagi::runner::write_relay_graph(file, recorder));  // no relay: no file
  CHECK_FALSE(fs::exists(file));
  recorder.on_report("a-relay0", 5,
                     {"relay", {{"relay", "a-relay0"}, {"site", "a"}, {"links", {"b-gw0"}}}});
  recorder.on_report("b-gw0", 5,
                     {"relay", {{"relay", "b-gw0"}, {"site", "b"}, {"links", {"a-relay0"}}}});
  REQUIRE(tsunagi::runner::write_relay_graph(file, recorder));
  const std::string dot = slurp(file);
  CHECK(dot.find("label = \"a\";") != std::string::npos);
  CHECK(dot.find("\"b-gw0\";") != std::string::npos);
  CHECK(dot.find("\"a-relay0\" -- \"b-gw0\";") != std::string::npos);
  CHECK(dot.find("\"b-gw0\" -- \"a-relay0\"") == std::string::npos);  // both ends report it: once
  fs::remove_all(dir);
}

TEST_CASE("runner: messages.csv has one row per message that left, arrival empty if unseen",
          "[runner]") {
  using tsunagi::runner::MessageEvent;
  const fs::path dir = fresh_dir();
  tsunagi::runner::prepare_output_dir(dir);
  tsunagi::runner::Recorder recorder;
  CHECK_FALSE(tsunagi::runner::write_messages_csv(dir / "messages.csv", recorder));  // none
  CHECK_FALSE(fs::exists(dir / "messages.csv"));
  recorder.on_message("r2", 500, MessageEvent{false, 2, 0, 1, 7, 4096});
  recorder.on_message("r0", 300, MessageEvent{false, 0, 2, 0, 1, 28});
  recorder.on_message("r2", 450, MessageEvent{true, 0, 2, 0, 1, 28});
  REQUIRE(tsunagi::runner::write_messages_csv(dir / "messages.csv", recorder));
  CHECK(slurp(dir / "messages.csv") ==
        "from,to,seq,tag,bytes,sent_ns,received_ns\n0,2,0,1,28,300,450\n2,0,1,7,4096,500,\n");
  fs::remove_all(dir);
}
