// The front ends' one process runner (process.h): posix_spawn with pipes, poll with a deadline,
// the process group killed on timeout or when the output passes its ceiling.
#include "cli/process.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

#include "util/numbers.h"
#include "util/text.h"

extern char** environ;

namespace gpuadvisor::cli {
namespace {

using Clock = std::chrono::steady_clock;
// After the program exits, how long what it started in the background may keep its output open
// before the reading stops (and the group is killed): nvidia-smi's output is written by then.
constexpr auto kExitGrace = std::chrono::milliseconds(200);
// How often the reader looks whether the program has exited while its output stays open.
constexpr int kExitPollMs = 50;

// Children killed on a deadline that had not exited within a second (a process in an
// uninterruptible driver call dies only when the call returns). Later calls reap them.
struct Unreaped {
  std::mutex mu;
  std::vector<pid_t> pids;  // guarded by mu
};
Unreaped& Leftovers() {
  static Unreaped u;
  return u;
}

void ReapLeftovers() {
  Unreaped& u = Leftovers();
  std::lock_guard<std::mutex> lock(u.mu);
  std::erase_if(u.pids, [](pid_t pid) {
    int status = 0;
    return ::waitpid(pid, &status, WNOHANG) != 0;  // reaped, or no longer our child
  });
}

// Reaps `pid` if it exits before `until`; true when it is gone.
bool ReapBy(pid_t pid, Clock::time_point until, int* status) {
  for (;;) {
    const pid_t r = ::waitpid(pid, status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) return true;
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void KillAndReap(pid_t pid) {
  ::kill(-pid, SIGKILL);  // its process group: the program and whatever it started
  int status = 0;
  if (ReapBy(pid, Clock::now() + std::chrono::seconds(1), &status)) return;
  Unreaped& u = Leftovers();
  std::lock_guard<std::mutex> lock(u.mu);
  u.pids.push_back(pid);
}

// argv as posix_spawn takes it: the strings' pointers, then a null.
std::vector<char*> ArgvPointers(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return args;
}

// The child's environment: ours with each "NAME=VALUE" of `overrides` in place of NAME's entry.
std::vector<std::string> Environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const bool replaced = std::any_of(overrides.begin(), overrides.end(), [&](const auto& o) {
      const size_t eq = o.find('=');
      return entry.substr(0, eq + 1) == std::string_view(o).substr(0, eq + 1);
    });
    if (!replaced) env.emplace_back(entry);
  }
  env.insert(env.end(), overrides.begin(), overrides.end());
  return env;
}

// Starts argv[0] (looked up on PATH) with `argv`: standard input from /dev/null, output to
// `out_fd` and errors to `err_fd` where they are >= 0 (else the caller's), in a process group of
// its own (so a timeout kills all of it).
Result<pid_t> Spawn(const std::vector<std::string>& argv, int out_fd, int err_fd,
                    const RunOptions& o) {
  if (argv.empty() || argv[0].empty()) return Status::InvalidArgument("no command to run");
  std::vector<char*> args = ArgvPointers(argv);
  std::vector<std::string> env_text;
  std::vector<char*> envp;
  if (!o.environment.empty()) {
    env_text = Environment(o.environment);
    envp.reserve(env_text.size() + 1);
    for (std::string& e : env_text) envp.push_back(e.data());
    envp.push_back(nullptr);
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (out_fd >= 0) posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
  if (err_fd >= 0) posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  const int rc =
      posix_spawnp(&pid, args[0], &fa, &attr, args.data(), envp.empty() ? environ : envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    return Status::IOError("cannot run " + TerminalSafe(argv[0]) + ": " + std::strerror(rc) +
                           (rc == ENOENT && !o.not_found_hint.empty()
                                ? " (" + o.not_found_hint + ")"
                                : std::string()));
  }
  return pid;
}

// kLeftOpen: the program exited, something it started still held the output after kExitGrace.
enum class ReadEnd { kEof, kLeftOpen, kTimeout, kTooLong, kError };

// The program `pid`, reaped into *status once it exits.
struct Child {
  pid_t pid;
  int* status;
  bool exited = false;
};

// Reads the output (fds[0]) and, where captured, the errors (fds[1], else -1) to their ends, the
// deadline, or kExitGrace past the program's exit: a background child (`nvidia-smi ... &`, a
// daemon it forks) may hold the pipe open long after the program is gone.
ReadEnd ReadAll(pollfd (&fds)[2], std::optional<Clock::time_point> deadline, Child* child,
                const RunOptions& o, RunResult* r) {
  static thread_local char buf[65536];
  int open = (fds[0].fd >= 0) + (fds[1].fd >= 0);
  std::optional<Clock::time_point> grace_end;
  for (;;) {
    if (!child->exited && ::waitpid(child->pid, child->status, WNOHANG) == child->pid) {
      child->exited = true;
      grace_end = Clock::now() + kExitGrace;
    }
    if (grace_end && Clock::now() >= *grace_end) return ReadEnd::kLeftOpen;
    int wait_ms = child->exited ? static_cast<int>(kExitGrace.count()) : kExitPollMs;
    if (deadline) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
      if (left.count() <= 0) return ReadEnd::kTimeout;
      wait_ms = static_cast<int>(std::min<int64_t>(left.count(), wait_ms));
    }
    const int n = ::poll(fds, 2, wait_ms);
    if (n < 0 && errno != EINTR) return ReadEnd::kError;
    if (n <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (got < 0) return ReadEnd::kError;
      if (got == 0) {
        fds[i].fd = -1;  // closed by the caller, which kept the descriptor
        if (--open == 0) return ReadEnd::kEof;
        continue;
      }
      const auto size = static_cast<size_t>(got);
      if (i == 0) {
        r->out.append(buf, size);
        if (r->out.size() > o.max_output) return ReadEnd::kTooLong;
      } else if (r->err.size() < o.max_errors) {  // errors past their cap are dropped
        r->err.append(buf, std::min(size, o.max_errors - r->err.size()));
      }
    }
  }
}

std::string CommandText(const std::vector<std::string>& argv) {
  std::string command;
  for (const std::string& a : argv) command += (command.empty() ? "" : " ") + a;
  return TerminalSafe(command);
}

std::string ExitText(const RunResult& r) {
  if (r.exit_code < 0) return "killed by signal " + std::to_string(r.signal);
  return "exit status " + std::to_string(r.exit_code);
}

std::string SizeText(size_t bytes) {
  return bytes >= (size_t{1} << 20) ? std::to_string(bytes >> 20) + " MiB"
                                    : std::to_string(bytes >> 10) + " KiB";
}

}  // namespace

Result<RunResult> RunChild(const std::vector<std::string>& argv, const RunOptions& o) {
  ReapLeftovers();
  const std::string command = o.what.empty() ? CommandText(argv) : o.what;
  int out_pipe[2], err_pipe[2] = {-1, -1};
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    return Status::IOError("cannot run " + command + ": pipe: " + std::strerror(errno));
  }
  if (o.capture_errors && ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return Status::IOError("cannot run " + command + ": pipe: " + std::strerror(errno));
  }
  Result<pid_t> pid = Spawn(argv, out_pipe[1], err_pipe[1], o);
  ::close(out_pipe[1]);
  if (err_pipe[1] >= 0) ::close(err_pipe[1]);
  if (!pid.ok()) {
    ::close(out_pipe[0]);
    if (err_pipe[0] >= 0) ::close(err_pipe[0]);
    return pid.status();
  }
  std::optional<Clock::time_point> deadline;
  if (o.timeout_s > 0) {
    deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(o.timeout_s));
  }
  RunResult r;
  int status = 0;
  Child child{*pid, &status};
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  ReadEnd end = ReadAll(fds, deadline, &child, o, &r);
  ::close(out_pipe[0]);
  if (err_pipe[0] >= 0) ::close(err_pipe[0]);
  if (end == ReadEnd::kLeftOpen) {
    // The program is done; what it left running in its group is not ours to wait for.
    ::kill(-*pid, SIGKILL);
    end = ReadEnd::kEof;
  } else if (end == ReadEnd::kEof && !child.exited) {
    // The output is closed, but the program may still hang before it exits.
    if (!deadline) {
      while (::waitpid(*pid, &status, 0) < 0 && errno == EINTR) {
      }
    } else if (!ReapBy(*pid, *deadline, &status)) {
      end = ReadEnd::kTimeout;
    }
  }
  if (end != ReadEnd::kEof) {
    if (child.exited) {
      ::kill(-*pid, SIGKILL);  // reaped already: only what it left behind remains
    } else {
      KillAndReap(*pid);
    }
    if (end == ReadEnd::kTimeout) {
      return Status::IOError(command + " timed out after " + FormatFixed(o.timeout_s, 1) +
                             " s (killed)" +
                             (o.timeout_hint.empty() ? "" : " (" + o.timeout_hint + ")"));
    }
    return Status::IOError(command + (end == ReadEnd::kTooLong
                                          ? " wrote over " + SizeText(o.max_output) + " (killed)"
                                          : std::string(" could not be read (killed)")));
  }
  if (WIFSIGNALED(status)) {
    r.exit_code = -1;
    r.signal = WTERMSIG(status);
  } else {
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return r;
}

Result<std::string> RunCapture(const std::vector<std::string>& argv, double timeout_s) {
  Result<RunResult> r = RunChild(argv, RunOptions{.timeout_s = timeout_s});
  if (!r.ok()) return r.status();
  if (r->exit_code != 0) {
    return Status::IOError(CommandText(argv) + " failed (" + ExitText(*r) + ")");
  }
  return std::move(r->out);
}

Result<std::string> RunCapture(const std::string& command, double timeout_s) {
  return RunCapture(std::vector<std::string>{"/bin/sh", "-c", command}, timeout_s);
}

Result<int> RunArgv(const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) return Status::InvalidArgument("no command to run");
  std::vector<char*> args = ArgvPointers(argv);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (rc != 0) {
    return Status::IOError("cannot run " + TerminalSafe(argv[0]) + ": " + std::strerror(rc));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Status::IOError("waitpid: " + std::string(std::strerror(errno)));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace gpuadvisor::cli
