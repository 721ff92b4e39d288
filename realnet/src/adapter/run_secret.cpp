// The run's secret on realnet. See run_secret.hpp.
#include "run_secret.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace tsunagi::realnet {
namespace {

constexpr std::size_t kSecretBytes = 32;
constexpr std::size_t kMinSecretBytes = 16;

std::string to_hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The secret from its hex text (surrounding white space ignored), or why not.
std::string from_hex(std::string text, const std::string& where) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  std::size_t start = 0;
  while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
  text = text.substr(start);
  if (text.size() % 2 != 0 || text.size() < 2 * kMinSecretBytes)
    throw std::runtime_error(where + ": the run secret must be at least " +
                             std::to_string(2 * kMinSecretBytes) +
                             " hex digits (an even number); the launcher writes 64");
  std::string out;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int high = hex_value(text[i]), low = hex_value(text[i + 1]);
    if (high < 0 || low < 0)
      throw std::runtime_error(where + ": the run secret must be hex digits only");
    out.push_back(static_cast<char>(high * 16 + low));
  }
  return out;
}

}  // namespace

std::string random_bytes(std::size_t bytes) {
  std::string out(bytes, '\0');
  std::size_t filled = 0;
  while (filled < bytes) {
    const ssize_t got = getrandom(out.data() + filled, bytes - filled, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::runtime_error(std::string("getrandom: ") + std::strerror(errno));
    filled += static_cast<std::size_t>(got);
  }
  return out;
}

std::uint64_t random_seed() {
  const std::string bytes = random_bytes(8);
  std::uint64_t seed = 0;
  for (unsigned char c : bytes) seed = seed << 8 | c;
  return seed;
}

void write_run_secret(const std::string& path) {
  ::unlink(path.c_str());  // a file left by an earlier run, perhaps with wider permissions
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    throw std::runtime_error("cannot create the run secret " + path + ": " + std::strerror(errno));
  const std::string text = to_hex(random_bytes(kSecretBytes)) + "\n";
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!written) throw std::runtime_error("cannot write the run secret " + path);
}

std::string read_run_secret(const std::string& path) {
  if (path.empty()) {
    const char* value = std::getenv(kSecretVariable);
    if (value == nullptr)
      throw std::runtime_error(
          std::string("no run secret: pass --secret-file FILE (mode 0600) or set ") +
          kSecretVariable + " (tsunagi run --backend realnet does this for you)");
    return from_hex(value, kSecretVariable);
  }
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw std::runtime_error("--secret-file " + path + ": " + std::strerror(errno));
  if (!S_ISREG(info.st_mode))
    throw std::runtime_error("--secret-file " + path + ": not a regular file");
  if (info.st_uid != ::geteuid())
    throw std::runtime_error("--secret-file " + path + ": owned by another user");
  if ((info.st_mode & 077) != 0)
    throw std::runtime_error("--secret-file " + path +
                             ": other users may read or write it; chmod 600 it");
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  return from_hex(text, "--secret-file " + path);
}

}  // namespace tsunagi::realnet
