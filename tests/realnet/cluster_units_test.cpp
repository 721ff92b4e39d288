// The cluster pieces of the launcher without a cluster: host files with slots and their mapping,
// clock alignment, #SBATCH lines, the run manifest and the replay's clock shift.
#include <wordexp.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "adapter/clock_stamp.hpp"
#include "launcher/event_replay.hpp"
#include "launcher/hosts_file.hpp"
#include "launcher/launch_plan.hpp"
#include "launcher/run_manifest.hpp"
#include "launcher/slurm_script.hpp"
#include "tsunagi/runner/results/recorder.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace rn = tsunagi::realnet;
namespace fs = std::filesystem;
using namespace tsunagi;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char pattern[] = "/tmp/tsunagi-cluster-test.XXXXXX";
    path = mkdtemp(pattern);
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return path / name;
  }
};

scenario::Scenario two_switches() {
  return scenario::load_scenario_file(
      std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/teaching/two-switches.toml", {});
}

}  // namespace

TEST_CASE("host files: names, slots, comments, bad lines name FILE:LINE", "[cluster]") {
  TempDir dir;
  const auto good =
      dir.write("good", "# cluster\n\nalpha slots=3  # three\nbeta\ngamma max_slots=9 slots=2\n");
  const auto hosts = rn::read_hosts_file(good.string());
  REQUIRE(hosts.size() == 3);
  CHECK(hosts[0].name == "alpha");
  CHECK(hosts[0].slots == 3);
  CHECK(hosts[0].line == 3);
  CHECK(hosts[1].slots == 1);
  CHECK(hosts[2].slots == 2);

  struct Bad {
    const char* text;
    const char* says;
  };
  const Bad bad[] = {{"a slots=0\n", ":1: slots=0"},
                     {"a\nb slots=-2\n", ":2: slots=-2"},
                     {"a slots=2x\n", ":1: slots=2x"},
                     {"a slots=\n", ":1: slots="},
                     {"a cpus=4\n", ":1: 'cpus=4' is not"},
                     {"a slots=99999999\n", ":1: slots="},
                     {"# only a comment\n", "no host names"},
                     {"-oProxyCommand=touch\n", ":1: '-oProxyCommand=touch' is not a host"}};
  for (const Bad& b : bad) {
    const auto file = dir.write("bad", b.text);
    try {
      rn::read_hosts_file(file.string());
      FAIL("accepted: " << b.text);
    } catch (const std::invalid_argument& error) {
      CHECK_THAT(error.what(), Catch::Contains(b.says));
    }
  }
  CHECK_THROWS_WITH(rn::read_hosts_file((dir.path / "missing").string()),
                    Catch::Contains("cannot read"));
}

TEST_CASE("scenario hosts fill the machines by slot, in file order", "[cluster]") {
  const std::vector<rn::HostLine> machines{{"a", 3, 1}, {"b", 1, 2}, {"c", 4, 3}};
  CHECK(rn::map_scenario_hosts(machines, 8, "f") ==
        std::vector<std::string>{"a", "a", "a", "b", "c", "c", "c", "c"});
  CHECK(rn::map_scenario_hosts(machines, 2, "f") == std::vector<std::string>{"a", "a"});
  CHECK(rn::map_scenario_hosts(machines, 0, "f").empty());
  CHECK_THROWS_WITH(rn::map_scenario_hosts(machines, 9, "f"),
                    Catch::Contains("has 8 slots; the scenario has 9 hosts"));
  // Property: every scenario host gets a machine, and no machine gets more than its slots.
  for (std::size_t n = 0; n <= 8; ++n) {
    const auto mapped = rn::map_scenario_hosts(machines, n, "f");
    REQUIRE(mapped.size() == n);
    for (const auto& m : machines)
      CHECK(std::count(mapped.begin(), mapped.end(), m.name) <= m.slots);
  }
}

// What a POSIX shell makes of `line`: its words, or nothing when it holds an unquoted ';', '|',
// '&', '$(...)' or backquote (wordexp refuses those: the remote shell would run them).
static std::optional<std::vector<std::string>> shell_words(const std::string& line) {
  wordexp_t words;
  if (wordexp(line.c_str(), &words, WRDE_NOCMD | WRDE_UNDEF) != 0) return std::nullopt;
  std::vector<std::string> out(words.we_wordv, words.we_wordv + words.we_wordc);
  wordfree(&words);
  return out;
}

