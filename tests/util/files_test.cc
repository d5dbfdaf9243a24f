// WriteFileAtomic's policy (issue 16, "Data loss and security"): devices and FIFOs written
// through, symlinks followed, modes kept, temporary names exclusive, nothing left after SIGKILL.
#include "util/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace gpuadvisor {
namespace {

constexpr FileKind kFixture{64 * kMiB, "a test fixture"};

std::string Read(const std::string& path) {
  Result<std::string> r = ReadFile(path, kFixture);
  return r.ok() ? *r : "<" + r.status().message() + ">";
}

void Put(const std::string& path, const std::string& data, mode_t mode = 0644) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, mode);
  ASSERT_GE(fd, 0) << path;
  ASSERT_EQ(::write(fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  ASSERT_EQ(::fchmod(fd, mode), 0);
  ::close(fd);
}

// Every name in `dir` except "." and "..", sorted.
std::vector<std::string> List(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return names;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

mode_t Mode(const std::string& path) {
  struct stat st{};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode;
}

class FilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "/files_test.XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { ASSERT_EQ(std::system(("rm -rf '" + dir_ + "'").c_str()), 0); }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
};

using Names = std::vector<std::string>;

TEST_F(FilesTest, CreatesAndReplacesARegularFileLeavingNothingElse) {
  for (bool unnamed : {true, false}) {
    const std::string p = Path("out.json");
    ::unlink(p.c_str());
    WriteFileOptions options;
    options.use_o_tmpfile = unnamed;
    ASSERT_TRUE(WriteFileAtomic(p, "first", options).ok());
    EXPECT_EQ(Read(p), "first");
    ASSERT_TRUE(WriteFileAtomic(p, "second, longer", options).ok());
    EXPECT_EQ(Read(p), "second, longer");
    EXPECT_EQ(List(dir_), Names{"out.json"}) << "unnamed=" << unnamed;
  }
}

// Security issue, finding 1: an endless input (/dev/zero, `yes |`) is refused at the cap, not
// read until the process aborts.
TEST_F(FilesTest, ReadFileRefusesInputsLargerThanTheirKind) {
  constexpr FileKind kTiny{16, "a tiny file"};
  Put(Path("16"), std::string(16, 'x'));
  Put(Path("17"), std::string(17, 'x'));
  Result<std::string> at_cap = ReadFile(Path("16"), kTiny);
  ASSERT_TRUE(at_cap.ok()) << at_cap.status().message();
  EXPECT_EQ(*at_cap, std::string(16, 'x'));
  Result<std::string> over = ReadFile(Path("17"), kTiny);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(over.status().message(), Path("17") + ": larger than 16 bytes; expected a tiny file");

  Result<std::string> zero = ReadFile("/dev/zero", kWorkloadFile);
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(zero.status().message(), "/dev/zero: larger than 16 MiB; expected a workload file");
  EXPECT_EQ(ReadFile("/dev/zero", kSecretFile).status().message(),
            "/dev/zero: larger than 64 KiB; expected a file holding one secret line");
  // A missing file stays an IOError (exit 3 on the CLI), not a size refusal.
  EXPECT_EQ(ReadFile(Path("missing"), kWorkloadFile).status().code(), StatusCode::kIOError);
}

// Issue 43: `account scan` wrote a 79 MB file its own reader (64 MiB) refused. A write that
// names its reader's kind is bounded by the same cap, and refused whole.
TEST_F(FilesTest, AWriteItsReaderWouldRefuseIsNotWritten) {
  constexpr FileKind kTiny{16, "a tiny file"};
  const std::string p = Path("scan.json");
  Put(p, "old");
  WriteFileOptions options;
  options.kind = &kTiny;
  ASSERT_TRUE(WriteFileAtomic(p, std::string(16, 'x'), options).ok());
  EXPECT_EQ(Read(p), std::string(16, 'x'));
  Status st = WriteFileAtomic(p, std::string(17, 'y'), options);
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_EQ(st.message(),
            "cannot write " + p + ": larger than 16 bytes, the most read back as a tiny file");
  EXPECT_EQ(Read(p), std::string(16, 'x'));
  EXPECT_EQ(List(dir_), Names{"scan.json"});
  // What it writes, its reader reads: the same cap on both sides.
  options.kind = &kAccountFile;
  EXPECT_EQ(WriteFileAtomic(p, std::string(kAccountFile.max_bytes + 1, 'z'), options).code(),
            StatusCode::kIOError);
  EXPECT_EQ(Read(p), std::string(16, 'x'));
}

TEST_F(FilesTest, EveryKindHasRoomForItsRealInputs) {
  // The embedded catalog's source is about 1 MiB; the cap leaves 64x room.
  EXPECT_GE(kCatalogFile.max_bytes, 64 * kMiB);
  for (const FileKind* k :
       {&kCatalogFile, &kWorkloadFile, &kModelConfigFile, &kPlanFile, &kInventoryFile, &kTraceFile,
        &kSecretFile, &kManifestFile, &kBuildSourceFile}) {
    EXPECT_GE(k->max_bytes, size_t{64} * 1024) << k->expected;
    EXPECT_LE(k->max_bytes, 256 * kMiB) << k->expected;
  }
}

TEST_F(FilesTest, RelativePathInTheCurrentDirectory) {
  char cwd[4096];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(::chdir(dir_.c_str()), 0);
  Status st = WriteFileAtomic("plain.txt", "x");
  ASSERT_EQ(::chdir(cwd), 0);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(Read(Path("plain.txt")), "x");
}

TEST_F(FilesTest, KeepsTheModeOfTheFileItReplaces) {
  for (mode_t mode : {0600, 0640, 0700, 0666}) {
    for (bool unnamed : {true, false}) {
      const std::string p = Path("secret");
      Put(p, "old", mode);
      WriteFileOptions options;
      options.use_o_tmpfile = unnamed;
      ASSERT_TRUE(WriteFileAtomic(p, "new", options).ok());
      EXPECT_EQ(Mode(p) & 07777, mode) << std::oct << mode << " unnamed=" << unnamed;
      EXPECT_EQ(Read(p), "new");
    }
  }
}

TEST_F(FilesTest, NewFilesGet0666MinusTheUmask) {
  for (mode_t mask : {022, 077}) {
    for (bool unnamed : {true, false}) {
      const std::string p = Path("fresh");
      ::unlink(p.c_str());
      const mode_t old_mask = ::umask(mask);
      WriteFileOptions options;
      options.use_o_tmpfile = unnamed;
      Status st = WriteFileAtomic(p, "x", options);
      ::umask(old_mask);
      ASSERT_TRUE(st.ok()) << st.message();
      EXPECT_EQ(Mode(p) & 07777, 0666 & ~mask) << "unnamed=" << unnamed;
    }
  }
}

TEST_F(FilesTest, KeepsTheOwnerWhereAllowed) {
  if (::geteuid() != 0) GTEST_SKIP() << "giving a file away needs root";
  const std::string p = Path("owned");
  Put(p, "old");
  ASSERT_EQ(::chown(p.c_str(), 12345, 54321), 0);
  ASSERT_TRUE(WriteFileAtomic(p, "new").ok());
  struct stat st{};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 12345u);
  EXPECT_EQ(st.st_gid, 54321u);
}

