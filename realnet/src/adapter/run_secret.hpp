// The run's secret on realnet (docs/security.md, "Authenticated runs"): the launcher draws 32
// random bytes from the kernel and writes them, hex-encoded, to a file only its user can read
// (mode 0600); every daemon of the run reads that file (--secret-file) or the variable
// TSUNAGI_RUN_SECRET. The secret never appears on a command line, where `ps` shows it to every
// user of the machine.
#pragma once

#include <cstdint>
#include <string>

namespace tsunagi::realnet {

// The environment variable a daemon reads the secret from when it has no --secret-file.
inline constexpr const char* kSecretVariable = "TSUNAGI_RUN_SECRET";

// `bytes` random bytes from getrandom(2). Throws std::runtime_error when the kernel has none.
std::string random_bytes(std::size_t bytes);
// 64 random bits (a daemon's nonce seed).
std::uint64_t random_seed();

// Draws a fresh secret and writes it to `path`, created with mode 0600 (an existing file is
// replaced). Throws std::runtime_error saying why it could not.
void write_run_secret(const std::string& path);

// Reads the secret: from `path` when given — a regular file of ours that no one else may read
// or write (mode 0600 or stricter) — else from TSUNAGI_RUN_SECRET. Hex, at least 16 bytes
// (32 hex digits). Throws std::runtime_error naming what is wrong and how to fix it.
std::string read_run_secret(const std::string& path);

}  // namespace tsunagi::realnet
