// tsunagi-delayline: fixed-delay links between network namespaces (see delay_line.hpp).
#include <CLI/CLI.hpp>
#include <iostream>

#include "delay_line.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "tsunagi-delayline: joins pairs of network namespaces with TAP devices and\n"
      "re-injects every frame after a fixed delay (no netem on this kernel); a link\n"
      "with a rate also holds each frame for its serialisation time, in FIFO order.\n"
      "Prints 'ready' once every TAP exists; runs until SIGINT/SIGTERM."};
  std::vector<std::string> link_texts;
  std::size_t queue_limit = 20000;
  app.add_option("--link", link_texts, "NS_A:IF_A:NS_B:IF_B:DELAY_NS[:RATE_BIT_PER_S] (repeatable)")
      ->required();
  app.add_option("--queue-limit", queue_limit, "Frames held per direction before dropping")
      ->capture_default_str();
  std::int64_t spin_us = 0;
  app.add_option("--spin-us", spin_us,
                 "Wake this early before a release and poll the rest (a timer wakes late)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  std::vector<tsunagi::realnet::DelayLinkSpec> links;
  try {
    for (const auto& text : link_texts) links.push_back(tsunagi::realnet::parse_delay_link(text));
  } catch (const std::exception& error) {
    std::cerr << "tsunagi-delayline: " << error.what() << '\n';
    return 2;
  }
  return tsunagi::realnet::run_delay_lines(links, queue_limit, spin_us * 1000);
}
