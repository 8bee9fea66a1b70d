// fork + pipes + poll around callTetGen (see tetgen_isolated.h for the picture).
// The child only uses malloc, TetGen and write(); glibc keeps malloc and stdio
// usable after fork in a multi-threaded parent. The parent always reaps the
// child (RAII guard), so no zombie outlives a call, even on cancel.
#include "core/mesh/tetgen_isolated.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

namespace tetlab {
namespace {

constexpr uint64_t kWireMagic = 0x31474554424c5454ull;  // "TTLBTEG1"
constexpr uint64_t kMaxCount = uint64_t(1) << 31;
constexpr size_t kLogTailBytes = 600;

struct WireHeader {
  uint64_t magic;
  uint64_t status;  // 0 ok, 1 error message
  uint64_t messageBytes;
  uint64_t pointCount;
  uint64_t tetCount;
};

bool writeAll(int fd, const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    bytes -= size_t(n);
  }
  return true;
}

bool writeError(int fd, const std::string& message) {
  const WireHeader header{kWireMagic, 1, message.size(), 0, 0};
  return writeAll(fd, &header, sizeof header) && writeAll(fd, message.data(), message.size());
}

// Runs in the child; may throw (TetGen's int codes escape if the hook asks).
bool childWork(int resultFd, const SurfaceMesh& surface, const TetGenSettings& settings, ChildFault fault) {
  switch (fault) {
    case ChildFault::None: break;
    case ChildFault::Segfault: std::raise(SIGSEGV); break;
    case ChildFault::Abort: std::abort();
    case ChildFault::ThrowInt: throw 2;  // as TetGen's terminatetetgen() does
    case ChildFault::Hang:
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    case ChildFault::GarbageOutput: {
      // Longer than a header, so the parent must reject it by content, not size.
      const char junk[] = "this is not a tet mesh, just bytes that happen to be longer than a header";
      return writeAll(resultFd, junk, sizeof junk);
    }
  }
  Result<TetMesh> result = callTetGen(surface, settings);
  std::fflush(stdout);
  if (!result) return writeError(resultFd, result.error().message);
  const WireHeader header{kWireMagic, 0, 0, result->positions.size(), result->tets.size()};
  return writeAll(resultFd, &header, sizeof header) &&
         writeAll(resultFd, result->positions.data(), result->positions.size() * sizeof(glm::vec3)) &&
         writeAll(resultFd, result->tets.data(), result->tets.size() * sizeof(glm::uvec4));
}

// Never returns and never lets an exception unwind into the parent's frames,
// which the child shares a copy of.
[[noreturn]] void childMain(int resultFd, int logFd, const SurfaceMesh& surface, const TetGenSettings& settings,
                            ChildFault fault) noexcept {
  const rlimit noCore{0, 0};
  setrlimit(RLIMIT_CORE, &noCore);  // a crashing TetGen should not litter core files
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, SIG_DFL);
  std::signal(SIGPIPE, SIG_IGN);    // a cancelled parent closes the pipe: fail the write instead
  ::dup2(logFd, STDOUT_FILENO);     // TetGen prints its errors with printf ...
  ::dup2(logFd, STDERR_FILENO);     // ... and a failed assert() says where on stderr
  ::close(logFd);
  bool ok = false;
  try {
    ok = childWork(resultFd, surface, settings, fault);
  } catch (int code) {
    ok = writeError(resultFd, describeTetGenError(code));
  } catch (const std::exception& e) {
    ok = writeError(resultFd, std::string("TetGen's process failed: ") + e.what());
  } catch (...) {
    ok = writeError(resultFd, "TetGen's process failed with an unknown exception");
  }
  _exit(ok ? 0 : 3);
}

struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() { closeBoth(); }
  void closeEnd(int k) {
    if (fd[k] >= 0) ::close(fd[k]);
    fd[k] = -1;
  }
  void closeBoth() {
    closeEnd(0);
    closeEnd(1);
  }
};

