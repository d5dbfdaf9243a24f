// `gpuadvisor watch`: the on-instance idle agent (stop/hibernate/terminate or a command after a
// stretch of GPU idleness). Dry-run unless --execute.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "cli/common.h"
#include "gpuadvisor/telemetry.h"
#include "gpuadvisor/watch.h"
#include "util/strings.h"

namespace gpuadvisor::cli {
namespace {

struct WatchCliOptions {
  std::string interval = "60s", idle_minutes = "30", threshold = "5", grace = "10m";
  std::string action = "stop", keep_alive = "/etc/gpuadvisor/keep-alive", log;
  std::string imds, aws_endpoint, region, smi = "nvidia-smi";
  std::string max_samples = "0", sample_timeout = "20s", wedged_after = "5";
  std::string on_wedged = "keep-alive";
  bool execute = false;
};

// What the loop needs besides the decision logic's options.
struct WatchLoop {
  double interval_s = 60, sample_timeout_s = 20;
  double max_samples = 0;  // 0 = forever
};

double UptimeSeconds() {
  std::ifstream f("/proc/uptime");
  double up = 1e9;
  f >> up;
  return up;
}

// Every numeric flag has a range (doc/cost-control.md); outside it is exit 2 naming the flag.
Status ParseWatchFlags(const WatchCliOptions& o, WatchOptions* w, WatchLoop* loop) {
  double idle_min = 30, wedged_after = 5;
  GPUADVISOR_RETURN_IF_ERROR(
      ParseOptDuration(o.interval, "--interval", 0.01, 86400, "0.01s to 1d", &loop->interval_s));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.idle_minutes, "--idle-minutes", 0, 43200,
                                            "0 to 43200 (30 days)", &idle_min));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.threshold, "--idle-threshold", 0, 100,
                                            "a percentage, 0 to 100", &w->idle_threshold_pct));
  GPUADVISOR_RETURN_IF_ERROR(
      ParseOptDuration(o.grace, "--boot-grace", 0, 365 * 86400.0, "0 to 365d", &w->boot_grace_s));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.max_samples, "--max-samples", 0, 1e9,
                                            "a whole number, 0 to 1e9", &loop->max_samples));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptDuration(o.sample_timeout, "--sample-timeout", 0.01, 3600,
                                              "0.01s to 1h", &loop->sample_timeout_s));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.wedged_after, "--wedged-after", 1, 10000,
                                            "a whole number, 1 to 10000", &wedged_after));
  if (loop->max_samples != std::floor(loop->max_samples)) {
    return Status::InvalidArgument("--max-samples: expected a whole number, 0 to 1e9");
  }
  if (wedged_after != std::floor(wedged_after)) {
    return Status::InvalidArgument("--wedged-after: expected a whole number, 1 to 10000");
  }
  if (o.on_wedged != "keep-alive" && o.on_wedged != "stop") {
    return Status::InvalidArgument("--on-wedged: expected keep-alive or stop, got \"" +
                                   o.on_wedged + "\"");
  }
  GPUADVISOR_RETURN_IF_ERROR(CheckWatchAction(o.action));
  w->idle_s = idle_min * 60;
  w->wedged_after = static_cast<int>(wedged_after);
  w->on_wedged = o.on_wedged == "stop" ? WedgedPolicy::kStop : WedgedPolicy::kKeepAlive;
  w->action = o.action;
  w->dry_run = !o.execute;
  return Status::OK();
}

// Timestamped lines on stderr and, with --log, appended to the file.
class WatchLog {
 public:
  explicit WatchLog(FILE* file) : file_(file) {}
  ~WatchLog() {
    if (file_ != nullptr) std::fclose(file_);
  }
  WatchLog(const WatchLog&) = delete;
  WatchLog& operator=(const WatchLog&) = delete;

  void operator()(const std::string& msg) const {
    const double now =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    const std::string line = FormatUtc(now) + " gpuadvisor watch: " + msg + "\n";
    std::fputs(line.c_str(), stderr);
    if (file_ != nullptr) {
      std::fputs(line.c_str(), file_);
      std::fflush(file_);
    }
  }

