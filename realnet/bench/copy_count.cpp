// LD_PRELOAD shim for counting what a program copies, fills and allocates in user space: the
// calls to memcpy, memmove and memset and their bytes, and the calls to malloc, calloc and
// realloc (operator new goes through malloc) and the bytes they asked for, printed to standard
// error at exit, for the whole program and per thread. The realnet bench's counts per round
// trip use it (docs/realnet.md, "Counts per round trip"):
//
//   LD_PRELOAD=build/realnet/libtsunagi-copy-count.so build/realnet/tsunagi-realnet-bench
//       --only adapter --rounds 200 --sizes 1048576   (one line)
//
// Output: `copy-count: NAME CALLS calls BYTES bytes` (all threads), then
// `copy-count: tN NAME CALLS calls BYTES bytes` per thread, numbered in the order they first
// called one of these (t0 is the main thread; the bench's echo thread is t1).
// Copies the compiler inlines (small fixed sizes) and glibc's own internal ones are not seen:
// what a large message costs goes through these calls. Not linked into anything.
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>

extern "C" {
// glibc's own allocator entry points: what malloc & co. forward to here (dlsym would allocate).
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
}

namespace {

struct Tally {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> bytes{0};
  void add(std::size_t n) {
    calls.fetch_add(1, std::memory_order_relaxed);
    bytes.fetch_add(n, std::memory_order_relaxed);
  }
};

enum Kind { kMemcpy, kMemmove, kMemset, kMalloc, kCalloc, kRealloc, kKinds };
constexpr const char* kNames[kKinds] = {"memcpy", "memmove", "memset",
                                        "malloc", "calloc",  "realloc"};
constexpr int kThreads = 16;  // threads past these are counted in the totals only

Tally totals[kKinds];
Tally per_thread[kThreads][kKinds];
std::atomic<int> threads_seen{0};
[[gnu::tls_model("initial-exec")]] thread_local int thread_slot = -1;

void count(Kind kind, std::size_t n) {
  totals[kind].add(n);
  if (thread_slot < 0) thread_slot = threads_seen.fetch_add(1, std::memory_order_relaxed);
  if (thread_slot < kThreads) per_thread[thread_slot][kind].add(n);
}

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

void print(const char* prefix, const char* name, const Tally& tally) {
  std::fprintf(stderr, "copy-count: %s%-7s %12llu calls %16llu bytes\n", prefix, name,
               static_cast<unsigned long long>(tally.calls.load()),
               static_cast<unsigned long long>(tally.bytes.load()));
}

[[gnu::destructor]] void report() {
  for (int kind = 0; kind < kKinds; ++kind) print("", kNames[kind], totals[kind]);
  const int threads = std::min(threads_seen.load(), kThreads);
  for (int t = 0; t < threads; ++t) {
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "t%d ", t);
    for (int kind = 0; kind < kKinds; ++kind) print(prefix, kNames[kind], per_thread[t][kind]);
  }
}

}  // namespace

extern "C" {

void* memcpy(void* to, const void* from, std::size_t n) noexcept {
  count(kMemcpy, n);
  return real("memcpy", real_memcpy, copy_bytes)(to, from, n);
}

void* memmove(void* to, const void* from, std::size_t n) noexcept {
  count(kMemmove, n);
  return real("memmove", real_memmove, copy_bytes)(to, from, n);
}

void* memset(void* to, int value, std::size_t n) noexcept {
  count(kMemset, n);
  return real("memset", real_memset, fill_bytes)(to, value, n);
}

void* malloc(std::size_t size) noexcept {
  count(kMalloc, size);
  return __libc_malloc(size);
}

void* calloc(std::size_t n, std::size_t size) noexcept {
  count(kCalloc, n * size);
  return __libc_calloc(n, size);
}

void* realloc(void* pointer, std::size_t size) noexcept {
  count(kRealloc, size);
  return __libc_realloc(pointer, size);
}

}  // extern "C"
