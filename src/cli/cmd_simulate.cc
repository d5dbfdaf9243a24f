// `gpuadvisor simulate`: replay a request-rate trace against an autoscaled serving fleet.
#include <cstdio>

#include "cli/common.h"
#include "cli/workload_flags.h"
#include "gpuadvisor/query.h"
#include "gpuadvisor/simulate.h"
#include "io/simulate_views.h"
#include "util/files.h"
#include "util/numbers.h"
#include "util/strings.h"

namespace gpuadvisor::cli {
namespace {

struct SimulateOptions {
  CommonOptions common;
  WorkloadArgs workload;
  std::string trace, diurnal, days = "7", step = "5m";
  std::string instance, region = "us-east-1", capacity;
  std::string target = "0.7", out_cooldown = "5m", in_cooldown = "15m", boot = "10m";
  std::string min_instances = "1", max_instances = "100", spot_share = "0";
  std::string slo = "0", seed = "1", plot;
  bool allow_spot = false, no_search = false;
};

Status Count(const std::string& text, const char* flag, int* out) {
  Result<int64_t> v = ParseInt(text, flag);
  if (!v.ok()) return v.status();
  if (*v < 0 || *v > 100000) {
    return Status::InvalidArgument(std::string(flag) + ": expected 0 to 100000");
  }
  *out = static_cast<int>(*v);
  return Status::OK();
}

// Every numeric flag has a range (stated in --help and doc/cost-control.md); outside it, or not a
// finite number, is exit 2 naming the flag.
constexpr double kDay = 86400;

Status ParsePolicy(const SimulateOptions& o, ScalingPolicy* p) {
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.target, "--target-utilization", 0.01, 1,
                                            "a fraction, 0.01 to 1", &p->target_utilization));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptDuration(o.out_cooldown, "--scale-out-cooldown", 0, 7 * kDay,
                                              "0 to 7d", &p->scale_out_cooldown_s));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptDuration(o.in_cooldown, "--scale-in-cooldown", 0, 7 * kDay,
                                              "0 to 7d", &p->scale_in_cooldown_s));
  GPUADVISOR_RETURN_IF_ERROR(
      ParseOptDuration(o.boot, "--boot-time", 0, kDay, "0 to 1d", &p->boot_s));
  GPUADVISOR_RETURN_IF_ERROR(Count(o.min_instances, "--min-instances", &p->min_instances));
  GPUADVISOR_RETURN_IF_ERROR(Count(o.max_instances, "--max-instances", &p->max_instances));
  GPUADVISOR_RETURN_IF_ERROR(
      ParseOptNumber(o.spot_share, "--spot-share", 0, 1, "a fraction, 0 to 1", &p->spot_share));
  return Status::OK();
}

Result<Trace> LoadTrace(const SimulateOptions& o) {
  if (!o.trace.empty() && !o.diurnal.empty()) {
    return Status::InvalidArgument("--trace and --diurnal: give one of them");
  }
  if (!o.trace.empty()) {
    Result<std::string> text = ReadFile(o.trace);
    if (!text.ok()) return text.status();
    return ParseTraceCsv(*text, o.trace);
  }
  if (o.diurnal.empty()) {
    return Status::InvalidArgument("expected --trace FILE.csv or --diurnal PEAK[,TROUGH]");
  }
  std::vector<std::string_view> parts = Split(o.diurnal, ',');
  if (parts.size() > 2) {
    return Status::InvalidArgument("--diurnal: expected PEAK[,TROUGH], got \"" + o.diurnal + "\"");
  }
  double peak = 0;
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(std::string(Trim(parts[0])), "--diurnal", 0,
                                            kMaxTraceRps, "PEAK 0 to 1e9 req/s", &peak));
  double trough = peak / 5;
  if (parts.size() > 1) {
    GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(std::string(Trim(parts[1])), "--diurnal", 0,
                                              kMaxTraceRps, "TROUGH 0 to 1e9 req/s", &trough));
  }
  double days = 7, step = 300;
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.days, "--days", 0, 366, "0 to 366", &days));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptDuration(o.step, "--step", 1, kDay, "1s to 1d", &step));
  return DiurnalTrace(peak, trough, days, step);
}