 private:
  FILE* file_;
};

// One reading of every GPU's utilisation; empty with `*why` set when there is none.
std::vector<double> SampleGpus(const WatchCliOptions& o, const WatchLoop& loop, std::string* why) {
  Result<std::string> out = RunCapture(
      o.smi + " --query-gpu=utilization.gpu --format=csv,noheader,nounits", loop.sample_timeout_s);
  if (!out.ok()) {
    *why = out.status().message();
    return {};
  }
  Result<std::vector<double>> u = ParseSmiUtilization(*out);
  if (!u.ok()) {
    *why = u.status().message();
    return {};
  }
  return *u;
}

// The wedged-driver line, once when the condition starts and once when readings come back.
void LogWedged(const WatchState& state, const WatchOptions& w, int failed_before,
               const WatchLog& log) {
  if (state.failed_reads() == w.wedged_after) {
    log("wedged: no GPU reading for " + std::to_string(w.wedged_after) +
        " samples in a row; --on-wedged " + WedgedPolicyName(w.on_wedged) +
        (w.on_wedged == WedgedPolicy::kKeepAlive
             ? ": the instance is never stopped while its GPUs cannot be read (idle clock reset)"
             : ": the wedged instance counts as idle and the action runs (after --boot-grace, "
               "not while the keep-alive file exists)"));
  } else if (state.failed_reads() == 0 && failed_before >= w.wedged_after) {
    log("recovered: GPU readings are back after " + std::to_string(failed_before) +
        " failed samples");
  }
}

// Runs (or, dry, logs) the action; the exit code of `watch`.
int Act(const WatchCliOptions& o, const WatchOptions& w, const WatchLog& log) {
  std::string imds = o.imds;
  if (imds.empty()) {
    const char* e = std::getenv("GPUADVISOR_IMDS_ENDPOINT");
    imds = e != nullptr ? e : "http://169.254.169.254";
  }
  std::string id = "i-unknown";
  if (!StartsWith(w.action, "command:")) {
    Result<std::string> got = ImdsInstanceId(imds);
    if (got.ok()) {
      id = *got;
    } else if (w.dry_run) {
      log("dry run: no instance id (" + got.status().message() + ")");
      id = "<instance-id>";
    } else {
      log("cannot act: " + got.status().message());
      return kExitIoError;
    }
  }
  const std::vector<std::string> argv = WatchActionArgv(w.action, id, o.region, o.aws_endpoint);
  std::string cmd;
  for (const std::string& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
  if (w.dry_run) {
    log("dry run: would run: " + cmd + " (pass --execute to act)");
    return kExitOk;
  }
  log("running: " + cmd);
  Result<int> rc = RunArgv(argv);
  if (!rc.ok() || *rc != 0) {
    log("action failed: " +
        (rc.ok() ? "exit status " + std::to_string(*rc) : rc.status().message()));
    return kExitIoError;
  }
  log("action done");
  return kExitOk;
}

int Run(const WatchCliOptions& o) {
  WatchOptions w;
  WatchLoop loop;
  Status st = ParseWatchFlags(o, &w, &loop);
  if (!st.ok()) return Fail(st);
  FILE* logf = o.log.empty() ? nullptr : std::fopen(o.log.c_str(), "ae");
  if (!o.log.empty() && logf == nullptr) {
    return Fail(Status::IOError("cannot open --log " + o.log));
  }
  const WatchLog log(logf);
  log(std::string(w.dry_run ? "dry run" : "armed") + ": action " + w.action + " after " +
      FormatFixed(w.idle_s / 60, 1) + " min at or under " + FormatFixed(w.idle_threshold_pct, 0) +
      "%, sampling every " + FormatFixed(loop.interval_s, 1) + " s (timeout " +
      FormatFixed(loop.sample_timeout_s, 1) + " s), keep-alive file " + o.keep_alive +
      ", on wedged GPUs (" + std::to_string(w.wedged_after) + " failed samples) " +
      WedgedPolicyName(w.on_wedged));
  WatchState state(w);
  const auto start = std::chrono::steady_clock::now();
  for (long n = 1;; ++n) {
    const double now =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string why;
    const std::vector<double> utils = SampleGpus(o, loop, &why);
    struct stat sb{};
    const bool keep = !o.keep_alive.empty() && ::stat(o.keep_alive.c_str(), &sb) == 0;
    double idle_for = 0;
    const int failed_before = state.failed_reads();
    const WatchDecision d = state.Observe(now, UptimeSeconds(), utils, keep, &idle_for);
    std::string u_text;
    for (double u : utils) u_text += (u_text.empty() ? "" : ",") + FormatFixed(u, 0);
    // A sample without a reading is logged as no-data whatever the wedged policy decides.
    const char* name = utils.empty() && d != WatchDecision::kKeepAlive
                           ? WatchDecisionName(WatchDecision::kNoData)
                           : WatchDecisionName(d);
    log(std::string(name) + ": gpu util [" + u_text + "] idle " + FormatFixed(idle_for / 60, 1) +
        " min" + (why.empty() ? "" : " (" + why + ")"));
    LogWedged(state, w, failed_before, log);
    if (d == WatchDecision::kGrace && utils.empty()) {
      log("boot-grace: wedged, but not acting within --boot-grace of boot");
    }
    if (d == WatchDecision::kAct) return Act(o, w, log);
    if (loop.max_samples > 0 && static_cast<double>(n) >= loop.max_samples) break;
    std::this_thread::sleep_for(std::chrono::duration<double>(loop.interval_s));
  }
  log("stopping after --max-samples without acting");
  return kExitOk;
}

}  // namespace

