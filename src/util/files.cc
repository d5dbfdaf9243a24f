#include "util/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <utility>
#include <vector>

namespace gpuadvisor {
namespace {

constexpr int kMaxSymlinkHops = 40;       // the kernel's own limit for a path walk
constexpr long kProcSuperMagic = 0x9fa0;  // PROC_SUPER_MAGIC, <linux/magic.h>
constexpr int kMaxNameAttempts = 64;
constexpr std::string_view kTempMark = ".gpuadvisor-tmp.";
constexpr size_t kMaxBaseInTempName = 160;  // keeps temporary names below NAME_MAX (255)
constexpr size_t kRandomHexDigits = 16;

Status Errno(std::string_view what, const std::string& path, int err) {
  return Status::IOError(std::string(what) + " " + path + ": " + std::strerror(err));
}
Status Errno(std::string_view what, const std::string& path) { return Errno(what, path, errno); }

// Owns a file descriptor; Close() reports close()'s own error (NFS reports late write errors
// there), the destructor only releases.
class UniqueFd {
 public:
  explicit UniqueFd(int fd = -1) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      Close();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { Close(); }
  int get() const { return fd_; }
  int Close() {
    const int fd = std::exchange(fd_, -1);
    return fd < 0 ? 0 : ::close(fd);
  }

 private:
  int fd_;
};

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("cannot write", path);
    }
    off += static_cast<size_t>(n);
  }
  return Status::OK();
}

std::string DirName(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string JoinPath(const std::string& dir, std::string_view name) {
  if (dir == ".") return std::string(name);
  return dir + (dir.back() == '/' ? "" : "/") + std::string(name);
}

Result<std::string> ReadLink(const std::string& path) {
  std::string buf(256, '\0');
  for (;;) {
    const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
    if (n < 0) return Errno("cannot read the link", path);
    if (static_cast<size_t>(n) < buf.size()) return buf.substr(0, static_cast<size_t>(n));
    buf.resize(buf.size() * 2);
  }
}

// fs.protected_symlinks, applied whatever the sysctl says: a symbolic link in a sticky
// world-writable directory (/tmp) is followed only when the writer's effective uid owns it or
// the directory's owner does. Otherwise anyone could plant /tmp/out.json -> /etc/shadow for a
// root-run --out.
Status CheckLinkMayBeFollowed(const std::string& path, const std::string& link,
                              const struct stat& link_st, const std::string& dir) {
  struct stat d{};
  if (::stat(dir.c_str(), &d) != 0) return Errno("cannot stat", dir);
  const bool shared = (d.st_mode & S_ISVTX) != 0 && (d.st_mode & S_IWOTH) != 0;
  if (!shared || link_st.st_uid == ::geteuid() || link_st.st_uid == d.st_uid) return Status::OK();
  return Status::IOError("cannot write " + path + ": the symbolic link " + link +
                         " is owned by uid " + std::to_string(link_st.st_uid) +
                         " in the sticky world-writable directory " + dir +
                         "; following it is refused, as the kernel's fs.protected_symlinks does");
}

// /proc/PID/fd/N of a pipe or socket reads "pipe:[123]": a name the kernel follows itself.
bool IsProcMagicLink(const std::string& dir, const std::string& target) {
  struct statfs fs{};
  return !target.empty() && target.front() != '/' && ::statfs(dir.c_str(), &fs) == 0 &&
         static_cast<long>(fs.f_type) == kProcSuperMagic && target.find(":[") != std::string::npos;
}

// `path` with every symbolic link in every component followed, each one checked by
// CheckLinkMayBeFollowed. Components from the first that does not exist on are kept as written
// (a dangling link creates its target, as the shell's `>` does; a missing directory fails when
// opened). ".." is kept as written too: what precedes it holds no link, so the kernel's ".." is
// the parent of what was resolved.
Result<std::string> ResolveLinks(const std::string& path) {
  std::vector<std::string> todo;  // components still to walk, the next one last
  const auto push = [&todo](std::string_view p) {
    for (auto it = p.size(); it > 0;) {
      const size_t slash = p.rfind('/', it - 1);
      const size_t begin = slash == std::string_view::npos ? 0 : slash + 1;
      if (it > begin) todo.emplace_back(p.substr(begin, it - begin));
      if (slash == std::string_view::npos) break;
      it = slash;
    }
  };
  push(path);
  std::string done = path.front() == '/' ? "/" : "";
  const auto join = [&done](const std::string& name) {
    return done.empty() ? name : done + (done.back() == '/' ? "" : "/") + name;
  };
  const auto rest = [&todo]() {
    std::string out;
    for (size_t i = todo.size(); i-- > 0;) {
      out += '/';
      out += todo[i];
    }
    return out;
  };
  int hops = 0;
  while (!todo.empty()) {
    const std::string name = std::move(todo.back());
    todo.pop_back();
    if (name == ".") continue;
    const std::string next = join(name);
    if (name == "..") {
      done = next;
      continue;
    }
    struct stat st{};
    if (::lstat(next.c_str(), &st) != 0) {
      if (errno == ENOENT) return next + rest();
      return Errno("cannot stat", next);
    }
    if (!S_ISLNK(st.st_mode)) {
      done = next;
      continue;
    }
    if (++hops > kMaxSymlinkHops) return Errno("cannot follow", path, ELOOP);
    const std::string dir = done.empty() ? "." : done;
    GPUADVISOR_RETURN_IF_ERROR(CheckLinkMayBeFollowed(path, next, st, dir));
    Result<std::string> target = ReadLink(next);
    if (!target.ok()) return target.status();
    if (IsProcMagicLink(dir, *target)) return next + rest();
    if (!target->empty() && target->front() == '/') done = "/";
    push(*target);
  }
  return done.empty() ? std::string(".") : done;
}

uint64_t RandomU64(const WriteFileOptions& options) {
  if (options.random != nullptr) return options.random();
  uint64_t v = 0;
  if (::getrandom(&v, sizeof v, 0) == static_cast<ssize_t>(sizeof v)) return v;
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

// Parses "PID.HEX16" (what follows ".BASE.gpuadvisor-tmp."); 0 when `rest` has another shape.
pid_t TempOwner(std::string_view rest) {
  const size_t dot = rest.find('.');
  if (dot == 0 || dot == std::string_view::npos || rest.size() - dot - 1 != kRandomHexDigits) {
    return 0;
  }
  pid_t pid = 0;
  for (char c : rest.substr(0, dot)) {
    if (c < '0' || c > '9' || pid > 100000000) return 0;
    pid = pid * 10 + (c - '0');
  }
  for (char c : rest.substr(dot + 1)) {
    if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) return 0;
  }
  return pid;
}

// Removes our temporary files for `base` whose writer no longer runs (killed between link and
// rename, or during the named fallback's write). Only regular files this user owns are touched.
void RemoveStaleTemps(int dirfd, const std::string& base) {
  const std::string prefix = "." + base.substr(0, kMaxBaseInTempName) + std::string(kTempMark);
  const int fd = ::openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    ::close(fd);
    return;
  }
  std::vector<std::string> stale;
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view name = e->d_name;
    if (name.substr(0, prefix.size()) == prefix) {
      const pid_t pid = TempOwner(name.substr(prefix.size()));
      if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) {
        stale.emplace_back(name);
      }
    }
  }
  ::closedir(dir);
  for (const std::string& name : stale) {
    struct stat st{};
    if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == ::geteuid()) {
      ::unlinkat(dirfd, name.c_str(), 0);
    }
  }
}

