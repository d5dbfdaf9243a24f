// `gpuadvisor simulate`: replay a request-rate trace against an autoscaled serving fleet.
#include <cstdio>

#include "app/command_args.h"
#include "app/views.h"
#include "cli/common.h"
#include "cli/workload_flags.h"
#include "gpuadvisor/query.h"
#include "gpuadvisor/simulate.h"
#include "util/files.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

struct SimulateCliOptions {
  CommonOptions common;
  WorkloadArgs workload;
  TableOptions table;  // every other flag: SimulateArgs's declaration (simulate.h)
};

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

Result<Trace> LoadTrace(const SimulateArgs& a) {
  if (!a.trace.empty() && !a.diurnal.empty()) {
    return Status::InvalidArgument("--trace and --diurnal: give one of them").WithField("trace");
  }
  if (!a.trace.empty()) {
    Result<std::string> text = ReadFile(a.trace, kTraceFile);
    if (!text.ok()) return text.status().WithPrefix("--trace").WithField("trace");
    return ParseTraceCsv(*text, a.trace);
  }
  if (a.diurnal.empty()) {
    return Status::InvalidArgument("expected --trace FILE.csv or --diurnal PEAK[,TROUGH]")
        .WithField("trace");
  }
  std::vector<std::string_view> parts = Split(a.diurnal, ',');
  if (parts.size() > 2) {
    return Status::InvalidArgument("--diurnal: expected PEAK[,TROUGH], got \"" + a.diurnal + "\"")
        .WithField("diurnal");
  }
  double peak = 0;
  GPUADVISOR_RETURN_IF_ERROR(DiurnalRate(parts[0], "PEAK", &peak));
  double trough = peak / 5;
  if (parts.size() > 1) GPUADVISOR_RETURN_IF_ERROR(DiurnalRate(parts[1], "TROUGH", &trough));
  return DiurnalTrace(peak, trough, a.days, a.step_s);
}

int Run(const SimulateCliOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> values = o.table.Values();
  if (!values.ok()) return Fail(values.status());
  SimulateArgs a;
  Status st = SetFromOptions(*values, &a);
  if (!st.ok()) return Fail(st);
  Result<Trace> trace = LoadTrace(a);
  if (!trace.ok()) return Fail(trace.status());
  PolicySearch search;
  search.allow_spot = a.allow_spot || a.policy.spot_share > 0;
  search.max_violation_fraction = a.max_missed_pct / 100;
  st = CheckRegion(*ctx->catalog, a.region, "--region");
  if (!st.ok()) return Fail(st);
  Result<const InstanceType*> type = ResolveInstanceType(*ctx->catalog, a.instance);
  if (!type.ok()) return Fail(type.status());
  double capacity = 0;
  if (a.capacity_rps) {
    // The declaration's range includes 0; a fleet of zero-capacity instances serves nothing.
    if (!(*a.capacity_rps > 0)) {
      return Fail(Status::InvalidArgument("--capacity-rps: expected over 0, up to 1e9 req/s")
                      .WithField("capacity-rps"));
    }
    capacity = *a.capacity_rps;
  } else {
    Result<Workload> w = BuildWorkload(o.workload);
    if (!w.ok()) return Fail(w.status());
    Result<double> c = ServingCapacityRps(*ctx->catalog, *w, **type);
    if (!c.ok()) return Fail(c.status());
    capacity = *c;
  }
  Result<FleetCosts> costs = FleetCostsFor(**type, a.region, capacity);
  if (!costs.ok()) return Fail(Status::NoResult(costs.status().message()));
  Result<SimulationReport> r =
      SimulateAndSearch(*trace, *costs, a.policy, search, !a.no_search, a.seed);
  if (!r.ok()) return Fail(r.status());
  if (!a.plot.empty()) {
    st = WriteFileAtomic(a.plot, SimulationSvg(*r));
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
  auto o = std::make_shared<SimulateCliOptions>();
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
