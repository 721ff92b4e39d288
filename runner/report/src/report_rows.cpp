// The timeline's rows (report_rows.hpp). A process's row is its phases, each from the
// decision that starts it to the next one (or the run's end), and its other decisions as
// ticks. A row for a whole group shows, for each phase, when the group's median rank entered
// it: one straggler does not paint the row, and the tooltip gives the first and last entry.
#include "report_rows.hpp"

#include <algorithm>
#include <map>

#include "report_phases.hpp"
#include "report_svg.hpp"
#include "tsunagi/runner/driver/message_tap.hpp"

namespace tsunagi::runner::report {
namespace {

static_assert(kRowsPerRankMax == kMessageRanksMax,
              "a run records its messages exactly when its timeline has a row per rank");

// One process's phases and other decisions, from its trace.
Row process_row(const std::string& label, const std::vector<Decision>& decisions,
                std::int64_t end_ns) {
  Row row{label, label, -1, 1, {}, {}};
  Span open{0, 0, 0, ""};
  for (const Decision& d : decisions) {
    const int phase = phase_index(d.kind);
    if (phase < 0) {
      row.ticks.push_back({d.kind, d.t_ns, ""});
      continue;
    }
    open.t1 = d.t_ns;
    row.spans.push_back(open);
    open = {phase, d.t_ns, 0, ""};
  }
  open.t1 = std::max(end_ns, open.t0);
  row.spans.push_back(open);
  return row;
}

struct Entries {
  std::vector<std::int64_t> times;  // when each member first entered the phase
};

std::string entry_note(const Entries& entries, int members) {
  std::vector<std::int64_t> t = entries.times;
  std::sort(t.begin(), t.end());
  return "entered by " + std::to_string(t.size()) + " of " + std::to_string(members) +
         " ranks: first at " + time_text(t.front()) + ", median " + time_text(t[t.size() / 2]) +
         ", last " + time_text(t.back());
}

// The phases of a group's row: each begins when the median member entered it.
std::vector<Span> group_spans(const std::vector<const Row*>& members, std::int64_t end_ns) {
  std::map<int, Entries> entries;
  for (const Row* member : members) {
    std::map<int, std::int64_t> first;
    for (const Span& span : member->spans)
      if (span.phase > 0 && !first.contains(span.phase)) first[span.phase] = span.t0;
    for (const auto& [phase, t] : first) entries[phase].times.push_back(t);
  }
  std::vector<Span> spans;
  for (auto& [phase, e] : entries) {
    std::vector<std::int64_t> sorted = e.times;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(sorted.size() / 2),
                     sorted.end());
    spans.push_back(
        {phase, sorted[sorted.size() / 2], 0, entry_note(e, static_cast<int>(members.size()))});
  }
  std::stable_sort(spans.begin(), spans.end(),
                   [](const Span& a, const Span& b) { return a.t0 < b.t0; });
  spans.insert(spans.begin(), Span{0, 0, 0, ""});
  for (std::size_t i = 0; i < spans.size(); ++i)
    spans[i].t1 = i + 1 < spans.size() ? spans[i + 1].t0 : std::max(end_ns, spans[i].t0);
  return spans;
}

// At most kTicksPerGroupRow of the members' other decisions, evenly spread over their times.
std::vector<Tick> group_ticks(const std::vector<const Row*>& members) {
  std::vector<Tick> all;
  std::map<std::string, int> kinds;
  for (const Row* member : members)
    for (const Tick& tick : member->ticks) {
      all.push_back({tick.kind, tick.t, member->label});
      ++kinds[tick.kind];
    }
  std::sort(all.begin(), all.end(), [](const Tick& a, const Tick& b) { return a.t < b.t; });
  std::string summary;
  for (const auto& [kind, n] : kinds) summary += " " + kind + " x" + std::to_string(n);
  std::vector<Tick> kept;
  const std::size_t step = all.size() / kTicksPerGroupRow + 1;
  for (std::size_t i = 0; i < all.size(); i += step) {
    kept.push_back(all[i]);
    kept.back().note = "one of " + std::to_string(all.size()) + " in this row (" +
                       std::to_string((all.size() + step - 1) / step) + " drawn):" + summary;
  }
  return kept;
}

// The run's end: its simulated end, or its last decision if that is later.
std::int64_t run_end(const RunFiles& run) {
  const auto* end = find_dotted(run.result, "simulated_end_s");
  const double simulated = end != nullptr && end->is_number() ? end->get<double>() * 1e9 : 0;
  return std::max(static_cast<std::int64_t>(simulated), run.end_ns);
}

// The bands ranks are gathered in: the inferred groups (and one for ranks in none), or blocks
// of consecutive ranks when there are no groups and the rows are per group.
std::vector<std::vector<int>> rank_sets(const RunFiles& run, bool per_group,
                                        std::vector<Band>& bands) {
  const std::vector<int> group_of = inferred_group_of_rank(run);
  const int groups = group_of.empty() ? 0 : *std::max_element(group_of.begin(), group_of.end()) + 1;
  std::vector<std::vector<int>> sets;
  if (groups > 0) {
    sets.resize(static_cast<std::size_t>(groups) + 1);
    for (std::size_t r = 0; r < group_of.size(); ++r)
      sets[static_cast<std::size_t>(group_of[r] < 0 ? groups : group_of[r])].push_back(
          static_cast<int>(r));
    for (int g = 0; g <= groups; ++g)
      bands.push_back(
          {g < groups ? "G" + std::to_string(g) : "no group", "", g < groups ? g : -1, 0, 0});
  } else {
    const int n = static_cast<int>(group_of.size());
    const int block = per_group ? kBlockRanks : std::max(n, 1);
    for (int first = 0; first < n; first += block) {
      sets.emplace_back();
      for (int r = first; r < std::min(n, first + block); ++r) sets.back().push_back(r);
      bands.push_back({per_group
                           ? "r" + std::to_string(first) + "-" + std::to_string(sets.back().back())
                           : "ranks",
                       "", -1, 0, 0});
    }
  }
  return sets;
}

// The name of each rank's true switch, from topology.json ("" without one).
std::vector<std::string> true_switch_names(const RunFiles& run) {
  std::vector<std::string> names;
  if (!run.topology.is_object()) return names;
  const auto switches = run.topology.value("switches", nlohmann::ordered_json::array());
  for (const auto& rank : run.topology.value("ranks", nlohmann::ordered_json::array())) {
    const int sw = rank.is_object() ? rank.value("switch", -1) : -1;
    names.push_back(sw >= 0 && static_cast<std::size_t>(sw) < switches.size()
                        ? switches[static_cast<std::size_t>(sw)].value("name", std::string())
                        : "");
  }
  return names;
}

// The true switch all of `ranks` hang off, or "" when they do not share one.
std::string shared_switch(const std::vector<std::string>& names, const std::vector<int>& ranks) {
  std::string shared;
  for (int r : ranks) {
    const auto i = static_cast<std::size_t>(r);
    if (i >= names.size() || names[i].empty() || (!shared.empty() && names[i] != shared)) return "";
    shared = names[i];
  }
  return shared;
}

std::string ranks_text(const std::vector<const Row*>& members) {
  std::string text;
  for (std::size_t i = 0; i < members.size() && i < 24; ++i)
    text += (i == 0 ? "" : " ") + members[i]->label;
  return members.size() > 24 ? text + " ..." : text;
}

// Appends the rows of one band: each member, or one row for them all.
void add_band(Timeline& timeline, Band band, const std::vector<const Row*>& members) {
  if (members.empty()) return;
  band.first_row = timeline.rows.size();
  band.note =
      band.label + ": " + std::to_string(members.size()) + " ranks (" + ranks_text(members) + ")";
  if (!band.on.empty()) band.note += ", all on switch " + band.on;
  band.label += ": " + std::to_string(members.size()) + (band.on.empty() ? "" : " on " + band.on);
  const int index = static_cast<int>(timeline.bands.size());
  if (timeline.per_group) {
    Row row{band.label,
            "",
            index,
            static_cast<int>(members.size()),
            group_spans(members, timeline.end_ns),
            group_ticks(members)};
    timeline.rows.push_back(std::move(row));
  } else {
    for (const Row* member : members) {
      timeline.rows.push_back(*member);
      timeline.rows.back().band = index;
    }
  }
  band.rows = timeline.rows.size() - band.first_row;
  timeline.bands.push_back(std::move(band));
}

// Arrows for the decisions that name a peer rank, evenly sampled down to kArrowsMax.
void add_arrows(Timeline& timeline, const RunFiles& run,
                const std::map<std::string, std::size_t>& row_of) {
  std::vector<Arrow> all;
  for (const auto& [label, decisions] : run.trace) {
    const auto from = row_of.find(label);
    if (from == row_of.end()) continue;
    for (const Decision& d : decisions) {
      const auto peer = d.detail.find("peer");
      if (peer == d.detail.end() || !peer->is_number_integer()) continue;
      const auto to = row_of.find("r" + peer->dump());
      if (to == row_of.end() || to->second == from->second) continue;
      all.push_back({d.kind, from->second, to->second, d.t_ns,
                     label + " " + d.kind + " r" + peer->dump() + " at " + time_text(d.t_ns)});
    }
  }
  timeline.arrows_total = all.size();
  const std::size_t step = all.size() / kArrowsMax + 1;
  for (std::size_t i = 0; i < all.size(); i += step) timeline.arrows.push_back(all[i]);
}

// The recorded messages that arrived, as arrows between the rows of their two ranks.
void add_messages(Timeline& timeline, const RunFiles& run,
                  const std::map<std::string, std::size_t>& row_of) {
  timeline.messages_recorded = run.messages.size();
  if (timeline.per_group) return;
  for (const Message& m : run.messages) {
    const auto from = row_of.find("r" + std::to_string(m.from));
    const auto to = row_of.find("r" + std::to_string(m.to));
    if (m.received_ns < 0 || from == row_of.end() || to == row_of.end()) continue;
    timeline.messages.push_back({from->second, to->second, m.sent_ns, m.received_ns,
                                 "r" + std::to_string(m.from) + " to r" + std::to_string(m.to) +
                                     ": " + std::to_string(m.bytes) + " bytes, tag " +
                                     std::to_string(m.tag) + ", sent at " + time_text(m.sent_ns) +
                                     ", arrived at " + time_text(m.received_ns) + " (" +
                                     time_text(m.received_ns - m.sent_ns) + ")"});
  }
}

}  // namespace

