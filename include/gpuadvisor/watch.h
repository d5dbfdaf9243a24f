// The on-instance idle agent behind `gpuadvisor watch` (doc/cost-control.md): samples GPU
// utilisation, and after a stretch of idleness runs an action (stop / hibernate / terminate the
// instance via the AWS CLI with the instance id from IMDSv2, or a shell command). Dry-run unless
// told.
//
// WatchState is the decision logic alone (pure, unit-tested); the sampling, IMDS and process
// helpers below do the I/O.
#ifndef GPUADVISOR_WATCH_H_
#define GPUADVISOR_WATCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/fields.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

// What to do when the GPUs cannot be read for `wedged_after` samples in a row (a hung or
// mismatched driver: nvidia-smi times out or fails). Names as on the command line.
enum class WedgedPolicy {
  // Default. Never act while the GPUs cannot be read, and restart the idle clock: a failed read
  // says nothing about the work. After an unattended driver upgrade nvidia-smi fails ("Driver/
  // library version mismatch") while running CUDA jobs go on; a hung nvidia-smi can be a busy
  // GPU's driver. Stopping would kill that work; an idle instance costs only money.
  kKeepAlive,
  // Treat the wedged instance as idle: run the action (after the boot grace, unless the
  // keep-alive file exists). For fleets where a wedged node is useless and is replaced.
  kStop,
};
const char* WedgedPolicyName(WedgedPolicy p);  // "keep-alive", "stop"
// "keep-alive" or "stop", any case. Error: InvalidArgument naming the field "on-wedged".
Result<WedgedPolicy> ParseWedgedPolicy(std::string_view text);

struct WatchOptions {
  double idle_threshold_pct = 5;
  double idle_minutes = 30;     // idle this long before acting
  double boot_grace_s = 600;    // no action this soon after boot
  std::string action = "stop";  // stop | hibernate | terminate | command:<shell command>
  bool execute = false;         // act; false: a dry run that only logs
  int wedged_after = 5;         // failed reads in a row that make the driver "wedged", >= 1
  WedgedPolicy on_wedged = WedgedPolicy::kKeepAlive;
};

// The decision's options of `watch` (fields.h).
template <typename V>
void DeclareOptions(V& v, WatchOptions& o) {
  v.Number("idle-minutes", o.idle_minutes,
           {.help = "Act after this many minutes of idleness (43200 = 30 days)",
            .unit = "min",
            .lo = 0,
            .hi = 43200});
  v.Number(
      "idle-threshold", o.idle_threshold_pct,
      {.help = "Every GPU at or under this utilisation is idle", .unit = "%", .lo = 0, .hi = 100});
  v.Duration("boot-grace", o.boot_grace_s,
             {.help = "No action this soon after boot", .lo = 0, .hi = 365 * 86400});
  v.Text("action", o.action,
         {.help = "stop, hibernate, terminate, or command:SHELL-COMMAND",
          .local = true,
          .metavar = "ACTION"});
  v.Bool("execute", o.execute, {.help = "Really act (default: dry run, log only)"});
  v.Integer("wedged-after", o.wedged_after,
            {.help = "Failed samples in a row that mean a wedged driver", .lo = 1, .hi = 10000});
  v.Enum("on-wedged", o.on_wedged, WedgedPolicyName, ParseWedgedPolicy,
         {.help = "keep-alive: never stop while the GPUs cannot be read; stop: count a wedged "
                  "instance as idle",
          .choices = {"keep-alive", "stop"}});
}

enum class WatchDecision {
  kBusy,       // some GPU is busy: the idle clock restarts
  kIdle,       // idle, not long enough yet
  kKeepAlive,  // the keep-alive file exists: the idle clock restarts
  kGrace,      // idle long enough, but within the boot grace period
  kNoData,     // no GPU reading this time: the idle clock keeps its start
  kAct,        // run the action now
};
const char* WatchDecisionName(WatchDecision d);

class WatchState {
 public:
  explicit WatchState(WatchOptions o) : o_(std::move(o)) {}
  // One sample at `now_s` (any monotonic clock) with `uptime_s` since boot. `utils` empty = no
  // reading. Returns the decision and sets *idle_for_s.
  // A wedged driver under WedgedPolicy::kStop returns kAct (or kGrace / kKeepAlive); under
  // kKeepAlive it returns kNoData and restarts the idle clock.
  WatchDecision Observe(double now_s, double uptime_s, const std::vector<double>& utils,
                        bool keep_alive, double* idle_for_s);
  // Samples in a row without a reading, up to and including the last one observed.
  int failed_reads() const { return failed_reads_; }
  bool wedged() const { return failed_reads_ >= o_.wedged_after; }

 private:
  WatchOptions o_;
  std::optional<double> idle_since_;
  int failed_reads_ = 0;
};

// Errors: InvalidArgument for an action other than stop|hibernate|terminate|command:CMD.
Status CheckWatchAction(const std::string& action);

// Utilisation of each GPU from `nvidia-smi --query-gpu=utilization.gpu
// --format=csv,noheader,nounits` output ("[N/A]" lines are skipped). ParseError on other text.
Result<std::vector<double>> ParseSmiUtilization(const std::string& text);

// IMDSv2: PUT <endpoint>/latest/api/token, then GET <endpoint>/latest/meta-data/instance-id with
// the token, each within `timeout_s` (whole request), never through a proxy, redirects refused.
// `endpoint` is "http://host[:port]" (parsed by ParseHttpUrl; "host:port" means http).
// InvalidArgument for a malformed endpoint; IOError naming the endpoint and the cause
// ("IMDS 169.254.169.254: connection refused", "...: HTTP 401 to GET /latest/...").
Result<std::string> ImdsInstanceId(const std::string& endpoint, double timeout_s = 2);

// The argument vector of the AWS CLI call for an action ("aws ec2 stop-instances --instance-ids
// ID [--hibernate] [--region R] [--endpoint-url U]"), or of /bin/sh -c for command:CMD.
std::vector<std::string> WatchActionArgv(const std::string& action, const std::string& instance_id,
                                         const std::string& region,
                                         const std::string& endpoint_url);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_WATCH_H_
