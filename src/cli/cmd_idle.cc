// `gpuadvisor idle FILE...`: idle periods, waste and rightsizing from GPU telemetry.
#include <unistd.h>

#include <cstdio>

#include "app/requests.h"
#include "app/views.h"
#include "cli/common.h"
#include "cli/idle_cloudwatch.h"
#include "cli/progress.h"
#include "gpuadvisor/idle.h"
#include "gpuadvisor/prometheus_source.h"
#include "gpuadvisor/query.h"
#include "util/files.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

struct IdleCliOptions {
  CommonOptions common;
  TableOptions idle;  // the "idle" table, FILE... and --no-progress included
};

int Run(const IdleCliOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> values = o.idle.Values();
  if (!values.ok()) return Fail(values.status());
  Result<IdleSetup> setup = ParseIdleArgs(*ctx->catalog, *values);
  if (!setup.ok()) return Fail(setup.status());
  const std::vector<std::string>& files = setup->files;
  if (files.empty() && !setup->prometheus && !setup->cloudwatch) {
    return Fail(Status::InvalidArgument(
        "idle: expected telemetry files, --prometheus URL or --cloudwatch (one of them)"));
  }
  if (!files.empty() && setup->prometheus) {
    return Fail(Status::InvalidArgument(
        "idle: expected telemetry files or --prometheus URL (one of the two)"));
  }
  TelemetryOptions to = setup->telemetry;
  std::vector<InventoryEntry> inventory = setup->inventory;
  ProgressBar bar(!setup->no_progress && ::isatty(STDERR_FILENO));
  std::string current;  // the file being read
  to.progress = [&bar, &current](uint64_t done, uint64_t total) {
    bar.Update(current, static_cast<int64_t>(done), static_cast<int64_t>(total));
  };
  IdleAnalyzer analyzer(ctx->catalog, setup->options);
  std::optional<PrometheusSourceInfo> prom;
  // A local copy: clang-tidy cannot follow the check through Result's operator->.
  if (const std::optional<PrometheusOptions> query = setup->prometheus) {
    Result<PrometheusSourceInfo> info = AddPrometheus(*query, &analyzer);
    if (!info.ok()) return Fail(info.status());
    prom = *info;
  }
  std::optional<CloudWatchRunInfo> cw;
  if (const std::optional<IdleCloudWatch> c = setup->cloudwatch) {
    Result<CloudWatchRunInfo> info = AddCloudWatch(*c, *ctx->catalog, &analyzer);
    if (!info.ok()) return Fail(info.status());
    cw = *info;
    inventory = MergeInventory(inventory, cw->typed_hosts);
    for (const std::string& w : cw->warnings) Warn(w);
    Warn(CloudWatchNote(*c, *cw));
  }
  for (const std::string& file : files) {
    current = file;
    Status st = analyzer.AddFile(file, to);
    bar.Clear();
    if (!st.ok()) return Fail(st);
  }
  Result<IdleReport> r = analyzer.Finish(inventory);
  if (!r.ok()) return Fail(r.status());
  Emit(
      *ctx, [&] { return IdleReportJson(*r, ctx->fresh, prom ? &*prom : nullptr); },
      [&] { return IdleTable(*r); }, r->warnings);
  if (ctx->format == OutputFormat::kTable) {
    PrintText(IdleNotes(*r));
  }
  return kExitOk;
}

}  // namespace

void SetupIdle(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<IdleCliOptions>();
  AddCommonOptions(app, &o->common);
  o->idle.Add(app, "idle");
  app->footer(
      R"(Idle = every GPU of a host at or under the threshold for at least the window; shorter dips
are not idleness. Wasted dollars use the catalog price of each host's type (the inventory, or a
guess from the GPU name and count, marked *). Hosts are listed largest saving first.

Examples:
  nvidia-smi --query-gpu=timestamp,hostname,index,name,utilization.gpu,memory.used,memory.total \
    --format=csv -l 60 >> gpu.csv
  gpuadvisor idle gpu.csv
  gpuadvisor idle logs/*.csv.gz --inventory hosts.csv --idle-window 1h --json
  gpuadvisor idle scrape.prom --idle-threshold 10
  gpuadvisor idle --prometheus http://prometheus:9090 --since 30d --selector '{cluster="a"}'
  gpuadvisor idle --cloudwatch --region us-east-1 --asg gpu-fleet --since 14d)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
