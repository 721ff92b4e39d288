// Issue 33: a realnet run whose emulation scaled every latency says so, in result.json
// (latency_scale, workload.makespan_unscaled_s) and on the summary's backend and workload lines,
// so that its makespan is not compared with a simulator's as it stands.
#include <catch2/catch.hpp>

#include <sstream>

#include "summary.hpp"
#include "tsunagi/runner/driver/process_table.hpp"
#include "tsunagi/runner/results/result.hpp"

using Catch::Matchers::Contains;
using nlohmann::ordered_json;
using tsunagi::runner::Recorder;

namespace {

// A realnet pingpong of two ranks whose makespan was measured as 126.9 ms.
Recorder pingpong_run(double latency_scale) {
  Recorder recorder;
  recorder.on_report(
      "r0", 90,
      tsunagi::ReportCmd{"workload",
                         {{"name", "pingpong"}, {"makespan_ns", 126'900'000}, {"verified", true}}});
  recorder.on_backend_count(tsunagi::runner::kLatencyScaleCount, latency_scale);
  return recorder;
}

tsunagi::runner::RunFacts realnet_facts() {
  tsunagi::runner::RunFacts facts;
  facts.scenario = "two-switches";
  facts.backend = "realnet";
  facts.processes = 2;
  facts.workload = "pingpong";
  return facts;
}

std::string summary_of(const ordered_json& result) {
  std::ostringstream out;
  tsunagi::app::print_run_summary(out, result, "out/result.json", "out/trace.jsonl");
  return out.str();
}

}  // namespace

TEST_CASE("summary: a realnet run with scaled latencies says so beside the makespan",
          "[runner][summary]") {
  const ordered_json r = build_result(realnet_facts(), pingpong_run(50)).json;
  CHECK(r["latency_scale"] == 50);
  CHECK(r["workload"]["makespan_unscaled_s"].get<double>() == Approx(0.002538));
  const std::string summary = summary_of(r);
  CHECK_THAT(summary, Contains("backend      realnet, seed 0, 2 processes, latencies scaled ×50 "
                               "by the emulation\n"));
  CHECK_THAT(summary, Contains("workload     pingpong: makespan 126.900 ms measured with "
                               "latencies ×50 (÷ scale: 2.538 ms), verified"));
}

TEST_CASE("summary: latencies as written are not called scaled", "[runner][summary]") {
  for (double scale : {1.0, 0.0}) {  // 1: --latency-scale 1; 0: real hosts, no emulation
    const ordered_json r = build_result(realnet_facts(), pingpong_run(scale)).json;
    CHECK_FALSE(r.contains("latency_scale"));
    CHECK_FALSE(r["workload"].contains("makespan_unscaled_s"));
    CHECK_THAT(summary_of(r), !Contains("scale"));
  }
}
