// Exit statuses of the tsunagi program (docs/cli.md).
#pragma once

namespace tsunagi::app {

inline constexpr int kExitOk = 0;             // run succeeded / runs made the same decisions
inline constexpr int kExitFailed = 1;         // run failed / runs differ
inline constexpr int kExitBadInput = 2;       // bad arguments, scenario, or files
inline constexpr int kExitInterrupted = 130;  // Ctrl-C: outputs written up to then (128 + SIGINT)

}  // namespace tsunagi::app
