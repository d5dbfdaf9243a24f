// The AWS CLI runner (aws_cli.h): posix_spawn with pipes, poll with a deadline, the process
// group killed on timeout or when the output passes its ceiling.
#include "cli/aws_cli.h"

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

#include "util/aws_names.h"
#include "util/files.h"
#include "util/text.h"

extern char** environ;

namespace gpuadvisor::cli {
namespace {

constexpr size_t kMaxCallOutput = 64 * kMiB;  // a region's offerings are ~0.5 MB
constexpr size_t kMaxCallErrors = size_t{64} * 1024;

}  // namespace

CallResult RunProgram(const std::vector<std::string>& argv, double timeout_s) {
  CallResult r;
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    r.failure = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    r.failure = std::string("pipe: ") + std::strerror(errno);
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return r;
  }
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The AWS CLI v2 pages long output through `less` on a terminal; never here.
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "AWS_PAGER=", 10) != 0) env_text.emplace_back(*e);
  }
  env_text.emplace_back("AWS_PAGER=");
  std::vector<char*> envp;
  envp.reserve(env_text.size() + 1);
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&fa, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &fa, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    r.failure = "cannot run " + argv[0] + ": " + std::strerror(rc) +
                (rc == ENOENT ? " (install the AWS CLI, or name it with --aws-cli)" : "");
    return r;
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000));
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  const size_t caps[2] = {kMaxCallOutput, kMaxCallErrors};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0 && r.failure.empty()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      r.failure = "no answer within " + FormatFixed(timeout_s, 0) + " s (--timeout)";
      break;
    }
    if (::poll(fds, 2, static_cast<int>(std::min<int64_t>(left, 1000))) < 0 && errno != EINTR) {
      r.failure = std::string("poll: ") + std::strerror(errno);
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      if (sinks[i]->size() + static_cast<size_t>(n) > caps[i]) {
        if (i == 0) {
          r.failure = "printed more than " + std::to_string(kMaxCallOutput / kMiB) + " MiB";
          break;
        }
        continue;  // error text past its cap is dropped
      }
      sinks[i]->append(buf, static_cast<size_t>(n));
    }
  }
  for (const pollfd& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  if (!r.failure.empty()) ::kill(-pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (r.failure.empty()) r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (r.failure.empty() && r.exit_code < 0) r.failure = "ended by a signal";
  return r;
}

Result<std::string> AwsCli::Call(const std::string& region, const std::vector<std::string>& args,
                                 double timeout_s) const {
  const AwsCliOptions& o = settings_.options;
  if (!region.empty() && !IsRegionCode(region)) {
    return Status::InvalidArgument("aws: refused before running: expected " +
                                   RegionCodeProblem(region));
  }
  if (std::string bad = AwsArgumentsProblem(args); !bad.empty()) {
    return Status::InvalidArgument("aws " + TerminalSafe(args.empty() ? "" : args[0]) +
                                   ": refused before running: " + bad);
  }
  std::vector<std::string> argv = {o.program, "--output", "json"};
  if (!o.profile.empty()) argv.insert(argv.end(), {"--profile", o.profile});
  if (!o.endpoint_url.empty()) argv.insert(argv.end(), {"--endpoint-url", o.endpoint_url});
  if (!region.empty()) argv.insert(argv.end(), {"--region", region});
  const std::string what = TerminalSafe(args[0] + " " + args[1]);
  argv.insert(argv.end(), args.begin(), args.end());
  const double limit =
      timeout_s > 0 ? std::min(timeout_s, settings_.timeout_s) : settings_.timeout_s;
  CallResult r = RunProgram(argv, limit);
  if (!r.failure.empty()) return Status::IOError(what + ": " + r.failure);
  if (r.exit_code != 0) {
    std::string line(Trim(r.err));
    if (const size_t nl = line.find('\n'); nl != std::string::npos) line.resize(nl);
    if (line.size() > 300) line = line.substr(0, 300) + "...";
    return Status::IOError(what + ": exit " + std::to_string(r.exit_code) + ": " +
                           TerminalSafe(line));
  }
  return std::move(r.out);
}

}  // namespace gpuadvisor::cli