TEST_F(FilesTest, FollowsSymlinksAndKeepsThem) {
  ASSERT_EQ(::mkdir(Path("real").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(Path("links").c_str(), 0755), 0);
  Put(Path("real/target.json"), "old", 0600);
  // links/b -> a (relative) -> ../real/target.json (relative to links/)
  ASSERT_EQ(::symlink("../real/target.json", Path("links/a").c_str()), 0);
  ASSERT_EQ(::symlink("a", Path("links/b").c_str()), 0);
  for (bool unnamed : {true, false}) {
    WriteFileOptions options;
    options.use_o_tmpfile = unnamed;
    const std::string data = unnamed ? "via the chain" : "via the chain, fallback";
    ASSERT_TRUE(WriteFileAtomic(Path("links/b"), data, options).ok());
    EXPECT_TRUE(S_ISLNK(Mode(Path("links/a"))));
    EXPECT_TRUE(S_ISLNK(Mode(Path("links/b"))));
    EXPECT_EQ(Read(Path("real/target.json")), data);
    EXPECT_EQ(Mode(Path("real/target.json")) & 07777, 0600u);
    EXPECT_EQ(List(Path("real")), Names{"target.json"});
    EXPECT_EQ(List(Path("links")), (Names{"a", "b"}));
  }
}

TEST_F(FilesTest, DanglingSymlinkCreatesItsTarget) {
  ASSERT_EQ(::symlink("made.txt", Path("link").c_str()), 0);
  ASSERT_TRUE(WriteFileAtomic(Path("link"), "made").ok());
  EXPECT_TRUE(S_ISLNK(Mode(Path("link"))));
  EXPECT_EQ(Read(Path("made.txt")), "made");
}

TEST_F(FilesTest, SymlinkLoopIsAnIoError) {
  ASSERT_EQ(::symlink("loop", Path("loop").c_str()), 0);
  Status st = WriteFileAtomic(Path("loop"), "x");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_TRUE(S_ISLNK(Mode(Path("loop"))));
}

TEST_F(FilesTest, DevNullIsWrittenThroughNotReplaced) {
  struct stat before{};
  if (::stat("/dev/null", &before) != 0 || !S_ISCHR(before.st_mode)) GTEST_SKIP();
  Status st = WriteFileAtomic("/dev/null", "discarded");
  EXPECT_TRUE(st.ok()) << st.message();
  struct stat after{};
  ASSERT_EQ(::stat("/dev/null", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode));
  EXPECT_EQ(after.st_rdev, before.st_rdev);
  EXPECT_EQ(after.st_ino, before.st_ino);
}

TEST_F(FilesTest, DevFullReportsNoSpaceAndStaysADevice) {
  struct stat before{};
  if (::stat("/dev/full", &before) != 0 || !S_ISCHR(before.st_mode)) GTEST_SKIP();
  Status st = WriteFileAtomic("/dev/full", "nowhere to go");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("/dev/full"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find(std::strerror(ENOSPC)), std::string::npos) << st.message();
  struct stat after{};
  ASSERT_EQ(::stat("/dev/full", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode));
  EXPECT_EQ(after.st_ino, before.st_ino);
}

TEST_F(FilesTest, SymlinkToADeviceWritesThroughIt) {
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP();
  ASSERT_EQ(::symlink("/dev/full", Path("full").c_str()), 0);
  EXPECT_EQ(WriteFileAtomic(Path("full"), "x").code(), StatusCode::kIOError);
  EXPECT_TRUE(S_ISLNK(Mode(Path("full"))));
  EXPECT_EQ(List(dir_), Names{"full"});
}

TEST_F(FilesTest, FifoWithAReaderIsWrittenThroughAndWithoutOneFailsFast) {
  const std::string p = Path("pipe");
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  // Nobody reads: an error now, not a hang.
  Status st = WriteFileAtomic(p, "x");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("no process reads"), std::string::npos) << st.message();
  const int reader = ::open(p.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  st = WriteFileAtomic(p, "through the pipe");
  EXPECT_TRUE(st.ok()) << st.message();
  char buf[64] = {};
  EXPECT_EQ(::read(reader, buf, sizeof buf), 16);
  EXPECT_STREQ(buf, "through the pipe");
  ::close(reader);
  EXPECT_TRUE(S_ISFIFO(Mode(p)));
}

TEST_F(FilesTest, DirectoryIsRefused) {
  ASSERT_EQ(::mkdir(Path("d").c_str(), 0755), 0);
  Status st = WriteFileAtomic(Path("d"), "x");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("directory"), std::string::npos) << st.message();
  EXPECT_EQ(WriteFileAtomic(Path("missing/x.json"), "x").code(), StatusCode::kIOError);
}

