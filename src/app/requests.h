// Command requests from their options: the one step from a command's OptionValues (options.h,
// filled by whichever front end) to the library's request structs, so every front end accepts
// the same values, reports the same one-line errors (naming the option, e.g. `--min-gpus:
// expected a number from 0 to 1024, got "x"`, with field() "min-gpus") and emits the same JSON.
#ifndef GPUADVISOR_APP_REQUESTS_H_
#define GPUADVISOR_APP_REQUESTS_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/command_args.h"
#include "app/json_doc.h"
#include "app/options.h"
#include "app/views.h"
#include "gpuadvisor/catalog.h"
#include "gpuadvisor/commit_plan.h"
#include "gpuadvisor/cost.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/idle.h"
#include "gpuadvisor/launch.h"
#include "gpuadvisor/prometheus_source.h"
#include "gpuadvisor/query.h"
#include "gpuadvisor/recommend.h"
#include "gpuadvisor/workload.h"

namespace gpuadvisor {

// Prices older than `max_price_age_days` are stale (OutputArgs declares its bounds); `today` is
// the UTC date "YYYY-MM-DD" the front end gives (its clock, or a fixed date in tests).
Freshness MakeFreshness(int max_price_age_days, std::string today);
// "" or "embedded" = the embedded catalog; otherwise the file (errors prefixed "--catalog").
Result<std::shared_ptr<const Catalog>> OpenCatalog(const std::string& path);

// The output options of every CLI command that prints results (the "output" table), and the
// catalog a command reads; Python's Catalog(path, max_price_age) takes those two as well.
struct OutputArgs {
  OutputFormat format = OutputFormat::kTable;
  bool json = false;    // the same as format json
  std::string catalog;  // "" = the user catalog, else the embedded one (cli::ChooseCatalog)
  int max_price_age_days = 90;
  bool no_color = false;
  std::string lang;  // "en", "zh"; "" = from the environment (the CLI reads it: cli/run.cc)
};
template <typename V>
void DeclareOptions(V& v, OutputArgs& a) {
  // The CLI's presentation; the catalog options Python's Catalog(path, max_price_age) takes too.
  OfferedBy(v, kCli, [&] {
    v.Enum("format", a.format, OutputFormatName, ParseOutputFormat,
           {.help = "Output", .choices = {"table", "json", "csv", "markdown"}});
    v.Bool("json", a.json, {.help = "Same as --format json"});
  });
  OfferedBy(v, kLocalFrontEnds, [&] {
    v.Text("catalog", a.catalog,
           {.help = "Catalog file, or \"embedded\" (default: the user catalog that `catalog "
                    "update` writes, else the embedded one; also GPUADVISOR_CATALOG)",
            .local = true,
            .metavar = "FILE"});
    v.Integer("max-price-age", a.max_price_age_days,
              MaxPriceAgeInfo("Flag prices older than this"));
  });
  OfferedBy(v, kCli, [&] {
    v.Bool("no-color", a.no_color, {.help = "Never use colour (also: NO_COLOR env)"});
    v.Choice("lang", a.lang,
             {.help = "Language of tables, warnings and messages; JSON keys stay English "
                      "(default: from LANGUAGE, LC_ALL, LC_MESSAGES, LANG)",
              .choices = {"en", "zh"},
              .metavar = "LANG",
              .no_default = true});
  });
}

// An instance type as a command's first argument (`show TYPE`, `pricing TYPE`).
inline FieldInfo TypeArgument(std::string_view help) {
  return {.help = help,
          .positional = true,
          .required = true,
          .aliases = {"instance", "instance-type"},
          .metavar = "TYPE"};
}

// `instances` filters (InstanceQuery's declaration, query.h).
Result<InstanceQuery> MakeInstanceQuery(const OptionValues& v);
// The warning for a query that matched nothing: "no instance type matches these filters", and,
// when the same filters match in other regions, which types match where and the region to try.
std::string NoMatchWarning(const Catalog& c, const InstanceQuery& q);

// `show TYPE`.
struct ShowArgs {
  std::string type;
  std::string region = "us-east-1";
  bool history = false;
};
template <typename V>
void DeclareOptions(V& v, ShowArgs& a) {
  v.Text("type", a.type, TypeArgument("Instance type, e.g. p5.48xlarge"));
  v.Text("region", a.region,
         {.help = "Region for the top-level price fields and the commitment and history tables",
          .metavar = "REGION"});
  v.Bool("history", a.history,
         {.help = "Dated prices in --region per source, with the change from the previous one"});
}

// `gpus`.
struct GpusArgs {
  bool include_retired = false;
};
template <typename V>
void DeclareOptions(V& v, GpusArgs& a) {
  v.Bool("include-retired", a.include_retired,
         {.help = "Also list models found only on retired types"});
}

// `pricing TYPE`: the usage, and how long it runs (hours-per-month and months, or one run of
// `hours`).
struct PricingArgs {
  std::string type;
  std::string region = "us-east-1";
  std::optional<double> hours_per_month, months, hours;
  UsagePattern usage;
};
template <typename V>
void DeclareOptions(V& v, PricingArgs& a) {
  v.Text("type", a.type, TypeArgument("Instance type, e.g. p5.48xlarge"));
  v.Text("region", a.region, {.help = "Region", .metavar = "REGION"});
  v.Number("hours-per-month", a.hours_per_month,
           {.help = "Hours the instances run per month (730 = always on)",
            .unit = "h",
            .lo = 0.001,
            .hi = 730,
            .shown_default = "730"});
  v.Number(
      "months", a.months,
      {.help = "How many months the usage lasts", .lo = 0.001, .hi = 600, .shown_default = "1"});
  v.Number("hours", a.hours,
           {.help = "One continuous run of H hours per instance, instead of --hours-per-month "
                    "and --months (a Capacity Block covers it in whole days)",
            .unit = "h",
            .lo = 0.001,
            .hi = 438000});
  v.Nested(a.usage);
}
// The usage of `a` (hours conflicts with hours-per-month and months).
Result<UsagePattern> UsageOf(const PricingArgs& a);

// `gpus`: one summary per model; models on no listed type only with `include_retired`.
std::vector<GpuSummary> ListGpus(const Catalog& c, bool include_retired);

// `show TYPE` ("show" table): NotFound (with "did you mean") for the type or the region. With
// `history`, the dated prices of the region ({instance_type, region, history}).
Result<JsonDoc> ShowTypeJson(const Catalog& c, const OptionValues& v, const Freshness& fresh);

// `estimate` hardware ("estimate" table).
Result<HardwareRequest> MakeHardwareRequest(const OptionValues& v);

// Workload: the fields of a YAML/JSON file ("-" = stdin), then the values given here over them,
// bound by one WorkloadFields (a preset first, so fields that refine it apply on top), then
// Validate(). Keys are WorkloadFields keys.
struct WorkloadArgs {
  std::string file;
  std::map<std::string, std::string> values;   // the CLI's flags as text ("" = not given)
  std::map<std::string, WorkloadValue> typed;  // Python's keyword arguments, typed
};
Result<Workload> BuildWorkload(const WorkloadArgs& a);

// `estimate`: the contract's JSON (EstimateToJson plus provenance, and `warnings`) and the
// warning lines: an instance type not offered (or not priced) in the region, with the regions
// that offer it, or retired, with what takes its place (InstanceTypeWarnings); stale prices;
// the estimator's own warnings.
JsonDoc EstimateReportJson(const Hardware& hw, const Estimate& e, const Catalog& c,
                           const Freshness& fresh, const std::vector<std::string>& warnings);
std::vector<std::string> EstimateWarnings(const Catalog& c, const Hardware& hw, const Estimate& e,
                                          const Freshness& fresh, const std::string& region);

// `pricing TYPE` ("pricing" table). `hours` (one continuous run of H hours per instance, as a
// Capacity Block is used) replaces hours-per-month and months; giving both is an error.
Result<UsagePattern> MakeUsage(const OptionValues& v);
// Resolves the type and region, prices the usage. A type not sold in the region is NoResult.
Result<PricingResult> PriceType(const Catalog& c, const OptionValues& v);
std::vector<std::string> PricingWarnings(const PricingResult& r, const Freshness& fresh);

// `recommend`: the search (RecommendRequest's declaration, recommend.h) and the CLI's plot.
struct RecommendArgs {
  RecommendRequest request;
  std::string plot;     // SVG file
  std::string account;  // account scan file, "none", or "" (the user's scan when there is one)
};
template <typename V>
void DeclareOptions(V& v, RecommendArgs& a) {
  v.Nested(a.request);
  OfferedBy(v, kCli, [&] {
    v.Text("plot", a.plot,
           {.help = "Write cost vs time with the Pareto front as SVG",
            .local = true,
            .metavar = "FILE",
            .nonempty = true});
  });
  v.Text("account", a.account,
         {.help = "Account scan to check plans against: a file (default: the one `account scan` "
                  "wrote, if any; also GPUADVISOR_ACCOUNT), or none to ignore it; over HTTP only "
                  "none (the server checks against the scan it was started with)",
          .label = "Account scan",
          .metavar = "FILE"});
}

// PlanLaunch, with what estimate and pricing say of the type (InstanceTypeWarnings: a retired
// type names what takes its place) first among the plan's warnings, and, with the buyer's
// account scan, what it says of the spec last (AccountWarningFor: a quota it would exceed, with
// the request to make). Every front end plans through it.
Result<LaunchPlan> PlanLaunchWarned(const Catalog& c, const LaunchRequest& r,
                                    const AccountScan* account = nullptr);

// `recommend` search options ("recommend" table).
Result<RecommendRequest> MakeRecommendRequest(const OptionValues& v);
std::vector<std::string> RecommendWarnings(const Recommendation& r, const Freshness& fresh);
// `launch` for a workload: the search for its best plan, from launch's deadline, budget,
// max-instances, objective and allow/deny lists (recommend's own table entries, so the same
// bounds and errors) and its region and purchase option, which restrict the search when given.
// One plan, no savings levers.
Result<RecommendRequest> MakeLaunchSearch(const OptionValues& v);

// `launch` ("launch" table). The request for an instance type (type, count) or for a plan:
// `plan_json` is the JSON of `recommend --json` (the whole answer or one plan; rank picks the
// plan) and `plan_origin` names it in errors (a file name, "plan"). A plan sets the type, count,
// region, purchase and checkpoint size: type and count are conflicts, a region or purchase option
// must agree with the plan's. Errors carry field() ("type", "count", "region", "plan", ...).
//
// `launch` for a workload asks recommend for the plan with recommend's own deadline, budget,
// max-instances, objective and allow/deny lists (CLI only).
struct LaunchSearch {
  RecommendRequest request;
};
template <typename V>
void DeclareOptions(V& v, LaunchSearch& s) {
  OfferedBy(v, kCli, [&] {
    DeclareDeadline(v, s.request);
    DeclareBudget(v, s.request);
    DeclareMaxInstances(v, s.request);
    DeclareObjective(v, s.request);
    DeclareFilters(v, s.request);
  });
}
struct LaunchArgs {
  LaunchRequest request;  // the options of LaunchRequest's declaration (launch.h)
  LaunchFormat format = LaunchFormat::kAwsCli;
  std::string type;          // TYPE (or a plan)
  std::optional<int> count;  // instances of TYPE (the request's default: 1)
  int rank = 1;              // the plan of a recommendation
  std::string from_plan;     // CLI: the plan file
  std::string out;           // CLI: the file written
  bool cli_input_json = false;
  LaunchSearch search;  // CLI: a workload's search
};
template <typename V>
void DeclareOptions(V& v, LaunchArgs& a) {
  v.Text("type", a.type,
         {.help = "Instance type to launch (or a plan)",
          .positional = true,
          .aliases = {"instance", "instance-type"},
          .metavar = "TYPE"});
  v.Integer("count", a.count, {.help = "Instances of TYPE (default 1)", .lo = 1, .hi = 1000});
  v.Integer("rank", a.rank, {.help = "Which plan of a recommendation", .lo = 1, .hi = 1000});
  v.Enum(
      "format", a.format, LaunchFormatName, ParseLaunchFormatOption,
      {.help = "What to generate",
       .choices = {
           LaunchFormatName(LaunchFormat::kAwsCli), LaunchFormatName(LaunchFormat::kCloudFormation),
           LaunchFormatName(LaunchFormat::kTerraform), LaunchFormatName(LaunchFormat::kSkyPilot)}});
  v.Nested(a.request);
  OfferedBy(v, kCli, [&] {
    v.Text("from-plan", a.from_plan,
           {.help = "Plan from `recommend --json` (the whole output or one plan; - = stdin)",
            .local = true,
            .metavar = "FILE"});
    v.Text("out", a.out,
           {.help = "Write to FILE (atomically) instead of stdout",
            .local = true,
            .metavar = "FILE",
            .nonempty = true});
    v.Bool("cli-input-json", a.cli_input_json,
           {.help = "aws-cli: print only the run-instances --cli-input-json document"});
  });
  v.Nested(a.search);
}
Result<LaunchArgs> MakeLaunchRequest(const OptionValues& v, const std::string* plan_json,
                                     std::string_view plan_origin);
// The HTTP and Python answer: format, file_name, instance_type, count, region, spot, reasons,
// warnings, document and cli_input_json (null except for aws-cli).
JsonDoc LaunchAnswerJson(const LaunchPlan& plan, const LaunchSpec& spec);
// The options that do not pick the instances (all but type, count, rank, region and purchase)
// onto `r`: for a request whose instances come from elsewhere (recommend, at the CLI).
Status ApplyLaunchOptions(const OptionValues& v, LaunchRequest* r);

// `idle FILE...`: the options of IdleOptions, TelemetryOptions and PrometheusOptions (idle.h,
// telemetry.h, prometheus_source.h) and the front ends' own: files, an inventory, one upload's
// type, the header-less CSV's columns, the end of a Prometheus range and its secret files.
struct IdleArgs {
  std::vector<std::string> files;  // CLI
  std::string inventory;           // CLI, Python: a file
  std::string instance_type;       // HTTP: the upload's one host
  IdleOptions options;
  TelemetryOptions telemetry;
  std::string columns;  // comma-separated
  PrometheusOptions prometheus;
  std::string until;  // ISO time or Unix seconds
  std::string bearer_token_file, basic_auth_file;
  bool no_progress = false;  // CLI
  // CLI only: CloudWatch through the user's AWS CLI (cloudwatch_source.h); the range is since and
  // until's, the region the idle region option's.
  bool cloudwatch = false;
  std::string cloudwatch_namespace = "CWAgent";
  std::vector<std::string> instance_ids;
  std::string asg;  // Auto Scaling group name
  AwsCliOptions aws_cli;
};
template <typename V>
void DeclareOptions(V& v, IdleArgs& a) {
  // Python hands its files over as its own positional arguments; HTTP as the upload.
  OfferedBy(v, kCli, [&] {
    v.Files("files", a.files,
            {.help = "Telemetry files (nvidia-smi CSV or -q -x XML, DCGM/Prometheus text, "
                     "CloudWatch GetMetricData JSON; .gz too; - for stdin)",
             .local = true,
             .positional = true,
             .metavar = "FILE"});
  });
  v.Text("inventory", a.inventory,
         {.help = "CSV hostname,instance_type[,region][,purchase] mapping hosts to prices",
          .local = true,
          .metavar = "FILE"});
  OfferedBy(v, kHttp, [&] {
    v.Text("instance-type", a.instance_type,
           {.help = "Instance type of an upload's one host (named by --host)", .metavar = "TYPE"});
  });
  v.Nested(a.options);
  v.Nested(a.telemetry);
  v.Text("columns", a.columns,
         {.help = "Column list of header-less nvidia-smi CSV (the --query-gpu list)",
          .metavar = "LIST"});
  v.Nested(a.prometheus);
  v.Text("until", a.until,
         {.help = "With --prometheus or --cloudwatch: end of the range, ISO time or Unix seconds "
                  "(default now)",
          .metavar = "TIME"});
  v.Text(
      "bearer-token-file", a.bearer_token_file,
      {.help = "With --prometheus: file holding a bearer token", .local = true, .metavar = "FILE"});
  v.Text(
      "basic-auth-file", a.basic_auth_file,
      {.help = "With --prometheus: file holding user:password", .local = true, .metavar = "FILE"});
  OfferedBy(v, kCli, [&] {
    v.Bool("no-progress", a.no_progress, {.help = "No progress bar on a terminal"});
  });
  // The AWS CLI runs on the caller's machine with the caller's credentials: the command line's
  // alone (not a server's credentials at a client's request).
  OfferedBy(v, kCli, [&] {
    v.Bool(
        "cloudwatch", a.cloudwatch,
        {.help = "Read the CloudWatch agent's nvidia_smi metrics through your AWS CLI instead of "
                 "files, summarised per hour by CloudWatch (GetMetricData: Average, Maximum, "
                 "SampleCount; an hour is idle when its Maximum is); --region is the region "
                 "read, --since/--until the range"});
    v.Text("cloudwatch-namespace", a.cloudwatch_namespace,
           {.help = "With --cloudwatch: the agent's namespace", .metavar = "NAMESPACE"});
    v.List("instance-ids", a.instance_ids,
           {.help = "With --cloudwatch: the fleet's instances (series with the InstanceId "
                    "dimension; default: every GPU listed in the namespace)",
            .metavar = "ID,...",
            .no_default = true});
    v.Text("asg", a.asg,
           {.help = "With --cloudwatch: the fleet is this Auto Scaling group (its instances now, "
                    "and series with its AutoScalingGroupName dimension)",
            .metavar = "NAME"});
    v.Nested(a.aws_cli);
  });
}

// `idle --cloudwatch`: what the CLI reads from CloudWatch through the AWS CLI. The range is whole
// UTC hours [start_s, end_s): until (default now) rounded down to the hour, back since rounded up
// to hours (at most kCloudWatchMaxRangeS).
struct IdleCloudWatch {
  std::string metric_namespace;
  std::vector<std::string> instance_ids;  // checked: i- and 8 or 17 hex digits
  std::string asg;
  std::string region;  // the idle region option
  double start_s = 0, end_s = 0;
  AwsCliOptions aws_cli;
};

// `idle FILE...` options ("idle" table). The inventory CSV is read and checked against the
// catalog; --prometheus's token and password are read from files so they stay off command lines.
struct IdleSetup {
  IdleOptions options;
  TelemetryOptions telemetry;  // no progress callback
  std::vector<InventoryEntry> inventory;
  std::optional<PrometheusOptions> prometheus;  // set when the prometheus option is
  std::optional<IdleCloudWatch> cloudwatch;     // CLI: set when the cloudwatch option is
  std::vector<std::string> files;               // CLI: the telemetry files
  bool no_progress = false;                     // CLI
};
Result<IdleSetup> ParseIdleArgs(const Catalog& c, const OptionValues& v);
// The Prometheus part (the prometheus option set). InvalidArgument naming the option; IOError
// when a secret file cannot be read.
Result<PrometheusOptions> ParsePrometheusArgs(const OptionValues& v);
// The Prometheus server's samples into `analyzer`; its errors name the field "prometheus" unless
// they name an option (since, step, selector, prometheus-max-points).
Result<PrometheusSourceInfo> AddPrometheus(const PrometheusOptions& p, IdleAnalyzer* analyzer);

// `commitments FILE...`: the bill's files (or an Athena table the CLI queries through the AWS
// CLI), the sizing options (CommitOptions, commit_plan.h), the push-down's range and SQL, a chart.
struct CommitmentsArgs {
  std::vector<std::string> files;  // CUR CSV (gzip or not) or push-down results
  CommitOptions options;
  std::string athena_table;      // database.table of a CUR 2.0 export
  std::string athena_workgroup;  // Athena workgroup (its result location)
  std::string athena_output;     // s3://bucket/prefix/ when the workgroup has none
  std::string region;            // Athena's region ("" = the AWS configuration's)
  double athena_timeout_s = 1800;
  AwsCliOptions aws_cli;
  std::string since, until;        // YYYY-MM-DD: usage in [since, until) (the push-down's range)
  bool sql = false;                // print the push-down SQL and stop
  std::string chart;               // SVG file
  std::vector<std::string> plans;  // plan files (recommend --json): runs about to start
};
template <typename V>
void DeclareOptions(V& v, CommitmentsArgs& a) {
  // Python hands its files over as its own positional arguments; HTTP as the upload.
  OfferedBy(v, kCli, [&] {
    v.Files("files", a.files,
            {.help = "Cost and Usage Report CSV (CUR 2.0 or legacy; .gz too; - for stdin), or the "
                     "push-down query's result",
             .local = true,
             .positional = true,
             .metavar = "FILE"});
  });
  v.Nested(a.options);
  // Athena runs through the AWS CLI on the caller's machine, with the caller's credentials: the
  // command line's alone (not a server's credentials at a client's request).
  OfferedBy(v, kCli, [&] {
    v.Text("athena-table", a.athena_table,
           {.help = "Run the aggregation in Amazon Athena over this CUR 2.0 table (database.table) "
                    "through your AWS CLI, instead of reading files",
            .metavar = "TABLE"});
    v.Text("athena-workgroup", a.athena_workgroup,
           {.help = "With --athena-table: the workgroup (default primary)", .metavar = "NAME"});
    v.Text("athena-output", a.athena_output,
           {.help = "With --athena-table: s3://bucket/prefix/ for the query's result when the "
                    "workgroup sets none",
            .metavar = "S3URL"});
    v.Text("region", a.region,
           {.help = "With --athena-table: Athena's region (default: your AWS configuration's)",
            .metavar = "REGION"});
    v.Duration("athena-timeout", a.athena_timeout_s,
               {.help = "With --athena-table: how long the query may run", .lo = 10, .hi = 86400});
    v.Nested(a.aws_cli);
    v.Text(
        "since", a.since,
        {.help = "Usage from this day on (YYYY-MM-DD; the push-down's range)", .metavar = "DATE"});
    v.Text("until", a.until, {.help = "Usage before this day (YYYY-MM-DD)", .metavar = "DATE"});
    v.Bool("sql", a.sql,
           {.help = "Print the push-down SQL (Athena/Trino and PostgreSQL) for --athena-table and "
                    "stop"});
    v.Text("chart", a.chart,
           {.help = "Write hourly usage against the commitment ladder as SVG",
            .local = true,
            .metavar = "FILE",
            .nonempty = true});
    v.Files("plan", a.plans,
            {.help = "A run about to start, on top of the bill: a plan `recommend --json` wrote "
                     "(its first plan: type, instances, region, purchase, time_hours from the "
                     "bill's end); repeatable",
             .local = true,
             .metavar = "PLAN.json"});
  });
}

// The request of `v` ("commitments" table), with the rules between its options: files or an
// Athena table (the CLI), the Athena options only with one, since and until together.
Result<CommitmentsArgs> ParseCommitmentsArgs(const OptionValues& v);
// The run of a plan file's first plan onto options->planned (--plan): type, instances, region,
// purchase and time_hours. ParseError naming `origin` and the field.
Status AddPlannedRun(std::string_view plan_json, const std::string& origin, CommitOptions* options);
// since/until as days since 1970 ({0, 0}: every row).
Result<std::pair<int64_t, int64_t>> CommitmentsRange(const CommitmentsArgs& a);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_APP_REQUESTS_H_
