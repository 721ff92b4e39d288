// Writing a run's files: DIR/result.json and DIR/trace.jsonl.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "tsunagi/runner/results/recorder.hpp"

namespace tsunagi::runner {

inline constexpr const char* kResultFileName = "result.json";
inline constexpr const char* kTraceFileName = "trace.jsonl";
inline constexpr const char* kRelayGraphFileName = "relays.dot";
inline constexpr const char* kIndicesFileName = "indices.csv";    // paper 004 link indices
inline constexpr const char* kMessagesFileName = "messages.csv";  // workload messages

// A file or directory could not be created or written; the message names the path and why.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Creates `dir` and its parents and checks that it is writable, so a long run does not end
// with nowhere to put its results.
void prepare_output_dir(const std::filesystem::path& dir);

// `file` replaced by `text` (regular_file.hpp: no planted link or FIFO followed); OutputError if
// it cannot be.
void write_output_file(const std::filesystem::path& file, const std::string& text);

// Indented by 2 like dump(2), except that arrays holding no objects (rank lists) stay on one
// line; ends with a newline.
void write_result_file(const std::filesystem::path& file, const nlohmann::ordered_json& result);

void write_trace_file(const std::filesystem::path& file, const Recorder& recorder);

// Any text file, written beside its final name and renamed into place; throws OutputError.
void write_text_file(const std::filesystem::path& file, const std::string& text);

// Paper 004's indices as CSV (one row per ordered pair: from, to, TCP, OH_64B, OH_64KB, BW_64KB,
// BW_8MB, MBps_8MB, tcp_bytes_per_second); false (and no file) when the result has none.
bool write_indices_csv(const std::filesystem::path& file, const nlohmann::ordered_json& result);

// The workload messages the run recorded (message_tap.hpp), one row each in the order they
// left: from,to,seq,tag,bytes,sent_ns,received_ns (received_ns empty when the arrival was not
// seen); false (and no file) when it recorded none.
bool write_messages_csv(const std::filesystem::path& file, const Recorder& recorder);

// The relay overlay (sites, relays, live links) as Graphviz DOT, from the relays' end-of-run
// reports; false (and no file) when no relay reported.
bool write_relay_graph(const std::filesystem::path& file, const Recorder& recorder);

}  // namespace tsunagi::runner