// A character device or FIFO: written in place, never replaced. `real`: `path` resolved.
Status WriteThrough(const std::string& path, const std::string& real, const struct stat& st,
                    std::string_view data) {
  if (S_ISDIR(st.st_mode)) return Status::IOError("cannot write " + path + ": it is a directory");
  if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    return Status::IOError("cannot write " + path +
                           ": not a regular file, character device or FIFO");
  }
  const bool fifo = S_ISFIFO(st.st_mode);
  // O_NONBLOCK: opening a FIFO nobody reads fails with ENXIO instead of waiting forever.
  UniqueFd fd(::open(real.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0)));
  if (fd.get() < 0) {
    return errno == ENXIO ? Status::IOError("cannot write " + path + ": no process reads the FIFO")
                          : Errno("cannot open", path);
  }
  if (fifo) {
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) {
      return Errno("cannot write", path);
    }
  }
  GPUADVISOR_RETURN_IF_ERROR(WriteAll(fd.get(), data, path));
  if (fd.Close() != 0) return Errno("cannot write", path);
  return Status::OK();
}

// Where a replacement is assembled: the target's directory (held open, so every step happens
// in the same directory even if a path component is swapped meanwhile) and the file's name.
struct Target {
  std::string path;  // as the caller named it, for messages
  std::string dir;
  std::string base;
  UniqueFd dirfd;
  std::optional<struct stat> existing;  // the regular file being replaced
};

// The temporary file; `name` is empty while it is an unnamed O_TMPFILE.
struct Temp {
  UniqueFd fd;
  std::string name;
};

