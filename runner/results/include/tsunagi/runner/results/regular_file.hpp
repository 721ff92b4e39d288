// Opening files for writing without following what someone else planted at the name. tsunagi
// runs as root for namespace networks: a symlink at a file it writes would let any local user
// clobber any file, and a FIFO would hang the run or feed it commands (docs/security.md,
// "Predictable paths written as root").
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace tsunagi::runner {

// open(2) of `path` for writing with O_NOFOLLOW (a symlink fails, ELOOP) and O_NONBLOCK until
// fstat has shown a regular file (a FIFO or device fails, EINVAL): a descriptor that blocks
// like a file, or -1 with errno set. `flags` adds O_CREAT, O_TRUNC, O_APPEND, O_EXCL, O_RDWR.
int open_regular_for_writing(const std::string& path, int flags, unsigned mode = 0644);

// As above, or throws std::runtime_error naming the path and why.
int open_regular_or_throw(const std::string& path, int flags, unsigned mode = 0644);

// `path` replaced by what `body` writes: written beside it (PATH.partial, created O_EXCL after
// removing what was there) and renamed over it, so a reader never sees half a file.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& body);

}  // namespace tsunagi::runner
