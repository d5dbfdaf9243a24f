#include "gpuadvisor/watch.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

#include "util/aws_names.h"
#include "util/enum_names.h"
#include "util/http_client.h"
#include "util/numbers.h"
#include "util/text.h"
#include "util/url.h"

extern char** environ;

namespace gpuadvisor {

template <>
struct EnumNames<WatchDecision> {
  static constexpr EnumName<WatchDecision> kTable[] = {{WatchDecision::kBusy, "busy"},
                                                       {WatchDecision::kIdle, "idle"},
                                                       {WatchDecision::kKeepAlive, "keep-alive"},
                                                       {WatchDecision::kGrace, "boot-grace"},
                                                       {WatchDecision::kNoData, "no-data"},
                                                       {WatchDecision::kAct, "act"}};
};

template <>
struct EnumNames<WedgedPolicy> {
  static constexpr EnumName<WedgedPolicy> kTable[] = {{WedgedPolicy::kKeepAlive, "keep-alive"},
                                                      {WedgedPolicy::kStop, "stop"}};
};

const char* WatchDecisionName(WatchDecision d) { return NameOf(d, "?"); }

const char* WedgedPolicyName(WedgedPolicy p) { return NameOf(p); }

Result<WedgedPolicy> ParseWedgedPolicy(std::string_view text) {
  if (std::optional<WedgedPolicy> p = ParseName<WedgedPolicy>(ToLower(Trim(text)))) return *p;
  return Status::InvalidArgument("on-wedged: expected one of keep-alive, stop, got \"" +
                                 std::string(text) + "\"")
      .WithField("on-wedged");
}

WatchDecision WatchState::Observe(double now_s, double uptime_s, const std::vector<double>& utils,
                                  bool keep_alive, double* idle_for_s) {
  *idle_for_s = 0;
  failed_reads_ = utils.empty() ? failed_reads_ + 1 : 0;
  if (keep_alive) {
    idle_since_.reset();
    return WatchDecision::kKeepAlive;
  }
  if (utils.empty()) {
    if (wedged()) {
      // Whatever happened while the GPUs could not be read, keep-alive does not count it as idle.
      idle_since_.reset();
      if (o_.on_wedged == WedgedPolicy::kKeepAlive) return WatchDecision::kNoData;
      return uptime_s < o_.boot_grace_s ? WatchDecision::kGrace : WatchDecision::kAct;
    }
    if (idle_since_) *idle_for_s = now_s - *idle_since_;
    return WatchDecision::kNoData;
  }
  for (double u : utils) {
    if (u > o_.idle_threshold_pct) {
      idle_since_.reset();
      return WatchDecision::kBusy;
    }
  }
  if (!idle_since_) idle_since_ = now_s;
  *idle_for_s = now_s - *idle_since_;
  if (*idle_for_s < o_.idle_minutes * 60) return WatchDecision::kIdle;
  if (uptime_s < o_.boot_grace_s) return WatchDecision::kGrace;
  return WatchDecision::kAct;
}

Status CheckWatchAction(const std::string& a) {
  if (a == "stop" || a == "hibernate" || a == "terminate") return Status::OK();
  if (StartsWith(a, "command:") && a.size() > 8) return Status::OK();
  return Status::InvalidArgument(
             "action: expected stop, hibernate, terminate or command:CMD, got \"" + a + "\"")
      .WithField("action");
}

Result<std::vector<double>> ParseSmiUtilization(const std::string& text) {
  std::vector<double> out;
  size_t line = 0;
  for (std::string_view l : Split(text, '\n')) {
    ++line;
    l = Trim(l);
    if (l.empty() || l.front() == '[' || l == "N/A") continue;
    if (!l.empty() && l.back() == '%') l = Trim(l.substr(0, l.size() - 1));
    Result<double> v = ParseDouble(l, "utilization.gpu");
    if (!v.ok() || *v < 0 || *v > 100) {
      return Status::ParseError("nvidia-smi output line " + std::to_string(line) +
                                ": expected a utilisation percentage, got \"" + std::string(l) +
                                "\"");
    }
    out.push_back(*v);
  }
  return out;
}

namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMaxCaptureBytes = size_t{1} << 20;
// After the command exits, how long what it started in the background may keep its output open
// before the reading stops (and the group is killed): nvidia-smi's output is written by then.
constexpr auto kExitGrace = std::chrono::milliseconds(200);
// How often the reader looks whether the command has exited while its output stays open.
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
  ::kill(-pid, SIGKILL);  // its process group: the shell and whatever it started
  int status = 0;
  if (ReapBy(pid, Clock::now() + std::chrono::seconds(1), &status)) return;
  Unreaped& u = Leftovers();
  std::lock_guard<std::mutex> lock(u.mu);
  u.pids.push_back(pid);
}