TEST_CASE("ssh: the remote shell gets every word of a --hosts command as meant", "[cluster]") {
  // Issue 29: ssh joins the words after "--" with spaces and the remote shell splits them
  // again, so a host or work directory with spaces, ';' or '$(...)' ran commands there.
  TempDir dir;
  const auto hosts = dir.write("hosts", "node;touch slots=4\nn$(id)`id`'q' slots=4\n");
  rn::LaunchOptions options;
  options.net = "hosts";
  options.hosts_file = hosts.string();
  options.work_dir = (dir.path / "out dir; touch pwned $HOME").string();
  options.launch_prefix = "nice -n 1";
  const rn::DaemonPaths paths{"/opt/t s/tsunagi-node", "/opt/t s/tsunagi-rendezvous",
                              "/opt/t s/tsunagi-delayline", "/opt/t s/tsunagi-relay"};
  const rn::LaunchPlan plan = rn::make_launch_plan(two_switches(), options, paths, "tsg1-");
  std::vector<rn::PlannedProcess> all = plan.nodes;
  all.push_back(plan.rendezvous);
  const std::string rendezvous = "node;touch:7100";
  for (const rn::PlannedProcess& p : all) {
    INFO(p.label);
    const std::vector<std::string> argv = rn::exec_argv(p, rendezvous);
    const auto dashes = std::find(argv.begin(), argv.end(), "--");
    REQUIRE(dashes != argv.end());
    std::string remote;  // what sshd hands the remote shell
    for (auto it = dashes + 1; it != argv.end(); ++it) remote += (remote.empty() ? "" : " ") + *it;
    const auto words = shell_words(remote);
    REQUIRE(words);
    // The launcher's words, in order: the prefix, the daemon, its options with the
    // rendezvous's address in place of the placeholder.
    std::vector<std::string> meant(std::find(p.argv.begin(), p.argv.end(), "--") + 1, p.argv.end());
    std::replace(meant.begin(), meant.end(), std::string(rn::kRendezvousPlaceholder), rendezvous);
    CHECK(*words == meant);
    CHECK(meant.front() == "nice");
    CHECK(std::find(meant.begin(), meant.end(), p.events_file) != meant.end());
  }
}

