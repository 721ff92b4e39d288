// Keeping freed memory in the process (issue 34): the adapter's read blocks and the core's
// messages are allocated and freed at every round trip, so memory the allocator hands back to
// the kernel is faulted in again page by page on the next message.
#pragma once

namespace tsunagi::realnet {

// Tells glibc's malloc to keep freed memory for reuse: blocks up to 32 MiB come from the heap
// rather than a mapping of their own (which free() unmaps), and the heap's top is returned to
// the kernel only past 256 MiB of free memory there. What a daemon holds is then its peak use,
// not more. Process-wide; calling it again changes nothing.
void keep_freed_heap();

}  // namespace tsunagi::realnet