// Starts argv[0] (looked up on PATH) with `argv`, standard output to `stdout_fd`, standard input
// from /dev/null, in a process group of its own (so a timeout kills all of it).
Result<pid_t> Spawn(const std::vector<std::string>& argv, int stdout_fd) {
  if (argv.empty() || argv[0].empty()) return Status::InvalidArgument("no command to run");
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, stdout_fd, STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group, so a timeout kills all of it
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    return Status::IOError("cannot run " + TerminalSafe(argv[0]) + ": " + std::strerror(rc));
  }
  return pid;
}

// kLeftOpen: the command exited, something it started still held the output after kExitGrace.
enum class ReadEnd { kEof, kLeftOpen, kTimeout, kTooLong, kError };

// The command `pid`, reaped into *status once it exits.
struct Child {
  pid_t pid;
  int* status;
  bool exited = false;
};

// Reads `fd` to its end, the deadline, or kExitGrace past the command's exit: a background child
// (`nvidia-smi ... &`, a daemon it forks) may hold the pipe open long after the command is gone.
ReadEnd ReadAll(int fd, std::optional<Clock::time_point> deadline, Child* child, std::string* out) {
  char buf[4096];
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
    pollfd p{fd, POLLIN, 0};
    const int n = ::poll(&p, 1, wait_ms);
    if (n < 0 && errno != EINTR) return ReadEnd::kError;
    if (n <= 0) continue;
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got < 0) return ReadEnd::kError;
    if (got == 0) return ReadEnd::kEof;
    out->append(buf, static_cast<size_t>(got));
    if (out->size() > kMaxCaptureBytes) return ReadEnd::kTooLong;
  }
}

std::string ExitText(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : status);
}

}  // namespace

Result<std::string> RunCapture(const std::string& command, double timeout_s) {
  return RunCapture(std::vector<std::string>{"/bin/sh", "-c", command}, timeout_s);
}

Result<std::string> RunCapture(const std::vector<std::string>& argv, double timeout_s) {
  ReapLeftovers();
  std::string command;  // as shown in errors
  for (const std::string& a : argv) command += (command.empty() ? "" : " ") + a;
  command = TerminalSafe(command);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return Status::IOError("cannot run " + command + ": pipe: " + std::strerror(errno));
  }
  Result<pid_t> pid = Spawn(argv, fds[1]);
  ::close(fds[1]);
  if (!pid.ok()) {
    ::close(fds[0]);
    return pid.status();
  }
  std::optional<Clock::time_point> deadline;
  if (timeout_s > 0) {
    deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(timeout_s));
  }
  std::string out;
  int status = 0;
  Child child{*pid, &status};
  ReadEnd end = ReadAll(fds[0], deadline, &child, &out);
  ::close(fds[0]);
  if (end == ReadEnd::kLeftOpen) {
    // The command is done; what it left running in its group is not ours to wait for.
    ::kill(-*pid, SIGKILL);
    end = ReadEnd::kEof;
  } else if (end == ReadEnd::kEof && !child.exited) {
    // The output is closed, but the command may still hang before it exits.
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
      return Status::IOError(command + " timed out after " + FormatFixed(timeout_s, 1) +
                             " s (killed)");
    }
    return Status::IOError(command + (end == ReadEnd::kTooLong ? " wrote over 1 MiB (killed)"
                                                               : " could not be read (killed)"));
  }
  if (status != 0) return Status::IOError(command + " failed (" + ExitText(status) + ")");
  return out;
}

