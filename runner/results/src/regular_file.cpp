// Writing files that may not be what someone planted. See regular_file.hpp.
#include "tsunagi/runner/results/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <stdexcept>

namespace tsunagi::runner {

int open_regular_for_writing(const std::string& path, int flags, unsigned mode) {
  // O_NONBLOCK: opening a FIFO for writing must not wait for a reader the planter controls.
  const int access = (flags & O_ACCMODE) == O_RDWR ? 0 : O_WRONLY;  // a log read back on failure
  const int fd = ::open(path.c_str(), access | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | flags, mode);
  if (fd < 0) return -1;
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    errno = EINVAL;
    return -1;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

int open_regular_or_throw(const std::string& path, int flags, unsigned mode) {
  const int fd = open_regular_for_writing(path, flags, mode);
  if (fd >= 0) return fd;
  const int error = errno;
  throw std::runtime_error("cannot write " + path + ": " +
                           (error == ELOOP || error == EINVAL
                                ? std::string("it is a symlink or not a regular file")
                                : std::string(std::strerror(error))));
}

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& body) {
  const std::string partial = path + ".partial";
  ::unlink(partial.c_str());  // whatever is there, file or planted link, is not ours to follow
  const int fd = open_regular_or_throw(partial, O_CREAT | O_EXCL, 0644);
  {
    __gnu_cxx::stdio_filebuf<char> buffer(fd, std::ios::out);  // closes fd
    std::ostream out(&buffer);
    body(out);
    out.flush();
    if (!out) throw std::runtime_error("error while writing " + partial);
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0)  // rename replaces a link, never follows
    throw std::runtime_error("cannot rename " + partial + " to " + path + ": " +
                             std::strerror(errno));
}

}  // namespace tsunagi::runner
