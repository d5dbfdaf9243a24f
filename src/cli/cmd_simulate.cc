// `gpuadvisor simulate`: replay a request-rate trace against an autoscaled serving fleet.
#include <cstdio>

#include "cli/common.h"
#include "cli/workload_flags.h"
#include "util/files.h"
#include "util/numbers.h"
#include "gpuadvisor/query.h"
#include "gpuadvisor/simulate.h"
#include "util/text.h"
#include "app/views.h"

namespace gpuadvisor::cli {
namespace {

struct SimulateOptions {
  CommonOptions common;
  WorkloadArgs workload;
  TableOptions table;  // every other flag: its range, default and --help are in the table
};

// A number the table has checked and defaulted (every numeric simulate option has a default).
Result<double> Num(const OptionValues& v, std::string_view name) {
  Result<std::optional<double>> n = v.Number(name);
  if (!n.ok()) return n.status();
  return n->value_or(0);
}

Status ParsePolicy(const OptionValues& v, ScalingPolicy* p) {
  const std::pair<const char*, double*> kNumbers[] = {
      {"target-utilization", &p->target_utilization},
      {"scale-out-cooldown", &p->scale_out_cooldown_s},
      {"scale-in-cooldown", &p->scale_in_cooldown_s},
      {"boot-time", &p->boot_s},
      {"spot-share", &p->spot_share}};
  for (const auto& [name, out] : kNumbers) {
    Result<double> n = Num(v, name);
    if (!n.ok()) return n.status();
    *out = *n;
  }
  Result<double> lo = Num(v, "min-instances");
  if (!lo.ok()) return lo.status();
  Result<double> hi = Num(v, "max-instances");
  if (!hi.ok()) return hi.status();
  p->min_instances = static_cast<int>(*lo);
  p->max_instances = static_cast<int>(*hi);
  return Status::OK();
}

// One rate of --diurnal PEAK[,TROUGH]: the option's own two-part form, so parsed here.
Status DiurnalRate(std::string_view text, const char* part, double* out) {
  Result<double> v = ParseSiNumber(Trim(text), "--diurnal");
  if (!v.ok()) return v.status().WithField("diurnal");
  if (!(*v >= 0 && *v <= kMaxTraceRps)) {
    return Status::InvalidArgument(std::string("--diurnal: expected ") + part +
                                   " 0 to 1e9 req/s, got \"" + std::string(Trim(text)) + "\"")
        .WithField("diurnal");
  }
  *out = *v;
  return Status::OK();
}

Result<Trace> LoadTrace(const OptionValues& v) {
  const std::string trace = v.Text("trace"), diurnal = v.Text("diurnal");
  if (!trace.empty() && !diurnal.empty()) {
    return Status::InvalidArgument("--trace and --diurnal: give one of them").WithField("trace");
  }
  if (!trace.empty()) {
    Result<std::string> text = ReadFile(trace, kTraceFile);
    if (!text.ok()) return text.status().WithPrefix("--trace").WithField("trace");
    return ParseTraceCsv(*text, trace);
  }
  if (diurnal.empty()) {
    return Status::InvalidArgument("expected --trace FILE.csv or --diurnal PEAK[,TROUGH]")
        .WithField("trace");
  }
  std::vector<std::string_view> parts = Split(diurnal, ',');
  if (parts.size() > 2) {
    return Status::InvalidArgument("--diurnal: expected PEAK[,TROUGH], got \"" + diurnal + "\"")
        .WithField("diurnal");
  }
  double peak = 0;
  GPUADVISOR_RETURN_IF_ERROR(DiurnalRate(parts[0], "PEAK", &peak));
  double trough = peak / 5;
  if (parts.size() > 1) GPUADVISOR_RETURN_IF_ERROR(DiurnalRate(parts[1], "TROUGH", &trough));
  Result<double> days = Num(v, "days");
  if (!days.ok()) return days.status();
  Result<double> step = Num(v, "step");
  if (!step.ok()) return step.status();
  return DiurnalTrace(peak, trough, *days, *step);
}

int Run(const SimulateOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> values = o.table.Values();
  if (!values.ok()) return Fail(values.status());
  const OptionValues& v = *values;
  Status st = v.Check();
  if (!st.ok()) return Fail(st);
  Result<Trace> trace = LoadTrace(v);
  if (!trace.ok()) return Fail(trace.status());
  ScalingPolicy policy;
  st = ParsePolicy(v, &policy);
  if (!st.ok()) return Fail(st);
  PolicySearch search;
  search.allow_spot = v.Bool("allow-spot") || policy.spot_share > 0;
  Result<double> slo_pct = Num(v, "max-missed");
  if (!slo_pct.ok()) return Fail(slo_pct.status());
  search.max_violation_fraction = *slo_pct / 100;
  Result<double> seed = Num(v, "seed");
  if (!seed.ok()) return Fail(seed.status());
  const std::string region = v.Text("region");
  st = CheckRegion(*ctx->catalog, region, "--region");
  if (!st.ok()) return Fail(st);
  Result<const InstanceType*> type = ResolveInstanceType(*ctx->catalog, v.Text("instance"));
  if (!type.ok()) return Fail(type.status());
  double capacity = 0;
  if (v.Given("capacity-rps")) {
    Result<double> c = Num(v, "capacity-rps");
    if (!c.ok()) return Fail(c.status());
    // The table's range includes 0; a fleet of zero-capacity instances serves nothing.
    if (!(*c > 0)) {
      return Fail(Status::InvalidArgument("--capacity-rps: expected over 0, up to 1e9 req/s")
                      .WithField("capacity-rps"));
    }
    capacity = *c;
  } else {
    Result<Workload> w = BuildWorkload(o.workload);
    if (!w.ok()) return Fail(w.status());
    Result<double> c = ServingCapacityRps(*ctx->catalog, *w, **type);
    if (!c.ok()) return Fail(c.status());
    capacity = *c;
  }
  Result<FleetCosts> costs = FleetCostsFor(**type, region, capacity);
  if (!costs.ok()) return Fail(Status::NoResult(costs.status().message()));
  Result<SimulationReport> r = SimulateAndSearch(
      *trace, *costs, policy, search, !v.Bool("no-search"), static_cast<uint64_t>(*seed));
  if (!r.ok()) return Fail(r.status());
  if (const std::string plot = v.Text("plot"); !plot.empty()) {
    st = WriteFileAtomic(plot, SimulationSvg(*r));
    if (!st.ok()) return Fail(st);
  }
  Emit(*ctx, [&] { return SimulationJson(*r); }, [&] { return SimulationTable(*r); });
  if (ctx->format == OutputFormat::kTable) {
    PrintText(SimulationNotes(*r));
  }
  return kExitOk;
}

}  // namespace

void SetupSimulate(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<SimulateOptions>();
  AddCommonOptions(app, &o->common);
  o->table.Add(app, "simulate");
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
