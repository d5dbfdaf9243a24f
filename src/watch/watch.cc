#include "gpuadvisor/watch.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "util/aws_names.h"
#include "util/enum_names.h"
#include "util/http_client.h"
#include "util/numbers.h"
#include "util/text.h"
#include "util/url.h"

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

}  // namespace gpuadvisor