// Issue 43, item 7: a root-run --out into /tmp must not follow a link another user planted
// there (fs.protected_symlinks, applied by the tool itself since it resolves links itself).
class ProtectedSymlinksTest : public FilesTest {
 protected:
  static constexpr uid_t kOther = 65534;  // nobody
  void SetUp() override {
    FilesTest::SetUp();
    if (::geteuid() != 0) GTEST_SKIP() << "planting a link owned by another uid needs root";
    ASSERT_EQ(::mkdir(Path("shared").c_str(), 0777), 0);
    ASSERT_EQ(::chmod(Path("shared").c_str(), 01777), 0);  // like /tmp
    Put(Path("precious"), "root's own", 0600);
  }
  // A link at `at` to `to`, owned by `uid`.
  void Plant(const std::string& to, const std::string& at, uid_t uid) {
    ASSERT_EQ(::symlink(to.c_str(), at.c_str()), 0);
    ASSERT_EQ(::lchown(at.c_str(), uid, uid), 0);
  }
};

TEST_F(ProtectedSymlinksTest, AnotherUsersLinkInAStickyWorldWritableDirectoryIsRefused) {
  Plant(Path("precious"), Path("shared/out.json"), kOther);
  for (bool unnamed : {true, false}) {
    WriteFileOptions options;
    options.use_o_tmpfile = unnamed;
    Status st = WriteFileAtomic(Path("shared/out.json"), "overwritten", options);
    EXPECT_EQ(st.code(), StatusCode::kIOError);
    // The link and its directory as the path walk names them: repeated slashes collapsed.
    const auto walked = [](std::string p) {
      for (size_t at; (at = p.find("//")) != std::string::npos;) p.erase(at, 1);
      return p;
    };
    EXPECT_EQ(st.message(), "cannot write " + Path("shared/out.json") + ": the symbolic link " +
                                walked(Path("shared/out.json")) + " is owned by uid 65534 in " +
                                "the sticky world-writable directory " + walked(Path("shared")) +
                                "; following it is refused, as the kernel's " +
                                "fs.protected_symlinks does");
    EXPECT_EQ(Read(Path("precious")), "root's own");
    EXPECT_EQ(Mode(Path("precious")) & 07777, 0600u);
    EXPECT_EQ(List(Path("shared")), Names{"out.json"});
    EXPECT_EQ(List(dir_), (Names{"precious", "shared"}));
  }
}

