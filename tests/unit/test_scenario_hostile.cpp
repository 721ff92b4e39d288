// Issue 29, item 7: hostile scenario files for every section of the loader. Each is refused at
// the offending FILE:LINE with the fix, before anything is allocated or run: sizes that
// overflowed int64 (a Dragonfly of 2^22 x 2^22 x 2^22 routers loaded as 0 routers), counts that
// loaded and then killed a rank with bad_alloc (multicast sizes and verify_bytes_max up to 2^40,
// unbounded repeats), and counts that multiply into a run that never ends. Documents start on
// line 1; the expected line is the offending key's (or its table's).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "scenario_failure.hpp"

using Catch::Matchers::Contains;

namespace {

struct Hostile {
  const char* section;
  std::string document;
  int line;
  const char* says;
};

// A switch of `hosts` hosts (lines 1-4), then `more` from line 5 on.
std::string hosts(int count, const std::string& more) {
  return "[network]\n[[network.switch]]\nname = \"core\"\nhosts = " + std::to_string(count) + "\n" +
         more;
}

// `count` one-host WAN sites (three lines each from line 1), then the WAN's rendezvous.
std::string sites(int count, const std::string& more = "") {
  std::string text;
  for (int i = 0; i < count; ++i)
    text += "[[network.cluster]]\nname = \"c" + std::to_string(i) + "\"\nhosts = 1\n";
  return text + more + "[network.wan]\nrendezvous = \"c0\"\n";
}

const std::string kDragonfly = "[network.dragonfly]\ngroups = 2\nchassis = 2\nrouters = 4\n";

std::vector<Hostile> hostile_files() {
  return {
      // [network] and its shapes
      {"switch hosts past int",
       "[network]\n[[network.switch]]\nname = \"core\"\nhosts = 2147483648\n", 4, "out of range"},
      {"a tree of 2^93 switches",
       "[network.tree]\nhosts_per_leaf = 1\nlevels = [{ fanout = 2147483647 }, { fanout = "
       "2147483647 }, { fanout = 2147483647 }]\n",
       3, "switches, more than 1000000"},
      {"a Dragonfly of 2^66 routers (wrapped to 0)",
       "[network.dragonfly]\ngroups = 4194304\nchassis = 4194304\nrouters = 4194304\nnodes = 1\n",
       1, "more than 128 routers"},
      {"a Dragonfly of 2^31 nodes per router", kDragonfly + "nodes = 2147483647\n", 5,
       "more than 100000 nodes"},
      {"a Dragonfly link class of 2^31 parallel links",
       kDragonfly + "nodes = 1\nblue = { count = 2147483647 }\n", 6, "out of range"},
      {"a serial ring of 2^31 nodes", "[network.serial]\nlayout = \"ring\"\nnodes = 2147483647\n",
       3, "more than"},
      {"a serial mesh of 2^32 nodes",
       "[network.serial]\nlayout = \"mesh\"\nrows = 65536\ncols = 65536\n", 3,
       "rows x cols is more than"},
      {"1025 WAN sites", sites(1025), 3 * 1024 + 1, "more than 1024 [[network.cluster]] sites"},
      {"2^31 relays in a site",
       "[[network.cluster]]\nname = \"c0\"\nhosts = 1\nrelays = 2147483647\n"
       "[network.wan]\nrendezvous = \"c0\"\n",
       4, "out of range"},
      {"a SYN backoff past int64 nanoseconds",
       sites(1) + "syn_rto = \"86400s\"\nsyn_retries = 30\n", 7, "more than a day"},
      // [protocol] and [protocol.inference]
      {"random_k past the processes", hosts(2, "[protocol]\nrandom_k = 2147483647\n"), 6,
       "out of range"},
      {"rtt_parallel past the processes",
       hosts(2, "[protocol.inference]\nrtt_parallel = 2147483647\n"), 6, "out of range"},
      {"a throughput probe of 2^62 bytes",
       hosts(2, "[protocol.inference]\nthroughput_bytes = 4611686018427387904\n"), 6,
       "out of range"},
      // [workload.*]
      {"2^31 ping-pong rounds", hosts(2, "[workload.pingpong]\nrounds = 2147483647\n"), 6,
       "out of range"},
      {"integer-sort compute past int64 nanoseconds",
       hosts(2,
             "[workload]\nkind = \"intsort\"\n[workload.intsort]\ntotal_keys = 1048576\n"
             "compute_ns_per_key = 4611686018427387904\n"),
       9, "more than a day of compute"},
      {"2^31 integer-sort iterations",
       hosts(2, "[workload]\nkind = \"intsort\"\n[workload.intsort]\niterations = 2147483647\n"), 8,
       "out of range"},
      {"a multicast of 2^40 bytes",
       hosts(4,
             "[workload]\nkind = \"multicast\"\n[workload.multicast]\nsizes = [1099511627776]\n"
             "group_sizes = [2]\n"),
       8, "outside 0..17179869184"},
      {"verify_bytes_max of 2^40",
       hosts(4,
             "[workload]\nkind = \"multicast\"\n[workload.multicast]\ngroup_sizes = [2]\n"
             "verify_bytes_max = 1099511627776\n"),
       9, "out of range"},
      {"2^31 multicast repeats",
       hosts(4,
             "[workload]\nkind = \"multicast\"\n[workload.multicast]\ngroup_sizes = [2]\n"
             "repeats = 2147483647\n"),
       9, "out of range"},
      {"a series of 200,000 multicasts",
       hosts(4,
             "[workload]\nkind = \"multicast\"\n[workload.multicast]\ngroup_sizes = [1, 2, 3]\n"
             "sizes = [1, 2, 3, 4, 5, 6, 7]\nalgorithms = [\"binomial\", \"scatter_ring\", "
             "\"scatter_doubling\", \"topology\"]\nrepeats = 10000\n"),
       11, "more than 100000 multicasts"},
      {"64 MiB verified at 63 members",
       hosts(64,
             "[workload]\nkind = \"multicast\"\n[workload.multicast]\ngroup_sizes = [63]\n"
             "sizes = [67108864]\nverify_bytes_max = 67108864\n"),
       10, "MiB of copies"},
      {"2^31 LMMC rounds",
       hosts(2, "[workload]\nkind = \"lmmc\"\n[workload.lmmc]\nrounds = 2147483647\n"), 8,
       "out of range"},
      {"2^31 LMMC iterations",
       hosts(2, "[workload]\nkind = \"lmmc\"\n[workload.lmmc]\niterations = 2147483647\n"), 8,
       "out of range"},
      {"10^6 LMMC iterations of 4096 processes",
       hosts(16,
             "[workload]\nkind = \"lmmc\"\n[workload.lmmc]\npattern = \"all_to_all\"\n"
             "iterations = 1000000\nprocs = 4096\n"),
       9, "writes per rank"},
      {"an indices stream of 2^40 bytes",
       hosts(2,
             "[workload]\nkind = \"indices\"\n[workload.indices]\nstream_bytes = 1099511627776\n"),
       8, "must be a size from"},
      // [[faults]]
      {"a fault after a day", hosts(2, "[[faults]]\nkill = \"r0\"\nat = \"86401s\"\n"), 7,
       "at most"},
  };
}

}  // namespace

TEST_CASE("hostile scenario files: every section refuses at FILE:LINE with the fix",
          "[limits][hostile]") {
  for (const Hostile& h : hostile_files()) {
    INFO(h.section << "\n" << h.document.substr(0, 600));
    const auto failure = tsunagi::test::scenario_failure(h.document, "hostile.toml");
    CHECK(failure.line == h.line);
    CHECK_THAT(failure.what, Contains(h.says));
    CHECK_THAT(failure.what, Contains("hostile.toml:"));
    CHECK_THAT(failure.what, Contains(" — "));  // the fix follows the dash
  }
}
