// Keeping freed memory in the process (heap_retention.hpp).
#include "heap_retention.hpp"

#include <malloc.h>

namespace tsunagi::realnet {

void keep_freed_heap() {
  // glibc's defaults return memory eagerly: a block of 128 KiB or more gets its own mapping,
  // unmapped when freed, and more than 128 KiB free at the heap's top is trimmed (both
  // thresholds then move with what was freed). A daemon that receives a 1 MiB message per
  // round trip then pays fresh pages (a fault per 4 KiB) for memory it just had: 0.3 faults
  // per 1 MiB round trip on the realnet bench, plain Asio 0 (tools/realnet_counts.py).
  // Setting the thresholds also ends glibc's own adjusting of them; setting them again is
  // harmless, so every adapter may call this.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

}  // namespace tsunagi::realnet