int Run(const SimulateOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<Trace> trace = LoadTrace(o);
  if (!trace.ok()) return Fail(trace.status());
  ScalingPolicy policy;
  Status st = ParsePolicy(o, &policy);
  if (!st.ok()) return Fail(st);
  PolicySearch search;
  search.allow_spot = o.allow_spot || policy.spot_share > 0;
  double slo_pct = 0;
  st = ParseOptNumber(o.slo, "--max-missed", 0, 100, "a percentage, 0 to 100", &slo_pct);
  if (!st.ok()) return Fail(st);
  search.max_violation_fraction = slo_pct / 100;
  Result<int64_t> seed = ParseInt(o.seed, "--seed");
  if (!seed.ok()) return Fail(seed.status());
  st = CheckRegion(*ctx->catalog, o.region, "--region");
  if (!st.ok()) return Fail(st);
  Result<const InstanceType*> type = ResolveInstanceType(*ctx->catalog, o.instance);
  if (!type.ok()) return Fail(type.status());
  double capacity = 0;
  if (!o.capacity.empty()) {
    st = ParseOptNumber(o.capacity, "--capacity-rps", 0, kMaxTraceRps, "over 0, up to 1e9 req/s",
                        &capacity);
    if (!st.ok()) return Fail(st);
    if (!(capacity > 0)) {
      return Fail(Status::InvalidArgument("--capacity-rps: expected over 0, up to 1e9 req/s"));
    }
  } else {
    Result<Workload> w = BuildWorkload(o.workload);
    if (!w.ok()) return Fail(w.status());
    Result<double> c = ServingCapacityRps(*ctx->catalog, *w, **type);
    if (!c.ok()) return Fail(c.status());
    capacity = *c;
  }
  Result<FleetCosts> costs = FleetCostsFor(**type, o.region, capacity);
  if (!costs.ok()) return Fail(Status::NoResult(costs.status().message()));
  Result<SimulationReport> r =
      SimulateAndSearch(*trace, *costs, policy, search, !o.no_search, static_cast<uint64_t>(*seed));
  if (!r.ok()) return Fail(r.status());
  if (!o.plot.empty()) {
    st = WriteFileAtomic(o.plot, SimulationSvg(*r));
    if (!st.ok()) return Fail(st);
  }
  Emit(*ctx, [&] { return SimulationJson(*r); }, [&] { return SimulationTable(*r); });
  if (ctx->format == OutputFormat::kTable) {
    const std::string notes = SimulationNotes(*r);
    std::fwrite(notes.data(), 1, notes.size(), stdout);
  }
  return kExitOk;
}

}  // namespace

void SetupSimulate(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<SimulateOptions>();
  AddCommonOptions(app, &o->common);
  app->add_option("--trace", o->trace, "Request-rate trace CSV: timestamp,requests_per_s");
  app->add_option("--diurnal", o->diurnal,
                  "Generate a daily pattern instead: PEAK[,TROUGH] req/s (trough default peak/5)");
  app->add_option("--days", o->days, "Days of the generated pattern (default 7)");
  app->add_option("--step", o->step, "Step of the generated pattern (default 5m)");
  app->add_option("--instance", o->instance, "Serving instance type, e.g. g6e.xlarge")->required();
  app->add_option("--region", o->region, "Region for prices (default us-east-1)");
  app->add_option("--capacity-rps", o->capacity,
                  "Requests/s one instance serves (default: estimated from the workload flags)");
  app->add_option("--target-utilization", o->target, "Autoscaling target, 0-1 (default 0.7)");
  app->add_option("--scale-out-cooldown", o->out_cooldown, "Between launches (default 5m)");
  app->add_option("--scale-in-cooldown", o->in_cooldown,
                  "After any change before stopping instances (default 15m)");
  app->add_option("--min-instances", o->min_instances, "Fleet minimum (default 1)");
  app->add_option("--max-instances", o->max_instances, "Fleet maximum (default 100)");
  app->add_option("--boot-time", o->boot, "Launch to serving (default 10m)");
  app->add_option("--spot-share", o->spot_share, "Share of launches on spot, 0-1 (default 0)");
  app->add_flag("--allow-spot", o->allow_spot, "Let the policy search use spot");
  app->add_option("--max-missed", o->slo,
                  "SLO: percentage of requests that may miss the latency target (default 0)");
  app->add_flag("--no-search", o->no_search, "Simulate the given policy only");
  app->add_option("--seed", o->seed, "Random seed for spot interruptions (default 1)");
  app->add_option("--plot", o->plot, "Write an SVG chart of load, capacity and cost");
  AddWorkloadOptions(app, &o->workload);
  app->footer(
      R"(Capacity per instance comes from the estimator (serve workload: the highest request rate
one instance serves within --ttft-p95/--itl-p95), or --capacity-rps. The search tries target
utilisations, cooldowns, minimum sizes (and spot shares with --allow-spot) and keeps the cheapest
policy whose missed requests stay within --max-missed.

Examples:
  gpuadvisor simulate --instance g6e.xlarge --diurnal 40,5 --task serve --model llama-3.1-8b \
    --itl-p95 50ms --plot fleet.svg
  gpuadvisor simulate --instance g5.xlarge --capacity-rps 10 --trace rps.csv --boot-time 3m --json)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
