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

#include "app/command_args.h"
#include "cli/common.h"
#include "cli/process.h"
#include "gpuadvisor/telemetry.h"
#include "gpuadvisor/watch.h"
#include "util/aws_names.h"
#include "util/files.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

// The flags, their ranges and defaults are WatchArgs's declaration (watch.h).
struct WatchCliOptions {
  TableOptions table;
};

double UptimeSeconds() {
  std::ifstream f("/proc/uptime");
  double up = 1e9;
  f >> up;
  return up;
}

// The options, checked against their declaration; the action's form is the library's to check.
Status ParseWatchFlags(const OptionValues& v, WatchArgs* a) {
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, a));
  Status st = CheckWatchAction(a->options.action);
  if (!st.ok()) return st.WithField("action");
  // Handed to the AWS CLI as --region (util/aws_names.h).
  if (!a->region.empty() && !IsRegionCode(a->region)) {
    return Status::InvalidArgument("region: expected " + RegionCodeProblem(a->region))
        .WithField("region");
  }
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
    // TerminalSafe: messages quote nvidia-smi's output, the IMDS answer and command errors.
    const std::string line = FormatUtc(now) + " gpuadvisor watch: " + TerminalSafe(msg) + "\n";
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
std::vector<double> SampleGpus(const WatchArgs& a, std::string* why) {
  Result<std::string> out =
      RunCapture({a.nvidia_smi, "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits"},
                 a.sample_timeout_s);
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
int Act(const WatchArgs& a, const WatchLog& log) {
  const WatchOptions& w = a.options;
  const bool dry_run = !w.execute;
  std::string imds = a.imds_endpoint;
  if (imds.empty()) {
    const char* e = std::getenv("GPUADVISOR_IMDS_ENDPOINT");
    imds = e != nullptr ? e : "http://169.254.169.254";
  }
  std::string id = "i-unknown";
  if (!StartsWith(w.action, "command:")) {
    Result<std::string> got = ImdsInstanceId(imds);
    if (got.ok()) {
      id = *got;
    } else if (dry_run) {
      log("dry run: no instance id (" + got.status().message() + ")");
      id = "<instance-id>";
    } else {
      log("cannot act: " + got.status().message());
      return kExitIoError;
    }
  }
  const std::vector<std::string> argv = WatchActionArgv(w.action, id, a.region, a.aws_endpoint_url);
  std::string cmd;
  for (const std::string& arg : argv) cmd += (cmd.empty() ? "" : " ") + arg;
  if (dry_run) {
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

int Run(const WatchCliOptions& opts) {
  Result<OptionValues> values = opts.table.Values();
  if (!values.ok()) return Fail(values.status());
  WatchArgs a;
  Status st = ParseWatchFlags(*values, &a);
  if (!st.ok()) return Fail(st);
  const WatchOptions& w = a.options;
  // As root in /tmp, a link another user planted is refused as --out refuses it (issue 43).
  FILE* logf = nullptr;
  if (!a.log.empty()) {
    Result<FILE*> f = OpenFileForAppend(a.log);
    if (!f.ok()) return Fail(f.status().WithPrefix("log").WithField("log"));
    logf = *f;
  }
  const WatchLog log(logf);
  log(std::string(w.execute ? "armed" : "dry run") + ": action " + w.action + " after " +
      FormatFixed(w.idle_minutes, 1) + " min at or under " + FormatFixed(w.idle_threshold_pct, 0) +
      "%, sampling every " + FormatFixed(a.interval_s, 1) + " s (timeout " +
      FormatFixed(a.sample_timeout_s, 1) + " s), keep-alive file " + a.keep_alive_file +
      ", on wedged GPUs (" + std::to_string(w.wedged_after) + " failed samples) " +
      WedgedPolicyName(w.on_wedged));
  WatchState state(w);
  const auto start = std::chrono::steady_clock::now();
  for (long n = 1;; ++n) {
    const double now =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string why;
    const std::vector<double> utils = SampleGpus(a, &why);
    struct stat sb{};
    const bool keep = !a.keep_alive_file.empty() && ::stat(a.keep_alive_file.c_str(), &sb) == 0;
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
    if (d == WatchDecision::kAct) return Act(a, log);
    if (a.max_samples > 0 && n >= a.max_samples) break;
    std::this_thread::sleep_for(std::chrono::duration<double>(a.interval_s));
  }
  log("stopping after --max-samples without acting");
  return kExitOk;
}

}  // namespace

void SetupWatch(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<WatchCliOptions>();
  o->table.Add(app, "watch");
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
