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
#include "util/text.h"
#include "gpuadvisor/watch.h"

namespace gpuadvisor::cli {
namespace {

// The flags, their ranges and defaults are in the "watch" option table (options.cc).
struct WatchCliOptions {
  TableOptions table;
};

// The text options the loop and the action use, read once from the table.
struct WatchTexts {
  std::string keep_alive, log, imds, aws_endpoint, region, smi;
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

// Every numeric flag has a range (the table; doc/cost-control.md); outside it is exit 2 naming
// the flag.
Status ParseWatchFlags(const OptionValues& v, WatchOptions* w, WatchLoop* loop, WatchTexts* t) {
  GPUADVISOR_RETURN_IF_ERROR(v.Check());
  double idle_min = 0, wedged_after = 0;
  const std::pair<const char*, double*> kNumbers[] = {{"interval", &loop->interval_s},
                                                      {"idle-minutes", &idle_min},
                                                      {"idle-threshold", &w->idle_threshold_pct},
                                                      {"boot-grace", &w->boot_grace_s},
                                                      {"max-samples", &loop->max_samples},
                                                      {"sample-timeout", &loop->sample_timeout_s},
                                                      {"wedged-after", &wedged_after}};
  for (const auto& [name, out] : kNumbers) {
    Result<std::optional<double>> n = v.Number(name);
    if (!n.ok()) return n.status();
    *out = n->value_or(0);  // every one has a default
  }
  const std::string action = v.Text("action");
  Status st = CheckWatchAction(action);
  if (!st.ok()) return st.WithField("action");
  w->idle_s = idle_min * 60;
  w->wedged_after = static_cast<int>(wedged_after);
  w->on_wedged =
      ToLower(v.Text("on-wedged")) == "stop" ? WedgedPolicy::kStop : WedgedPolicy::kKeepAlive;
  w->action = action;
  w->dry_run = !v.Bool("execute");
  *t = {v.Text("keep-alive-file"),  v.Text("log"),    v.Text("imds-endpoint"),
        v.Text("aws-endpoint-url"), v.Text("region"), v.Text("nvidia-smi")};
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
std::vector<double> SampleGpus(const WatchTexts& o, const WatchLoop& loop, std::string* why) {
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
int Act(const WatchTexts& o, const WatchOptions& w, const WatchLog& log) {
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

int Run(const WatchCliOptions& opts) {
  Result<OptionValues> values = opts.table.Values();
  if (!values.ok()) return Fail(values.status());
  WatchOptions w;
  WatchLoop loop;
  WatchTexts o;
  Status st = ParseWatchFlags(*values, &w, &loop, &o);
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