// The same for a file appended to (watch --log, serve --access-log): another user's link in a
// sticky world-writable directory is refused; the user's own link, a regular file and
// /dev/null are taken.
TEST_F(ProtectedSymlinksTest, AFileAppendedToFollowsTheSameRule) {
  Plant(Path("precious"), Path("shared/watch.log"), kOther);
  Result<FILE*> refused = OpenFileForAppend(Path("shared/watch.log"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("fs.protected_symlinks"), std::string::npos)
      << refused.status().message();
  EXPECT_EQ(Read(Path("precious")), "root's own");
  Plant(Path("precious"), Path("shared/own.log"), ::geteuid());
  Result<FILE*> own = OpenFileForAppend(Path("shared/own.log"));
  ASSERT_TRUE(own.ok()) << own.status().message();
  std::fputs(" and more", *own);
  std::fclose(*own);
  EXPECT_EQ(Read(Path("precious")), "root's own and more");
  Result<FILE*> fresh = OpenFileForAppend(Path("shared/new.log"));
  ASSERT_TRUE(fresh.ok()) << fresh.status().message();
  std::fclose(*fresh);
  EXPECT_EQ(Mode(Path("shared/new.log")) & 07777, 0600u);
  Result<FILE*> null = OpenFileForAppend("/dev/null");
  ASSERT_TRUE(null.ok()) << null.status().message();
  std::fclose(*null);
  EXPECT_FALSE(OpenFileForAppend(Path("shared")).ok());  // a directory
}

TEST_F(ProtectedSymlinksTest, EveryComponentIsCheckedDevicesAndChainsIncluded) {
  // A directory link in the middle of the path, a device behind the link, and the refused link
  // at the end of a chain that starts with an allowed one.
  ASSERT_EQ(::mkdir(Path("real").c_str(), 0755), 0);
  Plant(Path("real"), Path("shared/dir"), kOther);
  Plant("/dev/null", Path("shared/null"), kOther);
  Plant(Path("precious"), Path("shared/evil"), kOther);
  Plant(Path("shared/evil"), Path("chain"), 0);
  for (const std::string name : {"shared/dir/out.json", "shared/null", "chain"}) {
    Status st = WriteFileAtomic(Path(name), "overwritten");
    EXPECT_EQ(st.code(), StatusCode::kIOError) << name;
    EXPECT_NE(st.message().find("fs.protected_symlinks"), std::string::npos) << st.message();
  }
  EXPECT_EQ(List(Path("real")), Names{});
  EXPECT_EQ(Read(Path("precious")), "root's own");
}

TEST_F(ProtectedSymlinksTest, TheKernelsAllowedCasesStillFollow) {
  // The writer's own link; a link owned by the sticky directory's owner; any link in a
  // directory that is world-writable but not sticky.
  ASSERT_EQ(::mkdir(Path("open").c_str(), 0777), 0);
  ASSERT_EQ(::chmod(Path("open").c_str(), 0777), 0);
  ASSERT_EQ(::mkdir(Path("theirs").c_str(), 0777), 0);
  ASSERT_EQ(::chmod(Path("theirs").c_str(), 01777), 0);
  ASSERT_EQ(::chown(Path("theirs").c_str(), kOther, kOther), 0);
  Plant(Path("precious"), Path("shared/mine"), ::geteuid());
  Plant(Path("precious"), Path("theirs/owners"), kOther);
  Plant(Path("precious"), Path("open/any"), kOther);
  for (const std::string name : {"shared/mine", "theirs/owners", "open/any"}) {
    Status st = WriteFileAtomic(Path(name), name);
    ASSERT_TRUE(st.ok()) << name << ": " << st.message();
    EXPECT_EQ(Read(Path("precious")), name);
    EXPECT_TRUE(S_ISLNK(Mode(Path(name))));
  }
}

// The old writer used PATH.tmp.<pid>; the new names are random but a test can choose them.
uint64_t g_next_random = 0;
uint64_t CountingRandom() { return g_next_random++; }

TEST_F(FilesTest, PlantedSymlinksAtTemporaryNamesAreNeverFollowed) {
  const std::string victim = Path("victim");
  Put(victim, "precious");
  const std::string p = Path("out.json");
  Put(p, "old");
  for (bool unnamed : {true, false}) {
    // A symlink at the old predictable name and at the first two names the writer will try.
    const std::string old_name = p + ".tmp." + std::to_string(::getpid());
    ::unlink(old_name.c_str());
    ASSERT_EQ(::symlink(victim.c_str(), old_name.c_str()), 0);
    for (uint64_t r : {1000, 1001}) {
      ASSERT_EQ(::symlink(victim.c_str(), Path(TempFileName("out.json", r)).c_str()), 0);
    }
    g_next_random = 1000;
    WriteFileOptions options;
    options.use_o_tmpfile = unnamed;
    options.random = &CountingRandom;
    Status st = WriteFileAtomic(p, "new", options);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(Read(p), "new");
    EXPECT_EQ(Read(victim), "precious");
    EXPECT_FALSE(S_ISLNK(Mode(p)));
    EXPECT_GE(g_next_random, 1003u) << "the planted names were tried and skipped";
    for (uint64_t r : {1000, 1001}) {
      EXPECT_TRUE(S_ISLNK(Mode(Path(TempFileName("out.json", r)))));
      ::unlink(Path(TempFileName("out.json", r)).c_str());
    }
  }
}

TEST_F(FilesTest, TemporaryNamesAreHiddenRandomAndBounded) {
  const std::string a = TempFileName("catalog.json", 1), b = TempFileName("catalog.json", 2);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.rfind(".catalog.json.gpuadvisor-tmp.", 0), 0u) << a;
  EXPECT_LT(TempFileName(std::string(255, 'x'), ~0ull).size(), 255u);
}

