// `tsunagi compare`: same decisions per process in order, whatever the interleaving or timing.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "tsunagi/runner/results/compare.hpp"

namespace fs = std::filesystem;
using tsunagi::runner::compare_runs;
using tsunagi::runner::CompareError;

namespace {

// A run directory with hand-written trace.jsonl and result.json, removed afterwards.
class RunDir {
 public:
  explicit RunDir(const std::string& trace, const std::string& groups = "[[0,1],[2]]",
                  const std::string& outcome = "") {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() / ("tsunagi-compare-test-" + std::to_string(::getpid()) +
                                         "-" + std::to_string(counter++));
    fs::create_directories(path_);
    std::ofstream(path_ / "trace.jsonl") << trace;
    std::ofstream(path_ / "result.json")
        << "{\"inference\":{\"groups\":" << groups << "}" << outcome << "}\n";
  }
  ~RunDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string line(const std::string& proc, int seq, const std::string& kind,
                 const std::string& detail, long t_ns = 0) {
  return "{\"proc\":\"" + proc + "\",\"seq\":" + std::to_string(seq) + ",\"kind\":\"" + kind +
         "\",\"detail\":" + detail + ",\"t_ns\":" + std::to_string(t_ns) + "}\n";
}

const std::string kBase = line("rendezvous", 0, "groups", "{\"groups\":[[0,1],[2]]}", 10) +
                          line("r0", 0, "plan", "{\"peers\":[1,2]}", 20) +
                          line("r1", 0, "plan", "{\"peers\":[0]}", 21) +
                          line("r0", 1, "routes", "{\"table\":[1,2,3]}", 30) +
                          line("r2", 0, "plan", "{\"peers\":[0]}", 31);

}  // namespace

TEST_CASE("runner: identical runs compare the same", "[runner][compare]") {
  RunDir a(kBase), b(kBase);
  const auto outcome = compare_runs(a.path(), b.path());
  CHECK(outcome.same);
  CHECK(outcome.differences.empty());
  CHECK(outcome.processes_a == 4);
  CHECK(outcome.decisions_a == 5);
}

TEST_CASE("runner: interleaving across processes does not matter", "[runner][compare]") {
  const std::string reordered = line("r2", 0, "plan", "{\"peers\":[0]}", 31) +
                                line("r0", 0, "plan", "{\"peers\":[1,2]}", 20) +
                                line("r0", 1, "routes", "{\"table\":[1,2,3]}", 30) +
                                line("r1", 0, "plan", "{\"peers\":[0]}", 21) +
                                line("rendezvous", 0, "groups", "{\"groups\":[[0,1],[2]]}", 10);
  RunDir a(kBase), b(reordered);
  CHECK(compare_runs(a.path(), b.path()).same);
}

TEST_CASE("runner: times and timing fields are ignored", "[runner][compare]") {
  const std::string retimed =
      line("rendezvous", 0, "groups", "{\"groups\":[[0,1],[2]],\"timing\":{\"rtt_ns\":5}}", 99) +
      line("r0", 0, "plan", "{\"peers\":[1,2]}", 120) +
      line("r1", 0, "plan", "{\"peers\":[0],\"hop\":{\"timing\":7}}", 121) +
      line("r0", 1, "routes", "{\"table\":[1,2,3]}", 130) +
      line("r2", 0, "plan", "{\"peers\":[0]}", 131);
  const std::string base_with_hop =
      line("rendezvous", 0, "groups", "{\"groups\":[[0,1],[2]]}", 10) +
      line("r0", 0, "plan", "{\"peers\":[1,2]}", 20) +
      line("r1", 0, "plan", "{\"peers\":[0],\"hop\":{}}", 21) +
      line("r0", 1, "routes", "{\"table\":[1,2,3]}", 30) +
      line("r2", 0, "plan", "{\"peers\":[0]}", 31);
  RunDir a(base_with_hop), b(retimed);
  CHECK(compare_runs(a.path(), b.path()).same);
}

TEST_CASE("runner: a different detail is reported with process, decision and place",
          "[runner][compare]") {
  std::string changed = kBase;
  changed.replace(changed.find("[1,2,3]"), 7, "[1,9,3]");
  RunDir a(kBase), b(changed);
  const auto outcome = compare_runs(a.path(), b.path());
  CHECK_FALSE(outcome.same);
  REQUIRE(outcome.differences.size() == 1);
  CHECK(outcome.differences[0] == "proc r0, decision #1 (kind routes): at /table/1: A=2, B=9");
}

TEST_CASE("runner: a different kind is reported", "[runner][compare]") {
  std::string changed = kBase;
  changed.replace(changed.find("routes"), 6, "shortcut");
  RunDir a(kBase), b(changed);
  const auto outcome = compare_runs(a.path(), b.path());
  REQUIRE(outcome.differences.size() == 1);
  CHECK(outcome.differences[0] == "proc r0, decision #1: kind A=routes, B=shortcut");
}

TEST_CASE("runner: a process missing on one side makes runs different", "[runner][compare]") {
  const std::string without_r2 = kBase.substr(0, kBase.rfind("{\"proc\":\"r2\""));
  RunDir a(kBase), b(without_r2);
  const auto outcome = compare_runs(a.path(), b.path());
  CHECK_FALSE(outcome.same);
  REQUIRE(outcome.differences.size() == 1);
  CHECK(outcome.differences[0] == "proc r2: only in A (1 decisions)");
}

TEST_CASE("runner: a process with extra decisions makes runs different", "[runner][compare]") {
  RunDir a(kBase), b(kBase + line("r1", 1, "shortcut", "{\"to\":2}"));
  const auto outcome = compare_runs(a.path(), b.path());
  REQUIRE(outcome.differences.size() == 1);
  CHECK(outcome.differences[0].find("proc r1: A has 1 decisions, B has 2") == 0);
}

TEST_CASE("runner: different inferred groups in result.json make runs different",
          "[runner][compare]") {
  RunDir a(kBase), b(kBase, "[[0,1,2]]");
  const auto outcome = compare_runs(a.path(), b.path());
  CHECK_FALSE(outcome.same);
  REQUIRE(outcome.differences.size() == 1);
  CHECK(outcome.differences[0].find("result.json inference.groups") == 0);
}

TEST_CASE("runner: the same decisions with different outcomes make runs different",
          "[runner][compare]") {
  // Issue 16, defect 5: 9 pairs timed out on one side, none on the other, same decisions.
  const std::string answered =
      R"(,"ok":true,"messages":{"sent":42,"delivered":42,"undeliverable":0,"lost":0,"relayed":7},)"
      R"("relay":{"pairs_connected":6,"unreached":[],"timed_out_pairs":0})";
  const std::string timed_out =
      R"(,"ok":false,"messages":{"sent":42,"delivered":33,"undeliverable":0,"lost":9,"relayed":3},)"
      R"("relay":{"pairs_connected":3,"unreached":[[0,2],[1,2],[2,0]],"timed_out_pairs":9})";
  RunDir a(kBase, "[[0,1],[2]]", answered), b(kBase, "[[0,1],[2]]", timed_out);
  const auto outcome = compare_runs(a.path(), b.path(), 20);
  CHECK_FALSE(outcome.same);
  // ok, delivered, lost, pairs_connected, unreached, timed_out_pairs; relayed depends on timing.
  CHECK(outcome.differing == 6);
  CHECK(outcome.differences[0] == "result.json ok: A=true, B=false");
  for (const auto& difference : outcome.differences)
    CHECK(difference.find("relayed") == std::string::npos);
  // Only a timing-dependent count differs: the same run.
  const std::string relayed_more =
      R"(,"ok":true,"messages":{"sent":42,"delivered":42,"undeliverable":0,"lost":0,"relayed":12},)"
      R"("relay":{"pairs_connected":6,"unreached":[],"timed_out_pairs":0})";
  RunDir c(kBase, "[[0,1],[2]]", relayed_more);
  CHECK(compare_runs(a.path(), c.path()).same);
}

TEST_CASE("runner: differences are capped but all are counted", "[runner][compare]") {
  std::string a_trace, b_trace;
  for (int rank = 0; rank < 20; ++rank) {
    a_trace += line("r" + std::to_string(rank), 0, "plan", "{\"k\":1}");
    b_trace += line("r" + std::to_string(rank), 0, "plan", "{\"k\":2}");
  }
  RunDir a(a_trace), b(b_trace);
  const auto outcome = compare_runs(a.path(), b.path(), 3);
  CHECK(outcome.differing == 20);
  REQUIRE(outcome.differences.size() == 3);
  // Ranks in numeric order, not string order.
  CHECK(outcome.differences[2].find("proc r2,") == 0);
}

TEST_CASE("runner: long details are shortened", "[runner][compare]") {
  const std::string big_a = "{\"v\":\"" + std::string(500, 'a') + "\"}";
  const std::string big_b = "{\"v\":\"" + std::string(500, 'b') + "\"}";
  RunDir a(line("r0", 0, "k", big_a)), b(line("r0", 0, "k", big_b));
  const auto outcome = compare_runs(a.path(), b.path());
  REQUIRE(outcome.differences.size() == 1);
  CHECK(outcome.differences[0].size() < 300);
  CHECK(outcome.differences[0].find("chars)") != std::string::npos);
}

TEST_CASE("runner: missing directories and files are clear errors", "[runner][compare]") {
  RunDir a(kBase);
  CHECK_THROWS_WITH(compare_runs(a.path(), "/nonexistent/tsunagi-run"),
                    Catch::Contains("/nonexistent/tsunagi-run does not exist"));
  RunDir b(kBase);
  fs::remove(b.path() / "result.json");
  CHECK_THROWS_WITH(compare_runs(a.path(), b.path()),
                    Catch::Contains("result.json does not exist"));
}

TEST_CASE("runner: a malformed trace line names file and line", "[runner][compare]") {
  RunDir a(kBase), b(kBase + "{\"proc\":\"r0\",\"seq\":\n");
  CHECK_THROWS_AS(compare_runs(a.path(), b.path()), CompareError);
  CHECK_THROWS_WITH(compare_runs(a.path(), b.path()), Catch::Contains("trace.jsonl:6: not JSON"));
}