namespace {

constexpr size_t kMaxImdsAnswerBytes = 4096;  // a token is ~60 bytes, an instance id ~20

// One IMDS request to `base` + `path`; the body of a 200 answer.
Result<std::string> ImdsCall(HttpClient& http, const HttpUrl& base, const std::string& method,
                             const std::string& path, const std::string& header, double timeout_s) {
  HttpRequest req;
  req.method = method;
  req.url = base.ToString() + path;
  req.what = "IMDS " + base.Authority();
  req.headers = {header};
  req.timeout_s = timeout_s;
  req.max_response_bytes = kMaxImdsAnswerBytes;
  Result<HttpResponse> res = http.Send(req);
  if (!res.ok()) return res.status();
  if (res->status != 200) {
    return Status::IOError(req.what + ": HTTP " + std::to_string(res->status) + " to " + method +
                           " " + path);
  }
  return std::string(Trim(res->body));
}

// A token or id fit to send back in a header or show: printable ASCII, nothing else.
bool Printable(std::string_view v) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return c > ' ' && c < 127; });
}

}  // namespace

Result<std::string> ImdsInstanceId(const std::string& endpoint, double timeout_s) {
  // "host:port" without a scheme is taken as http, as before.
  Result<HttpUrl> base = ParseHttpUrl(
      endpoint.find("://") == std::string::npos ? "http://" + endpoint : endpoint, "imds-endpoint");
  if (!base.ok()) return base.status();
  const std::string what = "IMDS " + base->Authority();
  HttpClient http;
  Result<std::string> token = ImdsCall(http, *base, "PUT", "/latest/api/token",
                                       "X-aws-ec2-metadata-token-ttl-seconds: 60", timeout_s);
  if (!token.ok()) return token.status();
  if (!Printable(*token)) {
    return Status::IOError(what + ": unexpected token from PUT /latest/api/token: \"" +
                           TerminalSafe(token->substr(0, 80)) + "\"");
  }
  Result<std::string> id = ImdsCall(http, *base, "GET", "/latest/meta-data/instance-id",
                                    "X-aws-ec2-metadata-token: " + *token, timeout_s);
  if (!id.ok()) return id.status();
  // It becomes an argument of the AWS CLI: an instance id's shape only (util/aws_names.h).
  if (!IsInstanceId(*id)) {
    return Status::IOError(what + ": unexpected instance-id \"" + TerminalSafe(id->substr(0, 80)) +
                           "\"");
  }
  return *id;
}

std::vector<std::string> WatchActionArgv(const std::string& action, const std::string& id,
                                         const std::string& region,
                                         const std::string& endpoint_url) {
  if (StartsWith(action, "command:")) return {"/bin/sh", "-c", action.substr(8)};
  std::vector<std::string> v = {"aws", "ec2",
                                action == "terminate" ? "terminate-instances" : "stop-instances",
                                "--instance-ids", id};       // another program's flag (aws CLI)
  if (action == "hibernate") v.emplace_back("--hibernate");  // another program's flag (aws CLI)
  if (!region.empty()) {
    v.emplace_back("--region");  // another program's flag (aws CLI)
    v.push_back(region);
  }
  if (!endpoint_url.empty()) {
    v.emplace_back("--endpoint-url");  // another program's flag (aws CLI)
    v.push_back(endpoint_url);
  }
  return v;
}

Result<int> RunArgv(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (rc != 0) return Status::IOError("cannot run " + argv[0] + ": " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Status::IOError("waitpid: " + std::string(std::strerror(errno)));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace gpuadvisor