void SetupWatch(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<WatchCliOptions>();
  app->add_option("--interval", o->interval, "Sampling interval (default 60s, 0.01s to 1d)");
  app->add_option("--idle-minutes", o->idle_minutes,
                  "Act after this many minutes of idleness (default 30, 0 to 43200)");
  app->add_option("--idle-threshold", o->threshold,
                  "Every GPU at or under this utilisation % is idle (default 5, 0 to 100)");
  app->add_option("--boot-grace", o->grace,
                  "No action this soon after boot (default 10m, 0 to 365d)");
  app->add_option("--action", o->action,
                  "stop (default), hibernate, terminate, or command:SHELL-COMMAND");
  app->add_flag("--execute", o->execute, "Really act (default: dry run, log only)");
  app->add_option("--keep-alive-file", o->keep_alive,
                  "While this file exists nothing happens (default /etc/gpuadvisor/keep-alive)");
  app->add_option("--log", o->log, "Also append the decision log to this file");
  app->add_option("--imds-endpoint", o->imds,
                  "Instance metadata endpoint (default http://169.254.169.254, env "
                  "GPUADVISOR_IMDS_ENDPOINT)");
  app->add_option("--aws-endpoint-url", o->aws_endpoint, "Passed to aws --endpoint-url");
  app->add_option("--region", o->region, "Passed to aws --region");
  app->add_option("--nvidia-smi", o->smi, "nvidia-smi command (default: nvidia-smi on PATH)");
  app->add_option("--max-samples", o->max_samples, "Stop after N samples (0: run forever)");
  app->add_option("--sample-timeout", o->sample_timeout,
                  "Kill nvidia-smi after this long and log no-data (default 20s, at most 1h)");
  app->add_option("--wedged-after", o->wedged_after,
                  "Failed samples in a row that mean a wedged driver (default 5, 1-10000)");
  app->add_option("--on-wedged", o->on_wedged,
                  "keep-alive (default: never stop while the GPUs cannot be read) or stop");
  app->footer(
      R"(One log line per sample on stderr (and --log). The instance id comes from IMDSv2; stop,
hibernate and terminate run `aws ec2 stop-instances|terminate-instances`, so the instance role
needs ec2:StopInstances (or TerminateInstances) on itself. See doc/cost-control.md for a systemd unit.

Examples:
  gpuadvisor watch                                   # dry run: logs what it would do
  gpuadvisor watch --idle-minutes 45 --execute       # stop the instance after 45 idle minutes
  gpuadvisor watch --action 'command:shutdown -h now' --execute)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