TEST_F(FilesTest, AFailedWriteLeavesTheTargetAndNoTemporaryFile) {
  // RLIMIT_FSIZE makes the write fail (EFBIG) like a full disk would, in a child process.
  const std::string p = Path("out.json");
  Put(p, "old");
  for (bool unnamed : {true, false}) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::signal(SIGXFSZ, SIG_IGN);
      struct rlimit limit = {1024, 1024};
      ::setrlimit(RLIMIT_FSIZE, &limit);
      WriteFileOptions options;
      options.use_o_tmpfile = unnamed;
      Status st = WriteFileAtomic(p, std::string(1 << 20, 'n'), options);
      ::_exit(st.code() == StatusCode::kIOError ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "unnamed=" << unnamed;
    EXPECT_EQ(Read(p), "old");
    EXPECT_EQ(List(dir_), Names{"out.json"});
  }
}

// Kills a writer of a large file with SIGKILL at random moments. The target must be the old
// or the new content, whole. With O_TMPFILE nothing else may remain, except in the few
// microseconds between linkat and renameat, where a complete temporary file can; the next
// write must sweep that (and the fallback's partial leftovers) away.
void KillWritersAtRandom(const std::string& dir, bool unnamed, int runs) {
  const std::string p = dir + "/big.json";
  const std::string old_data(4 << 20, 'o'), new_data(8 << 20, 'n');
  WriteFileOptions options;
  options.use_o_tmpfile = unnamed;
  ASSERT_TRUE(WriteFileAtomic(p, old_data, options).ok());
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(WriteFileAtomic(p, old_data, options).ok());
  const auto write_us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  std::mt19937_64 rng(12345);
  std::uniform_int_distribution<int64_t> delay_us(0, write_us * 3 / 2 + 100);
  int complete_leftovers = 0, killed_mid_write = 0;
  for (int run = 0; run < runs; ++run) {
    ASSERT_TRUE(WriteFileAtomic(p, old_data, options).ok());
    ASSERT_EQ(List(dir), Names{"big.json"});
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      Status st = WriteFileAtomic(p, new_data, options);
      ::_exit(st.ok() ? 0 : 1);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us(rng)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    killed_mid_write += WIFSIGNALED(status) ? 1 : 0;
    Result<std::string> now = ReadFile(p, kFixture);
    ASSERT_TRUE(now.ok());
    EXPECT_TRUE(*now == old_data || *now == new_data) << "run " << run << ": a torn target";
    for (const std::string& name : List(dir)) {
      if (name == "big.json") continue;
      ASSERT_FALSE(unnamed && Read(dir + "/" + name) != new_data)
          << "run " << run << ": an incomplete temporary file " << name;
      complete_leftovers += 1;
    }
  }
  ASSERT_TRUE(WriteFileAtomic(p, old_data, options).ok());
  EXPECT_EQ(List(dir), Names{"big.json"}) << "the next write sweeps leftovers";
  if (unnamed) {
    EXPECT_LE(complete_leftovers, 2) << "only the link-to-rename window leaves one";
  }
  std::printf("unnamed=%d: %d of %d writers killed before finishing, %d leftovers swept\n", unnamed,
              killed_mid_write, runs, complete_leftovers);
}

TEST_F(FilesTest, SigkillLeavesNoTemporaryFileWithOTmpfile) {
  KillWritersAtRandom(dir_, /*unnamed=*/true, 40);
}

TEST_F(FilesTest, SigkillLeftoversOfTheNamedFallbackAreSweptByTheNextWrite) {
  KillWritersAtRandom(dir_, /*unnamed=*/false, 40);
}

}  // namespace
}  // namespace gpuadvisor
