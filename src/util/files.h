// File helpers. Reading returns IOError naming the path; writing never leaves a partial file.
//
// The write policy (doc/design.md, "Writing files"), for every --out / --plot and catalog write:
// - A regular file, or a name that does not exist yet, is replaced atomically: the data goes to
//   an unnamed O_TMPFILE in the target's directory (or, where the file system has none, to a
//   random ".NAME.gpuadvisor-tmp.PID.RANDOM" created with O_EXCL|O_NOFOLLOW), is fsynced, gets
//   its name with linkat/renameat, and the directory is fsynced. Readers see the old file or the
//   new one, never a mix; a writer killed with SIGKILL leaves no temporary file (the named
//   fallback's leftovers, and a kill between link and rename, are swept by the next write).
// - A symbolic link is followed: the file it points to is replaced, the link stays. Every link
//   in every component is resolved here, and one in a sticky world-writable directory (/tmp)
//   is followed only when the writer's euid or the directory's owner owns it (the kernel's
//   fs.protected_symlinks rule, applied whatever the sysctl says); otherwise IOError naming
//   the link, its owner and the directory.
// - An existing file keeps its permission bits (0600 stays 0600) and, best effort, its owner
//   and group; a new file gets 0666 minus the umask.
// - A character device or FIFO (/dev/null, /dev/stdout on a pipe, a named pipe) is written
//   through, never renamed over; its write errors (ENOSPC from /dev/full) are IOError. A FIFO
//   nobody reads is IOError rather than a hang. Directories, block devices and sockets are
//   refused with IOError. The CLI maps IOError to exit 3.
#ifndef GPUADVISOR_UTIL_FILES_H_
#define GPUADVISOR_UTIL_FILES_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

// What a whole-file input is, for ReadFile: the most it may hold and what it should be. The
// cap keeps an endless input (/dev/zero, `yes |` on standard input) from growing memory until
// the process aborts; caps are generous multiples of real inputs (doc/formats.md, "Size limits").
struct FileKind {
  size_t max_bytes;      // larger is refused
  const char* expected;  // named in the refusal: "a workload file"
};
inline constexpr size_t kMiB = size_t{1} << 20;
inline constexpr FileKind kCatalogFile{64 * kMiB, "a catalog file"};  // data/catalog.json: 1 MiB
inline constexpr FileKind kWorkloadFile{16 * kMiB, "a workload file"};
inline constexpr FileKind kModelConfigFile{16 * kMiB, "a model config.json"};
inline constexpr FileKind kPlanFile{16 * kMiB, "a plan file (recommend --json)"};
inline constexpr FileKind kInventoryFile{16 * kMiB, "an inventory CSV"};
inline constexpr FileKind kTraceFile{64 * kMiB, "a traffic trace CSV"};
inline constexpr FileKind kSecretFile{size_t{64} * 1024, "a file holding one secret line"};
inline constexpr FileKind kManifestFile{16 * kMiB, "a catalog build manifest"};
inline constexpr FileKind kBuildSourceFile{256 * kMiB, "a catalog source snapshot"};
inline constexpr FileKind kAccountFile{64 * kMiB, "an account scan (gpuadvisor account scan)"};

// Whole file into memory; "-" reads standard input. IOError naming the path when it cannot be
// read; InvalidArgument "PATH: larger than 16 MiB; expected a workload file" once more than
// kind.max_bytes arrive (reading stops there, so memory stays below the cap).
Result<std::string> ReadFile(const std::string& path, const FileKind& kind);

// Knobs for tests; callers use the defaults.
struct WriteFileOptions {
  // false: skip O_TMPFILE and use the named temporary file (the fallback path).
  bool use_o_tmpfile = true;
  // Source of the temporary names' random part; nullptr: getrandom().
  uint64_t (*random)() = nullptr;
  // What the file is, for the reader that will load it: data larger than kind->max_bytes is
  // refused (IOError) instead of written, so the tool never writes a file its own reader
  // refuses (an account scan of 79 MB against a 64 MiB reader). nullptr: no bound.
  const FileKind* kind = nullptr;
};

// Writes `data` to PATH by the policy above. On any failure PATH is left as it was, no
// temporary file remains, and the status is IOError naming the path and the system's reason
// ("cannot write PATH: larger than 64 MiB, the most read back as an account scan ..." when
// options.kind refuses it).
Status WriteFileAtomic(const std::string& path, std::string_view data,
                       const WriteFileOptions& options = {});

// Opens PATH to append to (a log), creating it 0600 if missing: every symbolic link on the way is
// checked as WriteFileAtomic checks it (none owned by another user in a sticky world-writable
// directory is followed), the last component is opened with O_NOFOLLOW, and only a regular file,
// a FIFO or a character device (/dev/stderr, /dev/null) is taken. IOError naming the path and why.
// The caller owns the FILE (fclose).
Result<FILE*> OpenFileForAppend(const std::string& path);

// The name of the fallback temporary file for the file `base` (no directory) and `random`.
std::string TempFileName(std::string_view base, uint64_t random);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_FILES_H_