TEST_CASE("clock offsets: monotonic on one boot, realtime across machines", "[cluster]") {
  const rn::ClockStamp reference{1'000, 5'000'000, "boot-a", "a"};
  CHECK(rn::clock_offset(reference, {1'700, 9'999'999, "boot-a", "a"}) == 700);
  CHECK(rn::clock_offset(reference, {1'700, 5'000'250, "boot-b", "b"}) == 250);
  CHECK(rn::clock_offset(reference, {400, 4'999'000, "boot-b", "b"}) == -1'000);
  CHECK(rn::clock_offset(rn::ClockStamp{1, 10, "", ""}, rn::ClockStamp{5, 30, "", ""}) == 20);
  const rn::ClockStamp now = rn::clock_stamp(std::chrono::steady_clock::now());
  CHECK(!now.boot_id.empty());
  CHECK(rn::parse_clock_words(rn::clock_words(now))->monotonic_ns == now.monotonic_ns);
  const auto back = rn::parse_clock_line(rn::clock_line("r1", now));
  REQUIRE(back);
  CHECK(back->realtime_ns == now.realtime_ns);
  CHECK(back->boot_id == now.boot_id);
  CHECK_FALSE(rn::parse_clock_words("12 x"));
  CHECK_FALSE(rn::parse_clock_line(nlohmann::json{{"type", "trace"}}));
}

TEST_CASE("replay: each process's times shifted to the rendezvous's start", "[cluster]") {
  TempDir dir;
  // r0 started 2 ms after the rendezvous on the same boot; r1 on another machine 5 ms after it
  // by realtime. Each file's own t_ns counts from its own start.
  auto file = [&](const std::string& label, std::int64_t mono, std::int64_t real,
                  const std::string& boot, TimeNs t) {
    nlohmann::json clock = rn::clock_line(label, {mono, real, boot, "h"});
    nlohmann::json trace = {{"type", "trace"},
                            {"proc", label},
                            {"t_ns", t},
                            {"kind", "k"},
                            {"detail", nlohmann::json::object()}};
    nlohmann::json exit = {
        {"type", "exit"}, {"proc", label}, {"t_ns", t}, {"ok", true}, {"reason", ""}};
    return dir
        .write(label + ".jsonl", clock.dump() + "\n" + trace.dump() + "\n" + exit.dump() + "\n")
        .string();
  };
  const std::vector<rn::ProcessRecord> records{
      {"r0", file("r0", 2'000'000, 100, "A", 10), false, 0, {}},
      {"r1", file("r1", 77, 5'000'000, "B", 10), false, 0, {}},
      {"rendezvous", file("rendezvous", 0, 0, "A", 10), false, 0, {}}};
  runner::Recorder recorder([](const std::string&) {});
  const rn::ReplayOutcome outcome = rn::replay_events(records, recorder);
  CHECK(outcome.problems.empty());
  CHECK(outcome.last_exit == 5'000'010);
  std::map<std::string, TimeNs> at;
  for (const auto& entry : recorder.trace())
    if (entry.kind == "k") at[entry.proc] = entry.t_ns;
  CHECK(at["rendezvous"] == 10);
  CHECK(at["r0"] == 2'000'010);
  CHECK(at["r1"] == 5'000'010);
}

TEST_CASE("#SBATCH lines from the scenario, --sbatch replaces, adds, removes", "[cluster]") {
  const scenario::Scenario s = two_switches();
  rn::LaunchOptions options;
  options.timeout_s = 600;
  rn::LaunchPlan plan;
  plan.work_dir = "/shared/out/realnet";
  using Lines = std::vector<std::pair<std::string, std::string>>;
  CHECK(rn::sbatch_directives(s, options, plan) ==
        Lines{{"job-name", "tsunagi-two-switches"},
              {"nodes", "8"},
              {"ntasks", "8"},
              {"time", "11"},
              {"output", "/shared/out/realnet/slurm.log"}});
  options.timeout_s = 61;
  options.sbatch = {"nodes=1", "partition=debug", "output=", "time=0:30:00"};
  CHECK(rn::sbatch_directives(s, options, plan) == Lines{{"job-name", "tsunagi-two-switches"},
                                                         {"nodes", "1"},
                                                         {"ntasks", "8"},
                                                         {"time", "0:30:00"},
                                                         {"partition", "debug"}});
  for (const char* bad : {"nodes", "=3", "No Spaces=1", "Nodes=2"}) {
    options.sbatch = {bad};
    CHECK_THROWS_WITH(rn::sbatch_directives(s, options, plan), Catch::Contains("KEY=VALUE"));
  }
}

// The lines of a Slurm script that draw the run's secret (from its comment to run.json).
static std::string secret_lines(const std::string& script) {
  const std::size_t from = script.find("# The run's secret");
  const std::size_t to = script.find("cat > ", from);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  return script.substr(from, to - from);
}

static std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_CASE("Slurm: every job draws a fresh secret unless the user names one", "[cluster]") {
  // Issue 29: the script kept any run.secret it found, so every job of a directory shared one.
  TempDir dir;
  rn::LaunchOptions options;
  options.net = "slurm";
  options.work_dir = (dir.path / "out").string();
  const rn::DaemonPaths paths{"tsunagi-node", "tsunagi-rendezvous", "tsunagi-delayline",
                              "tsunagi-relay"};
  const rn::LaunchPlan plan = rn::make_launch_plan(two_switches(), options, paths, "tsg1-");
  const fs::path draw = dir.write("draw.sh", secret_lines(plan.slurm_script));
  const fs::path secret = rn::run_secret_path(options);
  fs::create_directories(secret.parent_path());
  const std::string earlier(64, '0');
  dir.write("out/run.secret", earlier + "\n");
  fs::permissions(secret, fs::perms::owner_read | fs::perms::owner_write);
  std::string seen = earlier;
  for (int job = 0; job < 2; ++job) {
    REQUIRE(std::system(("bash " + draw.string()).c_str()) == 0);
    const std::string drawn = read_text(secret);
    CHECK(drawn.size() == 65);
    CHECK(drawn != seen);
    CHECK((fs::status(secret).permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write));
    seen = drawn;
  }
  // A secret the user names (--secret-file) is used as it is: no job redraws it.
  options.secret_file = dir.write("mine.secret", earlier + "\n").string();
  const rn::LaunchPlan named = rn::make_launch_plan(two_switches(), options, paths, "tsg1-");
  CHECK(named.slurm_script.find("--secret-file " + options.secret_file) != std::string::npos);
  const fs::path keep = dir.write("keep.sh", secret_lines(named.slurm_script));
  REQUIRE(std::system(("bash " + keep.string()).c_str()) == 0);
  CHECK(read_text(options.secret_file) == earlier + "\n");
}

TEST_CASE("run.json round trip, absent ranks take their place in the records", "[cluster]") {
  TempDir dir;
  rn::RunManifest m;
  m.scenario = "/x/s.toml";
  m.overrides = {"seed=3", "a=b"};
  m.mode = "hosts";
  m.processes = {{"r0", "r0.e", "r0.log"},
                 {"r2", "/w/r2.e", "/w/r2.log"},
                 {"rendezvous", "/w/rv.e", "/w/rv.log"}};
  m.absent = {1};
  m.latency_scale = 0;
  rn::write_manifest(dir.path.string(), m);
  const rn::RunManifest back = rn::read_manifest(dir.path.string());
  CHECK(rn::manifest_to_json(back) == rn::manifest_to_json(m));
  const auto records = rn::manifest_records(back);
  REQUIRE(records.size() == 4);
  CHECK(records[0].events_file == (dir.path / "r0.e").string());  // relative: beside run.json
  CHECK(records[2].events_file == "/w/r2.e");
  CHECK(records[1].label == "r1");
  CHECK(records[1].events_file.empty());
  CHECK(records[3].label == "rendezvous");
  dir.write("run.json", "{\"scenario\": 3}");
  CHECK_THROWS_WITH(rn::read_manifest(dir.path.string()),
                    Catch::Contains("not a tsunagi run manifest"));
  CHECK_THROWS_WITH(rn::read_manifest((dir.path / "nowhere").string()),
                    Catch::Contains("not found"));
}
