// `gpuadvisor watch`: the on-instance idle agent (stop/hibernate/terminate or a command after a
// stretch of GPU idleness). Dry-run unless --execute.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
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
  std::string max_samples = "0";
  bool execute = false;
};

double UptimeSeconds() {
  std::ifstream f("/proc/uptime");
  double up = 1e9;
  f >> up;
  return up;
}

int Run(const WatchCliOptions& o) {
  WatchOptions w;
  double interval = 60, idle_min = 30;
  Status st = ParseOptDuration(o.interval, "--interval", &interval);
  if (st.ok()) st = ParseOptNumber(o.idle_minutes, "--idle-minutes", &idle_min);
  if (st.ok()) st = ParseOptNumber(o.threshold, "--idle-threshold", &w.idle_threshold_pct);
  if (st.ok()) st = ParseOptDuration(o.grace, "--boot-grace", &w.boot_grace_s);
  if (st.ok()) st = CheckWatchAction(o.action);
  double max_samples = 0;
  if (st.ok()) st = ParseOptNumber(o.max_samples, "--max-samples", &max_samples);
  if (!st.ok()) return Fail(st);
  if (!(interval > 0) || !(idle_min >= 0)) {
    return Fail(Status::InvalidArgument("--interval and --idle-minutes: expected positive values"));
  }
  w.idle_s = idle_min * 60;
  w.action = o.action;
  w.dry_run = !o.execute;
  std::string imds = o.imds;
  if (imds.empty()) {
    const char* e = std::getenv("GPUADVISOR_IMDS_ENDPOINT");
    imds = e != nullptr ? e : "http://169.254.169.254";
  }
  FILE* logf = o.log.empty() ? nullptr : std::fopen(o.log.c_str(), "a");
  if (!o.log.empty() && logf == nullptr) {
    return Fail(Status::IOError("cannot open --log " + o.log));
  }
  auto log = [&](const std::string& msg) {
    const double now =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    const std::string line = FormatUtc(now) + " gpuadvisor watch: " + msg + "\n";
    std::fputs(line.c_str(), stderr);
    if (logf != nullptr) {
      std::fputs(line.c_str(), logf);
      std::fflush(logf);
    }
  };
  log(std::string(w.dry_run ? "dry run" : "armed") + ": action " + w.action + " after " +
      FormatFixed(idle_min, 1) + " min at or under " + FormatFixed(w.idle_threshold_pct, 0) +
      "%, sampling every " + FormatFixed(interval, 1) + " s, keep-alive file " + o.keep_alive);
  WatchState state(w);
  const auto start = std::chrono::steady_clock::now();
  for (long n = 1;; ++n) {
    const double now =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<double> utils;
    Result<std::string> out =
        RunCapture(o.smi + " --query-gpu=utilization.gpu --format=csv,noheader,nounits");
    std::string why;
    if (out.ok()) {
      Result<std::vector<double>> u = ParseSmiUtilization(*out);
      if (u.ok()) {
        utils = *u;
      } else {
        why = u.status().message();
      }
    } else {
      why = out.status().message();
    }
    struct stat sb{};
    const bool keep = !o.keep_alive.empty() && ::stat(o.keep_alive.c_str(), &sb) == 0;
    double idle_for = 0;
    const WatchDecision d = state.Observe(now, UptimeSeconds(), utils, keep, &idle_for);
    std::string u_text;
    for (double u : utils) u_text += (u_text.empty() ? "" : ",") + FormatFixed(u, 0);
    log(std::string(WatchDecisionName(d)) + ": gpu util [" + u_text + "] idle " +
        FormatFixed(idle_for / 60, 1) + " min" + (why.empty() ? "" : " (" + why + ")"));
    if (d == WatchDecision::kAct) {
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
          if (logf != nullptr) std::fclose(logf);
          return kExitIoError;
        }
      }
      const std::vector<std::string> argv = WatchActionArgv(w.action, id, o.region, o.aws_endpoint);
      std::string cmd;
      for (const std::string& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
      if (w.dry_run) {
        log("dry run: would run: " + cmd + " (pass --execute to act)");
      } else {
        log("running: " + cmd);
        Result<int> rc = RunArgv(argv);
        if (!rc.ok() || *rc != 0) {
          log("action failed: " +
              (rc.ok() ? "exit status " + std::to_string(*rc) : rc.status().message()));
          if (logf != nullptr) std::fclose(logf);
          return kExitIoError;
        }
        log("action done");
      }
      if (logf != nullptr) std::fclose(logf);
      return kExitOk;
    }
    if (max_samples > 0 && static_cast<double>(n) >= max_samples) break;
    std::this_thread::sleep_for(std::chrono::duration<double>(interval));
  }
  log("stopping after --max-samples without acting");
  if (logf != nullptr) std::fclose(logf);
  return kExitOk;
}

}  // namespace

void SetupWatch(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<WatchCliOptions>();
  app->add_option("--interval", o->interval, "Sampling interval (default 60s)");
  app->add_option("--idle-minutes", o->idle_minutes,
                  "Act after this many minutes of idleness (default 30)");
  app->add_option("--idle-threshold", o->threshold,
                  "Every GPU at or under this utilisation % is idle (default 5)");
  app->add_option("--boot-grace", o->grace, "No action this soon after boot (default 10m)");
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
