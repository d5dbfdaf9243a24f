// `gpuadvisor idle FILE...`: idle periods, waste and rightsizing from GPU telemetry.
#include <unistd.h>

#include <cstdio>

#include "cli/common.h"
#include "cli/progress.h"
#include "gpuadvisor/idle.h"
#include "gpuadvisor/prometheus_source.h"
#include "gpuadvisor/query.h"
#include "io/idle_views.h"
#include "io/requests.h"
#include "util/files.h"
#include "util/strings.h"

namespace gpuadvisor::cli {
namespace {

struct IdleCliOptions {
  CommonOptions common;
  std::vector<std::string> files;
  IdleArgs idle;
  bool no_progress = false;
};

int Run(const IdleCliOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<IdleSetup> setup = ParseIdleArgs(*ctx->catalog, o.idle);
  if (!setup.ok()) return Fail(setup.status());
  if (o.files.empty() == !setup->prometheus) {
    return Fail(Status::InvalidArgument(
        "idle: expected telemetry files or --prometheus URL (one of the two)"));
  }
  TelemetryOptions to = setup->telemetry;
  const std::vector<InventoryEntry>& inventory = setup->inventory;
  ProgressBar bar(!o.no_progress && ::isatty(STDERR_FILENO));
  std::string current;  // the file being read
  to.progress = [&bar, &current](uint64_t done, uint64_t total) {
    bar.Update(current, static_cast<int64_t>(done), static_cast<int64_t>(total));
  };
  IdleAnalyzer analyzer(ctx->catalog, setup->options);
  std::optional<PrometheusSourceInfo> prom;
  // A local copy: clang-tidy cannot follow the check through Result's operator->.
  if (const std::optional<PrometheusOptions> query = setup->prometheus) {
    Result<PrometheusSourceInfo> info =
        ReadPrometheus(*query, [&analyzer](const TelemetrySample& s) { return analyzer.Add(s); });
    if (!info.ok()) return Fail(info.status());
    prom = *info;
  }
  for (const std::string& file : o.files) {
    current = file;
    Status st = analyzer.AddFile(file, to);
    bar.Clear();
    if (!st.ok()) return Fail(st);
  }
  Result<IdleReport> r = analyzer.Finish(inventory);
  if (!r.ok()) return Fail(r.status());
  Emit(
      *ctx,
      [&] {
        ojson j = IdleReportJson(*r, ctx->fresh);
        if (prom) j["prometheus"] = PrometheusSourceJson(*prom);
        return j;
      },
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
  app->add_option("files", o->files,
                  "Telemetry files (nvidia-smi CSV or -q -x XML, DCGM/Prometheus text, "
                  "CloudWatch GetMetricData JSON; .gz too; - for stdin)");
  app->add_option("--prometheus", o->idle.prometheus,
                  "Read DCGM metrics from a Prometheus-compatible server instead of files, "
                  "summarised on the server (http(s)://host:port[/prefix])");
  app->add_option("--since", o->idle.since, "With --prometheus: how far back (default 7d)");
  app->add_option("--until", o->idle.until,
                  "With --prometheus: end of the range, ISO time or Unix seconds (default now)");
  app->add_option("--selector", o->idle.selector,
                  R"(With --prometheus: label matchers, e.g. '{cluster="a",job="dcgm"}')");
  app->add_option("--step", o->idle.step,
                  "With --prometheus: window each sample summarises (default 5m; the scrape "
                  "interval reproduces the file analysis exactly)");
  app->add_option("--prometheus-max-points", o->idle.max_points,
                  "With --prometheus: values per request, the host batch size (default 500k)");
  app->add_option("--bearer-token-file", o->idle.bearer_token_file,
                  "With --prometheus: file holding a bearer token");
  app->add_option("--basic-auth-file", o->idle.basic_auth_file,
                  "With --prometheus: file holding user:password");
  app->add_option("--prometheus-header", o->idle.headers,
                  "With --prometheus: extra header 'Name: value' (repeatable; e.g. "
                  "X-Scope-OrgID for Mimir)");
  app->add_option("--inventory", o->idle.inventory,
                  "CSV hostname,instance_type[,region][,purchase] mapping hosts to prices");
  app->add_option("--idle-threshold", o->idle.threshold,
                  "Utilisation at or under this percentage is idle (default 5)");
  app->add_option("--idle-window", o->idle.window,
                  "Shortest idle stretch that counts, e.g. 30m, 2h (default 30m)");
  app->add_option("--min-rightsizing-span", o->idle.min_rightsizing_span,
                  "Observed time needed before a smaller or cheaper type is suggested, e.g. 12h, "
                  "7d (default 24h); under the idle window no idle verdict at all");
  app->add_option("--max-hosts", o->idle.max_hosts,
                  "Most distinct hosts in one run (default 10000; memory is bounded by it)");
  app->add_option("--region", o->idle.region,
                  "Region of hosts not in the inventory (default us-east-1)");
  app->add_option("--purchase", o->idle.purchase,
                  "Purchase option of hosts not in the inventory: on-demand (default), spot, "
                  "reserved-1y-no-upfront or capacity-block");
  app->add_option("--telemetry-format", o->idle.telemetry_format,
                  "auto (default), nvidia-smi-csv, nvidia-smi-xml, prometheus or cloudwatch");
  app->add_option("--columns", o->idle.columns,
                  "Column list of header-less nvidia-smi CSV (the --query-gpu list)");
  app->add_option("--host", o->idle.host,
                  "Host name of files without one (default: each file's name)");
  app->add_flag("--no-progress", o->no_progress, "No progress bar on a terminal");
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
  gpuadvisor idle --prometheus http://prometheus:9090 --since 30d --selector '{cluster="a"}')");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
