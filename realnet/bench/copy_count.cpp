// LD_PRELOAD shim for counting what a program copies and fills in user space: the calls to
// memcpy, memmove and memset and their bytes, printed to standard error at exit. The realnet
// bench's counts per round trip use it (docs/realnet.md, "Counts per round trip"):
//
//   LD_PRELOAD=build/realnet/libtsunagi-copy-count.so build/realnet/tsunagi-realnet-bench
//       --only adapter --rounds 200 --sizes 1048576   (one line)
//
// Copies the compiler inlines (small fixed sizes) and glibc's own internal ones are not seen:
// what a large message costs goes through these calls. Not linked into anything.
#include <dlfcn.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace {

struct Tally {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> bytes{0};
  void add(std::size_t n) {
    calls.fetch_add(1, std::memory_order_relaxed);
    bytes.fetch_add(n, std::memory_order_relaxed);
  }
};

Tally memcpy_tally, memmove_tally, memset_tally;

using CopyFn = void* (*)(void*, const void*, std::size_t);
using FillFn = void* (*)(void*, int, std::size_t);

// dlsym may itself copy or fill: until the real function is known, a byte loop does it (and
// the loop must not be turned back into a call to the function being defined).
[[gnu::optimize("no-tree-loop-distribute-patterns")]] void* copy_bytes(void* to, const void* from,
                                                                       std::size_t n) {
  auto* d = static_cast<volatile unsigned char*>(to);
  const auto* s = static_cast<const unsigned char*>(from);
  if (d < s) {
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
  } else {
    for (std::size_t i = n; i > 0; --i) d[i - 1] = s[i - 1];
  }
  return to;
}

[[gnu::optimize("no-tree-loop-distribute-patterns")]] void* fill_bytes(void* to, int value,
                                                                       std::size_t n) {
  auto* d = static_cast<volatile unsigned char*>(to);
  for (std::size_t i = 0; i < n; ++i) d[i] = static_cast<unsigned char>(value);
  return to;
}

template <class Fn>
Fn real(const char* name, Fn& cached, Fn fallback) {
  static thread_local bool resolving = false;
  if (cached != nullptr) return cached;
  if (resolving) return fallback;
  resolving = true;
  cached = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
  resolving = false;
  return cached != nullptr ? cached : fallback;
}

CopyFn real_memcpy = nullptr, real_memmove = nullptr;
FillFn real_memset = nullptr;

void print(const char* name, const Tally& tally) {
  std::fprintf(stderr, "copy-count: %-7s %12llu calls %16llu bytes\n", name,
               static_cast<unsigned long long>(tally.calls.load()),
               static_cast<unsigned long long>(tally.bytes.load()));
}

[[gnu::destructor]] void report() {
  print("memcpy", memcpy_tally);
  print("memmove", memmove_tally);
  print("memset", memset_tally);
}

}  // namespace

extern "C" {

void* memcpy(void* to, const void* from, std::size_t n) noexcept {
  memcpy_tally.add(n);
  return real("memcpy", real_memcpy, copy_bytes)(to, from, n);
}

void* memmove(void* to, const void* from, std::size_t n) noexcept {
  memmove_tally.add(n);
  return real("memmove", real_memmove, copy_bytes)(to, from, n);
}

void* memset(void* to, int value, std::size_t n) noexcept {
  memset_tally.add(n);
  return real("memset", real_memset, fill_bytes)(to, value, n);
}

}  // extern "C"