// Kills and reaps the child unless it was already reaped.
struct ChildGuard {
  pid_t pid = -1;
  int status = 0;
  bool reaped = false;
  ~ChildGuard() { killAndReap(); }
  void killAndReap() {
    if (pid <= 0 || reaped) return;
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    reaped = true;
  }
  // Waits up to `seconds` for a normal exit, then kills.
  void reap(double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!reaped) {
      const pid_t r = ::waitpid(pid, &status, WNOHANG);
      if (r == pid || (r < 0 && errno != EINTR)) {
        reaped = true;
        return;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        killAndReap();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
};

std::string signalName(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV, a segmentation fault";
    case SIGABRT: return "SIGABRT, an abort (failed assertion)";
    case SIGBUS: return "SIGBUS, a bus error";
    case SIGFPE: return "SIGFPE, an arithmetic error";
    case SIGILL: return "SIGILL, an illegal instruction";
    case SIGKILL: return "SIGKILL (killed, possibly out of memory)";
    default: return "signal " + std::to_string(sig);
  }
}

std::string logTail(const std::string& log) {
  if (log.empty()) return "";
  std::string tail = log.size() > kLogTailBytes ? "..." + log.substr(log.size() - kLogTailBytes) : log;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  for (char& c : tail)
    if (c == '\n') c = ' ';
  return " TetGen said: \"" + tail + "\"";
}

Result<TetMesh> decode(const std::string& bytes) {
  WireHeader h;
  if (bytes.size() < sizeof h) return Error{"TetGen's process returned no result"};
  std::memcpy(&h, bytes.data(), sizeof h);
  if (h.magic != kWireMagic) return Error{"TetGen's process returned malformed data"};
  const size_t body = bytes.size() - sizeof h;
  if (h.status == 1) {
    if (h.messageBytes != body) return Error{"TetGen's process returned a truncated error message"};
    return Error{bytes.substr(sizeof h)};
  }
  if (h.status != 0 || h.pointCount > kMaxCount || h.tetCount > kMaxCount ||
      body != h.pointCount * sizeof(glm::vec3) + h.tetCount * sizeof(glm::uvec4)) {
    return Error{"TetGen's process returned malformed data (sizes do not add up)"};
  }
  TetMesh mesh;
  mesh.positions.resize(h.pointCount);
  mesh.tets.resize(h.tetCount);
  const char* p = bytes.data() + sizeof h;
  std::memcpy(mesh.positions.data(), p, h.pointCount * sizeof(glm::vec3));
  std::memcpy(mesh.tets.data(), p + h.pointCount * sizeof(glm::vec3), h.tetCount * sizeof(glm::uvec4));
  for (const glm::uvec4& t : mesh.tets) {
    if (t.x >= h.pointCount || t.y >= h.pointCount || t.z >= h.pointCount || t.w >= h.pointCount) {
      return Error{"TetGen's process returned a tet with an out-of-range vertex"};
    }
  }
  return mesh;
}

}  // namespace

Result<TetMesh> runTetGenIsolated(const SurfaceMesh& surface, const TetGenSettings& settings,
                                  const IsolationOptions& options, const std::atomic<bool>* cancel) {
  Pipe result, log;
  if (::pipe2(result.fd, O_CLOEXEC) != 0 || ::pipe2(log.fd, O_CLOEXEC) != 0) {
    return Error{std::string("cannot create a pipe for TetGen: ") + std::strerror(errno)};
  }
  std::fflush(nullptr);  // the child must not inherit and re-emit our buffered output
  ChildGuard child;
  child.pid = ::fork();
  if (child.pid < 0) return Error{std::string("cannot start a process for TetGen: ") + std::strerror(errno)};
  if (child.pid == 0) {
    ::close(result.fd[0]);
    ::close(log.fd[0]);
    childMain(result.fd[1], log.fd[1], surface, settings, options.fault);
  }
  result.closeEnd(1);
  log.closeEnd(1);

  std::string data, text;
  const auto start = std::chrono::steady_clock::now();
  char buf[1 << 16];
  while (result.fd[0] >= 0 || log.fd[0] >= 0) {
    if (cancel && cancel->load()) {
      child.killAndReap();
      return Error{"tetrahedralization cancelled"};
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > options.timeoutSeconds) {
      child.killAndReap();
      return Error{"TetGen did not finish within " + std::to_string(int(options.timeoutSeconds)) +
                   " s and was stopped; try a lower target tet count"};
    }
    pollfd fds[2];
    int n = 0;
    for (Pipe* p : {&result, &log}) {
      if (p->fd[0] >= 0) fds[n++] = {p->fd[0], POLLIN, 0};
    }
    const int ready = ::poll(fds, nfds_t(n), 50);
    if (ready < 0 && errno != EINTR) return Error{std::string("poll failed while waiting for TetGen: ") + std::strerror(errno)};
    if (ready <= 0) continue;
    for (int i = 0; i < n; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Pipe& p = fds[i].fd == result.fd[0] ? result : log;
      const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        (&p == &result ? data : text).append(buf, size_t(got));
        if (text.size() > 4 * kLogTailBytes) text.erase(0, text.size() - 2 * kLogTailBytes);
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        p.closeEnd(0);
      }
    }
  }
  child.reap(5.0);

  if (WIFSIGNALED(child.status)) {
    return Error{"TetGen crashed with " + signalName(WTERMSIG(child.status)) + logTail(text)};
  }
  if (!WIFEXITED(child.status) || WEXITSTATUS(child.status) != 0) {
    const int code = WIFEXITED(child.status) ? WEXITSTATUS(child.status) : -1;
    return Error{"TetGen's process failed (exit code " + std::to_string(code) + ")" + logTail(text)};
  }
  Result<TetMesh> mesh = decode(data);
  if (!mesh) return Error{mesh.error().message + logTail(text)};
  return mesh;
}

}  // namespace tetlab
