#include "gpuadvisor/watch.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "util/numbers.h"
#include "util/strings.h"

extern char** environ;

namespace gpuadvisor {

const char* WatchDecisionName(WatchDecision d) {
  switch (d) {
    case WatchDecision::kBusy:
      return "busy";
    case WatchDecision::kIdle:
      return "idle";
    case WatchDecision::kKeepAlive:
      return "keep-alive";
    case WatchDecision::kGrace:
      return "boot-grace";
    case WatchDecision::kNoData:
      return "no-data";
    case WatchDecision::kAct:
      return "act";
  }
  return "?";
}

WatchDecision WatchState::Observe(double now_s, double uptime_s, const std::vector<double>& utils,
                                  bool keep_alive, double* idle_for_s) {
  *idle_for_s = 0;
  if (keep_alive) {
    idle_since_.reset();
    return WatchDecision::kKeepAlive;
  }
  if (utils.empty()) {
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
  if (*idle_for_s < o_.idle_s) return WatchDecision::kIdle;
  if (uptime_s < o_.boot_grace_s) return WatchDecision::kGrace;
  return WatchDecision::kAct;
}

Status CheckWatchAction(const std::string& a) {
  if (a == "stop" || a == "hibernate" || a == "terminate") return Status::OK();
  if (StartsWith(a, "command:") && a.size() > 8) return Status::OK();
  return Status::InvalidArgument(
      "--action: expected stop, hibernate, terminate or command:CMD, got \"" + a + "\"");
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

Result<std::string> RunCapture(const std::string& command) {
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return Status::IOError("cannot run " + command + ": " + std::strerror(errno));
  std::string out;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int rc = ::pclose(p);
  if (rc != 0) {
    return Status::IOError(command + " failed (exit status " +
                           std::to_string(WIFEXITED(rc) ? WEXITSTATUS(rc) : rc) + ")");
  }
  return out;
}

namespace {

// One HTTP/1.1 request over a fresh connection; returns the body of a 200 response.
Result<std::string> Http(const std::string& endpoint, const std::string& method,
                         const std::string& path, const std::string& header, double timeout_s) {
  std::string rest = endpoint;
  if (StartsWith(rest, "http://")) rest = rest.substr(7);
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  std::string host = rest, port = "80";
  if (const size_t c = rest.rfind(':'); c != std::string::npos) {
    host = rest.substr(0, c);
    port = rest.substr(c + 1);
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &res) != 0 || res == nullptr) {
    return Status::IOError("IMDS " + endpoint + ": cannot resolve " + host);
  }
  const int fd = ::socket(res->ai_family, res->ai_socktype, res->ai_protocol);
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout_s);
  tv.tv_usec = static_cast<suseconds_t>((timeout_s - static_cast<double>(tv.tv_sec)) * 1e6);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  const int rc = ::connect(fd, res->ai_addr, res->ai_addrlen);
  freeaddrinfo(res);
  if (rc != 0) {
    const std::string err = std::strerror(errno);
    ::close(fd);
    return Status::IOError("IMDS " + endpoint + ": cannot connect: " + err);
  }
  const std::string req = method + " " + path + " HTTP/1.1\r\nHost: " + host +
                          "\r\nConnection: close\r\nContent-Length: 0\r\n" + header + "\r\n";
  if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(req.size())) {
    ::close(fd);
    return Status::IOError("IMDS " + endpoint + ": send failed");
  }
  std::string resp;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    resp.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  const size_t sp = resp.find(' ');
  if (sp == std::string::npos || resp.compare(sp + 1, 3, "200") != 0) {
    return Status::IOError(
        "IMDS " + method + " " + path + ": " +
        (resp.empty() ? std::string("no response") : resp.substr(0, resp.find('\r'))));
  }
  const size_t body = resp.find("\r\n\r\n");
  return body == std::string::npos ? std::string() : resp.substr(body + 4);
}

}  // namespace

Result<std::string> ImdsInstanceId(const std::string& endpoint, double timeout_s) {
  Result<std::string> token = Http(endpoint, "PUT", "/latest/api/token",
                                   "X-aws-ec2-metadata-token-ttl-seconds: 60\r\n", timeout_s);
  if (!token.ok()) return token.status();
  Result<std::string> id =
      Http(endpoint, "GET", "/latest/meta-data/instance-id",
           "X-aws-ec2-metadata-token: " + std::string(Trim(*token)) + "\r\n", timeout_s);
  if (!id.ok()) return id.status();
  const std::string v(Trim(*id));
  if (!StartsWith(v, "i-")) return Status::IOError("IMDS instance-id: unexpected \"" + v + "\"");
  return v;
}

std::vector<std::string> WatchActionArgv(const std::string& action, const std::string& id,
                                         const std::string& region,
                                         const std::string& endpoint_url) {
  if (StartsWith(action, "command:")) return {"/bin/sh", "-c", action.substr(8)};
  std::vector<std::string> v = {"aws", "ec2",
                                action == "terminate" ? "terminate-instances" : "stop-instances",
                                "--instance-ids", id};
  if (action == "hibernate") v.emplace_back("--hibernate");
  if (!region.empty()) {
    v.emplace_back("--region");
    v.push_back(region);
  }
  if (!endpoint_url.empty()) {
    v.emplace_back("--endpoint-url");
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
