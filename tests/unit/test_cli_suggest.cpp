// Did-you-mean for the tsunagi program's commands and options (app/cli_suggest.hpp): typos,
// swapped letters, prefixes, nothing when nothing is close, every candidate of a tie.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli_suggest.hpp"

using tsunagi::app::did_you_mean;
using tsunagi::app::suggest;
using tsunagi::app::typo_distance;

namespace {

const std::vector<std::string> kCommands{"run", "compare", "sweep", "collect", "report", "help"};
const std::vector<std::string> kRunOptions{"--backend", "--seed",  "--out",   "--set",
                                           "-q",        "--quiet", "--pcap",  "--paje",
                                           "--report",  "--net",   "--hosts", "--dry-run"};

}  // namespace

TEST_CASE("typo distance: a swap of neighbours is one edit", "[cli][suggest]") {
  struct Row {
    const char* a;
    const char* b;
    std::size_t distance;
  };
  const std::vector<Row> table{
      {"run", "run", 0},
      {"rnu", "run", 1},
      {"urn", "run", 1},
      {"rn", "run", 1},
      {"runn", "run", 1},
      {"ran", "run", 1},
      {"", "run", 3},
      {"run", "", 3},
      {"nur", "run", 2},
      {"--backnd", "--backend", 1},
      {"--bakcend", "--backend", 1},
      {"ca", "abc", 3},
  };
  for (const Row& row : table) {
    INFO(row.a << " -> " << row.b);
    CHECK(typo_distance(row.a, row.b) == row.distance);
    CHECK(typo_distance(row.b, row.a) == row.distance);
  }
}

TEST_CASE("suggestions on a table of typos", "[cli][suggest]") {
  struct Row {
    const char* word;
    const std::vector<std::string>* candidates;
    std::vector<std::string> expected;
  };
  const std::vector<Row> table{
      {"rnu", &kCommands, {"run"}},               // swapped letters
      {"rum", &kCommands, {"run"}},               // one wrong letter
      {"comapre", &kCommands, {"compare"}},       // swapped, longer word
      {"colect", &kCommands, {"collect"}},        // a letter missing
      {"sweeep", &kCommands, {"sweep"}},          // a letter too many
      {"comp", &kCommands, {"compare"}},          // a prefix
      {"co", &kCommands, {}},                     // too short to be a prefix
      {"xyzzy", &kCommands, {}},                  // nothing close
      {"run", &kCommands, {}},                    // not a typo
      {"--backnd", &kRunOptions, {"--backend"}},  // an option
      {"--seeed", &kRunOptions, {"--seed"}},
      {"--qiuet", &kRunOptions, {"--quiet"}},
      {"-x", &kRunOptions, {}},  // one letter: anything is one edit away
      {"--frobnicate", &kRunOptions, {}},
      {"--dry", &kRunOptions, {"--dry-run"}},  // a prefix of an option
      {"--sat", &kRunOptions, {"--set"}},
      {"--ne", &kRunOptions, {"--net"}},  // two letters, one edit
  };
  for (const Row& row : table) {
    INFO(row.word);
    CHECK(suggest(row.word, *row.candidates) == row.expected);
  }
}

TEST_CASE("a tie lists every candidate in the candidates' order", "[cli][suggest]") {
  CHECK(suggest("rep", {"rev", "rap", "report"}) == std::vector<std::string>{"rev", "rap"});
  CHECK(suggest("--outt", {"--out", "--oute"}) == std::vector<std::string>{"--out", "--oute"});
}

TEST_CASE("did you mean: one, two or more names", "[cli][suggest]") {
  CHECK(did_you_mean({}).empty());
  CHECK(did_you_mean({"run"}) == "did you mean 'run'?");
  CHECK(did_you_mean({"run", "report"}) == "did you mean 'run' or 'report'?");
  CHECK(did_you_mean({"a", "b", "c"}) == "did you mean 'a', 'b' or 'c'?");
}