Result<Temp> OpenUnnamedTemp(const Target& t, mode_t mode) {
  const int fd = ::openat(t.dirfd.get(), ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
  if (fd >= 0) return Temp{UniqueFd(fd), ""};
  // Old kernels say EISDIR or ENOENT, file systems without support EOPNOTSUPP.
  if (errno == EOPNOTSUPP || errno == EISDIR || errno == ENOENT || errno == EINVAL) {
    return Status::Unsupported("O_TMPFILE");
  }
  return Errno("cannot create a temporary file in", t.dir);
}

Result<Temp> OpenNamedTemp(const Target& t, mode_t mode, const WriteFileOptions& options) {
  for (int attempt = 0; attempt < kMaxNameAttempts; ++attempt) {
    std::string name = TempFileName(t.base, RandomU64(options));
    // O_EXCL|O_NOFOLLOW: a name someone planted (file or symlink) is never opened.
    const int fd = ::openat(t.dirfd.get(), name.c_str(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd >= 0) return Temp{UniqueFd(fd), std::move(name)};
    if (errno != EEXIST) return Errno("cannot create", JoinPath(t.dir, name));
  }
  return Status::IOError("cannot create a temporary file in " + t.dir + ": every name taken");
}

// Mode and owner of the file being replaced, then the data, durably.
Status Fill(const Target& t, const Temp& tmp, std::string_view data) {
  if (t.existing) {
    const struct stat& old = *t.existing;
    if (old.st_uid != ::geteuid() || old.st_gid != ::getegid()) {
      // Best effort: only root may give a file away; otherwise the writer owns the new file.
      const int chowned = ::fchown(tmp.fd.get(), old.st_uid, old.st_gid);
      static_cast<void>(chowned);
    }
    // After fchown, which clears set-id bits; the umask does not apply to fchmod.
    if (::fchmod(tmp.fd.get(), old.st_mode & 07777) != 0) {
      return Errno("cannot set the mode of a temporary file for", t.path);
    }
  }
  GPUADVISOR_RETURN_IF_ERROR(WriteAll(tmp.fd.get(), data, t.path));
  if (::fsync(tmp.fd.get()) != 0) return Errno("cannot flush", t.path);
  return Status::OK();
}

// Names an unnamed temporary file; -1 with errno on failure.
int LinkUnnamed(const Temp& tmp, int dirfd, const std::string& name) {
  const std::string proc = "/proc/self/fd/" + std::to_string(tmp.fd.get());
  if (::linkat(AT_FDCWD, proc.c_str(), dirfd, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return 0;
  if (errno == EEXIST) return -1;
  // Without /proc: AT_EMPTY_PATH (needs CAP_DAC_READ_SEARCH).
  return ::linkat(tmp.fd.get(), "", dirfd, name.c_str(), AT_EMPTY_PATH);
}

// Gives the unnamed file a name: the target's own when there is none yet (no temporary name
// ever exists), else a random one to rename over the target.
Status NameUnnamed(const Target& t, Temp* tmp, const WriteFileOptions& options) {
  if (!t.existing) {
    if (LinkUnnamed(*tmp, t.dirfd.get(), t.base) == 0) return Status::OK();
    if (errno != EEXIST) {
      return errno == ENOENT ? Status::Unsupported("linkat") : Errno("cannot create", t.path);
    }
  }
  for (int attempt = 0; attempt < kMaxNameAttempts; ++attempt) {
    std::string name = TempFileName(t.base, RandomU64(options));
    if (LinkUnnamed(*tmp, t.dirfd.get(), name) == 0) {
      tmp->name = std::move(name);
      return Status::OK();
    }
    if (errno != EEXIST) {
      return errno == ENOENT ? Status::Unsupported("linkat")
                             : Errno("cannot create", JoinPath(t.dir, name));
    }
  }
  return Status::IOError("cannot create a temporary file in " + t.dir + ": every name taken");
}

// Renames the named temporary file over the target and makes the rename durable.
// REQUIRES: an unnamed temporary file has been named (closing it would discard it).
Status Publish(const Target& t, Temp* tmp) {
  if (tmp->fd.Close() != 0) return Errno("cannot write", t.path);
  if (!tmp->name.empty()) {
    if (::renameat(t.dirfd.get(), tmp->name.c_str(), t.dirfd.get(), t.base.c_str()) != 0) {
      return Errno("cannot rename onto", t.path);
    }
    tmp->name.clear();
  }
  // Some file systems cannot fsync a directory (EINVAL); the rename itself has happened.
  if (::fsync(t.dirfd.get()) != 0 && errno != EINVAL) return Errno("cannot flush", t.dir);
  return Status::OK();
}

Status Replace(Target* t, std::string_view data, bool unnamed, const WriteFileOptions& options) {
  const mode_t mode = t->existing ? (t->existing->st_mode & 0777) : 0666;
  Result<Temp> tmp = unnamed ? OpenUnnamedTemp(*t, mode) : OpenNamedTemp(*t, mode, options);
  if (!tmp.ok()) return tmp.status();
  Status st = Fill(*t, *tmp, data);
  if (st.ok() && unnamed) st = NameUnnamed(*t, &*tmp, options);
  if (st.ok()) st = Publish(*t, &*tmp);
  if (!st.ok() && !tmp->name.empty()) ::unlinkat(t->dirfd.get(), tmp->name.c_str(), 0);
  return st;
}

// REQUIRES: `real` is `path` resolved by ResolveLinks.
Result<Target> OpenTarget(const std::string& path, const std::string& real) {
  Target t;
  t.path = path;
  t.dir = DirName(real);
  t.base = BaseName(real);
  if (t.base.empty() || t.base == "." || t.base == "..") {
    return Status::IOError("cannot write " + path + ": not a file name");
  }
  t.dirfd = UniqueFd(::open(t.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (t.dirfd.get() < 0) return Errno("cannot open the directory", t.dir);
  struct stat st{};
  if (::fstatat(t.dirfd.get(), t.base.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (!S_ISREG(st.st_mode)) {
      return Status::IOError("cannot write " + path + ": it changed while being written");
    }
    t.existing = st;
  } else if (errno != ENOENT) {
    return Errno("cannot stat", path);
  }
  return t;
}

}  // namespace

namespace {

std::string ByteSize(size_t n) {
  if (n % kMiB == 0) return std::to_string(n / kMiB) + " MiB";
  if (n % 1024 == 0) return std::to_string(n / 1024) + " KiB";
  return std::to_string(n) + " bytes";
}

// Reads `fd` to its end, or until more than kind.max_bytes have arrived.
Result<std::string> ReadBounded(int fd, const std::string& name, const FileKind& kind) {
  std::string data;
  char buf[1 << 16];
  for (;;) {
    const size_t room = kind.max_bytes - std::min(data.size(), kind.max_bytes) + 1;
    const ssize_t n = ::read(fd, buf, std::min(sizeof buf, room));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("cannot read", name);
    }
    if (n == 0) return data;
    data.append(buf, static_cast<size_t>(n));
    if (data.size() > kind.max_bytes) {
      return Status::InvalidArgument(name + ": larger than " + ByteSize(kind.max_bytes) +
                                     "; expected " + kind.expected);
    }
  }
}

}  // namespace

Result<std::string> ReadFile(const std::string& path, const FileKind& kind) {
  if (path == "-") return ReadBounded(STDIN_FILENO, "<stdin>", kind);
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return Errno("cannot open", path);
  return ReadBounded(fd.get(), path, kind);
}

Result<FILE*> OpenFileForAppend(const std::string& path) {
  if (path.empty()) return Status::IOError("cannot open an empty file name");
  Result<std::string> real = ResolveLinks(path);
  if (!real.ok()) return real.status();
  const int fd = ::open(real->c_str(),
                        O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
  if (fd < 0) return Errno("cannot open", path);
  struct stat st{};
  if (::fstat(fd, &st) != 0 ||
      !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
    ::close(fd);
    return Status::IOError("cannot append to " + path +
                           ": not a regular file, a FIFO or a character device");
  }
  // Blocking writes from here on (O_NONBLOCK only kept the open of a FIFO from waiting).
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  FILE* f = ::fdopen(fd, "a");
  if (f == nullptr) {
    const int err = errno;
    ::close(fd);
    return Errno("cannot open", path, err);
  }
  return f;
}

std::string TempFileName(std::string_view base, uint64_t random) {
  char hex[kRandomHexDigits + 1];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(random));
  return "." + std::string(base.substr(0, kMaxBaseInTempName)) + std::string(kTempMark) +
         std::to_string(::getpid()) + "." + hex;
}

Status WriteFileAtomic(const std::string& path, std::string_view data,
                       const WriteFileOptions& options) {
  if (path.empty()) return Status::IOError("cannot write a file with an empty name");
  if (options.kind != nullptr && data.size() > options.kind->max_bytes) {
    // The reader's own cap (ReadFile): a file it would refuse is not written at all.
    return Status::IOError("cannot write " + path + ": larger than " +
                           ByteSize(options.kind->max_bytes) + ", the most read back as " +
                           options.kind->expected);
  }
  // Every link on the way is checked before anything is opened, devices and FIFOs included.
  Result<std::string> real = ResolveLinks(path);
  if (!real.ok()) return real.status();
  struct stat st{};
  if (::stat(real->c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    return WriteThrough(path, *real, st, data);
  }
  if (path.back() == '/') return Status::IOError("cannot write " + path + ": not a file name");
  Result<Target> target = OpenTarget(path, *real);
  if (!target.ok()) return target.status();
  RemoveStaleTemps(target->dirfd.get(), target->base);
  if (options.use_o_tmpfile) {
    Status st_unnamed = Replace(&*target, data, /*unnamed=*/true, options);
    if (st_unnamed.code() != StatusCode::kUnsupported) return st_unnamed;
  }
  return Replace(&*target, data, /*unnamed=*/false, options);
}

}  // namespace gpuadvisor