Timeline build_timeline(const RunFiles& run) {
  Timeline timeline;
  timeline.end_ns = run_end(run);
  timeline.per_group = process_count(run) > kRowsPerRankMax;
  std::map<std::string, Row> by_rank;
  for (const auto& [label, decisions] : run.trace) {
    Row row = process_row(label, decisions, timeline.end_ns);
    if (rank_of(label) < 0) {
      timeline.rows.push_back(std::move(row));
    } else {
      by_rank.emplace(label, std::move(row));
    }
  }
  std::vector<Band> bands;
  const std::vector<std::vector<int>> sets = rank_sets(run, timeline.per_group, bands);
  for (const Band& band : bands) timeline.groups += band.group >= 0 ? 1 : 0;
  const std::vector<std::string> switch_names = true_switch_names(run);
  for (std::size_t b = 0; b < sets.size(); ++b)
    if (bands[b].group >= 0) bands[b].on = shared_switch(switch_names, sets[b]);
  std::map<std::string, std::size_t> row_of;
  for (std::size_t i = 0; i < timeline.rows.size(); ++i) row_of[timeline.rows[i].proc] = i;
  for (std::size_t b = 0; b < sets.size(); ++b) {
    std::vector<const Row*> members;
    for (int rank : sets[b]) {
      const auto it = by_rank.find("r" + std::to_string(rank));
      if (it == by_rank.end()) continue;
      members.push_back(&it->second);
      row_of["r" + std::to_string(rank)] =
          timeline.rows.size() + (timeline.per_group ? 0 : members.size() - 1);
    }
    add_band(timeline, bands[b], members);
  }
  add_arrows(timeline, run, row_of);
  add_messages(timeline, run, row_of);
  return timeline;
}

}  // namespace tsunagi::runner::report
