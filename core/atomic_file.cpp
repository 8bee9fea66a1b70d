#include "core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace tetlab {
namespace {

// Closes the descriptor and removes the temporary unless released.
struct PendingTemp {
  std::filesystem::path path;
  int fd = -1;
  bool keep = false;
  ~PendingTemp() {
    if (fd >= 0) ::close(fd);
    std::error_code ec;
    if (!keep && !path.empty()) std::filesystem::remove(path, ec);
  }
};

std::string reasonFor(int error, const char* doing) {
  if (error == ENOSPC || error == EDQUOT || error == EFBIG)
    return std::string(doing) + " failed: " + std::strerror(error) + " (disk full? free some space and save again)";
  if (error == EACCES || error == EPERM || error == EROFS)
    return std::string(doing) + " failed: " + std::strerror(error) + " (check the folder's permissions)";
  return std::string(doing) + " failed: " + std::strerror(error);
}

}  // namespace

Status writeFileAtomically(const std::filesystem::path& path, std::string_view bytes,
                           const AtomicWriteOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{"it is a folder: give a file name"};
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return Error{"cannot create the folder (" + ec.message() + ")"};
  }
  PendingTemp temp;
  // The process id keeps two processes writing the same file off each other's temporary.
  temp.path = path.string() + ".tmp" + std::to_string(::getpid());
  temp.fd = ::open(temp.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (temp.fd < 0) {
    const int error = errno;
    temp.path.clear();  // nothing was created
    return Error{reasonFor(error, "creating the file")};
  }
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(temp.fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{reasonFor(n < 0 ? errno : ENOSPC, "writing")};
    done += size_t(n);
  }
  if (options.durable && ::fsync(temp.fd) != 0) return Error{reasonFor(errno, "flushing to disk")};
  const int fd = temp.fd;
  temp.fd = -1;
  if (::close(fd) != 0) return Error{reasonFor(errno, "closing")};
  if (::rename(temp.path.c_str(), path.c_str()) != 0) return Error{reasonFor(errno, "replacing the old file")};
  temp.keep = true;
  return Ok{};
}

}  // namespace tetlab
