// messages.csv: the workload messages of a small run (output_files.hpp).
#include <sstream>

#include "tsunagi/runner/results/output_files.hpp"

namespace tsunagi::runner {

bool write_messages_csv(const std::filesystem::path& file, const Recorder& recorder) {
  const std::vector<MessageLine> messages = recorder.messages();
  if (messages.empty()) return false;
  std::ostringstream out;
  out << "from,to,seq,tag,bytes,sent_ns,received_ns\n";
  for (const MessageLine& m : messages) {
    out << m.from << ',' << m.to << ',' << m.seq << ',' << m.tag << ',' << m.bytes << ','
        << m.sent_ns << ',';
    if (m.received_ns >= 0) out << m.received_ns;
    out << '\n';
  }
  write_output_file(file, out.str());
  return true;
}

}  // namespace tsunagi::runner
