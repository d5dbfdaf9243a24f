// The arguments of the commands only the command line has (catalog build/upgrade/import/diff/
// update, account scan, simulate, watch), each next to its option declaration (gpuadvisor/
// fields.h). They are the CLI's, not the library's: the library's entry points take the domain
// structs these hold (ImportInputs, UpdateSettings, ScalingPolicy, WatchOptions, ...), and
// include/ stays the domain (issue 40, item 3). The app layer keeps them because `CommandSpecs`
// (app/options.h) lists every command's options for the help, the docs and the contract tests.
#ifndef GPUADVISOR_APP_COMMAND_ARGS_H_
#define GPUADVISOR_APP_COMMAND_ARGS_H_

#include <optional>
#include <string>
#include <vector>

#include "gpuadvisor/account.h"
#include "gpuadvisor/catalog_build.h"
#include "gpuadvisor/catalog_import.h"
#include "gpuadvisor/catalog_update.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/simulate.h"
#include "gpuadvisor/watch.h"

namespace gpuadvisor {

// How the CLI runs the AWS CLI for the calls made with the user's credentials (`account scan`,
// `catalog update --aws`): whatever credentials the user's `aws` finds (profiles, SSO, an instance
// role, a credential process) are the ones used, so gpuadvisor holds no secret and signs nothing
// itself. Nested in both commands' arguments.
struct AwsCliOptions {
  std::string profile;          // AWS CLI --profile; "" = its default chain
  std::string endpoint_url;     // AWS CLI --endpoint-url for every call (a local fake in tests)
  std::string program = "aws";  // the AWS CLI program, looked up on PATH
};
template <typename V>
void DeclareOptions(V& v, AwsCliOptions& a) {
  v.Text("profile", a.profile,
         {.help = "AWS CLI profile (default: its usual chain: environment, SSO, instance role)",
          .metavar = "NAME"});
  v.Text("endpoint-url", a.endpoint_url,
         {.help = "Endpoint for every AWS call instead of AWS's (a local fake, a VPC endpoint)",
          .metavar = "URL"});
  v.Text("aws-cli", a.program, {.help = "The AWS CLI program", .metavar = "PROGRAM"});
}

// `account scan`'s options (the front end runs the AWS CLI: the user's profiles, SSO and roles).
struct AccountScanArgs {
  std::vector<std::string> regions;  // empty: the regions of the AWS configuration
  AwsCliOptions aws_cli;             // how the AWS CLI is run
  std::string out;                   // "" = the user's account scan file
  double timeout_s = 120;            // per AWS CLI call
  // Spot placement scores to ask for: "TYPE" or "TYPE:COUNT" (COUNT instances, default 1), one
  // get-spot-placement-scores call each for all the scanned regions (ParseSpotScoreRequests).
  std::vector<std::string> spot_scores;
  bool spot_scores_per_zone = false;  // score each availability zone instead of each region
};
template <typename V>
void DeclareOptions(V& v, AccountScanArgs& a) {
  v.List("regions", a.regions,
         {.help = "Regions to scan (default: the regions of your AWS config: AWS_REGION, "
                  "AWS_DEFAULT_REGION, `region` in ~/.aws/config)",
          .metavar = "LIST",
          .no_default = true});
  v.Nested(a.aws_cli);
  v.Text("out", a.out,
         {.help = "Scan file to write (default: $XDG_DATA_HOME/gpuadvisor/account.json, which "
                  "recommend then reads)",
          .metavar = "FILE",
          .nonempty = true});
  v.List("spot-scores", a.spot_scores,
         {.help = "Spot placement scores to read: instance types, each with the instance count to "
                  "score (p5.48xlarge:2,g6e.xlarge); at most 10, one call each",
          .metavar = "TYPE[:N],...",
          .no_default = true});
  v.Bool("spot-scores-per-zone", a.spot_scores_per_zone,
         {.help = "Score each availability zone (a single-zone fleet) instead of each region"});
  v.Duration("timeout", a.timeout_s,
             {.help = "Longest one AWS call may take", .lo = 1, .hi = 3600});
}

// `catalog build`.
struct CatalogBuildArgs {
  std::string manifest = "data/sources.json";
  std::string root;          // the manifest's file paths are relative to it
  std::string out;           // the catalog file written
  std::string generated_at;  // "" = now
};
template <typename V>
void DeclareOptions(V& v, CatalogBuildArgs& a) {
  v.Text("manifest", a.manifest, {.help = "Source manifest", .metavar = "FILE"});
  v.Text("root", a.root,
         {.help = "Directory the manifest's file paths are relative to (the sources' checkout)",
          .required = true,
          .metavar = "DIR"});
  v.Text("out", a.out, CatalogOutInfo("Catalog file to write (atomically)"));
  v.Text("generated-at", a.generated_at, GeneratedAtInfo());
}

// `catalog upgrade`: a catalog file rewritten in the current schema.
struct CatalogUpgradeArgs {
  std::string catalog;
  std::string out;
};
template <typename V>
void DeclareOptions(V& v, CatalogUpgradeArgs& a) {
  v.Text("catalog", a.catalog,
         {.help = "Catalog file to read", .required = true, .metavar = "FILE"});
  v.Text("out", a.out, CatalogOutInfo("Catalog file to write (atomically; may be the same)"));
}

// `catalog import`: the inputs, the catalog file written and what it records.
struct CatalogImportArgs {
  ImportInputs inputs;
  std::string out;
  std::string generated_at;  // "" = now
  bool no_progress = false;
};
template <typename V>
void DeclareOptions(V& v, CatalogImportArgs& a) {
  v.Nested(a.inputs);
  v.Text("out", a.out, CatalogOutInfo("Catalog file to write (atomically)"));
  v.Text("generated-at", a.generated_at, GeneratedAtInfo());
  v.Bool("no-progress", a.no_progress, {.help = "No progress bar (it is shown on a TTY only)"});
}

// `catalog diff OLD NEW`: two catalog files ("embedded" = the embedded catalog).
struct CatalogDiffArgs {
  std::string old_catalog;
  std::string new_catalog;
};
template <typename V>
void DeclareOptions(V& v, CatalogDiffArgs& a) {
  auto file = [](std::string_view help) {
    return FieldInfo{.help = help, .positional = true, .required = true, .metavar = "FILE"};
  };
  v.Text("old", a.old_catalog, file("Old catalog file (or \"embedded\")"));
  v.Text("new", a.new_catalog, file("New catalog file (or \"embedded\")"));
}

// `catalog update`'s options.
struct CatalogUpdateArgs {
  // Region codes, or "all"; empty: the regions of the user's AWS configuration (the front end
  // reads it).
  std::vector<std::string> regions;
  std::string endpoint;     // one base URL replacing both AWS hosts (tests, mirrors); "" = AWS
  std::string out;          // "" = the user catalog
  double timeout_s = 1800;  // per download, whole operation
  int retries = 3;          // per download, after the first attempt
  double total_timeout_s = 7200;  // the whole run
  bool no_progress = false;
  // Read the AWS APIs with the user's credentials through the AWS CLI (see the top of the file).
  bool aws = false;
  AwsCliOptions aws_cli;  // how the AWS CLI is run (only with `aws`)
};
template <typename V>
void DeclareOptions(V& v, CatalogUpdateArgs& a) {
  v.List("regions", a.regions,
         {.help = "Regions to refresh, or \"all\" (default: the regions of your AWS config: "
                  "AWS_REGION, AWS_DEFAULT_REGION, `region` in ~/.aws/config)",
          .metavar = "LIST",
          .no_default = true});
  v.Text("endpoint", a.endpoint,
         {.help = "Base URL serving AWS's paths instead of AWS (a mirror; http or https)",
          .metavar = "URL"});
  v.Text("out", a.out,
         {.help = "Catalog file to write (default: the user catalog, "
                  "$XDG_DATA_HOME/gpuadvisor/catalog.json)",
          .metavar = "FILE",
          .nonempty = true});
  v.Duration("timeout", a.timeout_s,
             {.help = "Longest one download may take (90s, 30m)", .lo = 1, .hi = 86400});
  v.Duration("total-timeout", a.total_timeout_s,
             {.help = "Longest the whole update may take; what is left is named as not tried "
                      "(2h, 30m)",
              .lo = 1,
              .hi = 7 * 86400});
  v.Integer("retries", a.retries,
            {.help = "Retries per download on throttling (429), 5xx or a lost connection",
             .lo = 0,
             .hi = 10});
  v.Bool("no-progress", a.no_progress, {.help = "No progress bar (it is shown on a TTY only)"});
  v.Bool("aws", a.aws,
         {.help = "Also read with your AWS credentials, through the AWS CLI: the Price List "
                  "Query API, spot price history per zone, Reserved Instance and Capacity Block "
                  "offerings, Savings Plans rates"});
  v.Nested(a.aws_cli);  // with --aws only
}

// `simulate`: where the load comes from (a trace file or a generated daily pattern), the fleet's
// instance type and capacity, its policy, and what the search may change.
struct SimulateArgs {
  std::string trace;    // request-rate trace CSV
  std::string diurnal;  // PEAK[,TROUGH] req/s, instead of a trace
  double days = 7;      // of the generated pattern
  double step_s = 300;  // of the generated pattern
  std::string instance;
  std::string region = "us-east-1";
  std::optional<double> capacity_rps;  // per instance; none: estimated from the workload
  ScalingPolicy policy;
  bool allow_spot = false;
  double max_missed_pct = 0;  // PolicySearch::max_violation_fraction, in percent
  bool no_search = false;
  uint64_t seed = 1;
  std::string plot;  // SVG file to write ("" = none)
};

template <typename V>
void DeclareOptions(V& v, SimulateArgs& a) {
  v.Text("trace", a.trace,
         {.help = "Request-rate trace CSV: timestamp,requests_per_s", .metavar = "FILE"});
  v.Text("diurnal", a.diurnal,
         {.help = "Generate a daily pattern instead: PEAK[,TROUGH] req/s, each 0 to 1e9 (trough "
                  "default peak/5)",
          .metavar = "PEAK[,TROUGH]"});
  v.Number("days", a.days, {.help = "Days of the generated pattern", .lo = 0, .hi = kMaxTraceDays});
  v.Duration("step", a.step_s, {.help = "Step of the generated pattern", .lo = 1, .hi = 86400});
  v.Text("instance", a.instance,
         {.help = "Serving instance type, e.g. g6e.xlarge", .required = true, .metavar = "TYPE"});
  v.Text("region", a.region, {.help = "Region for prices", .metavar = "REGION"});
  v.Number("capacity-rps", a.capacity_rps,
           {.help = "Requests/s one instance serves, over 0 (default: estimated from the workload "
                    "flags)",
            .unit = "req/s",
            .lo = 0,
            .hi = kMaxTraceRps});
  v.Nested(a.policy);
  v.Bool("allow-spot", a.allow_spot, {.help = "Let the policy search use spot"});
  v.Number("max-missed", a.max_missed_pct,
           {.help = "SLO: percentage of requests that may miss the latency target",
            .unit = "%",
            .lo = 0,
            .hi = 100});
  v.Bool("no-search", a.no_search, {.help = "Simulate the given policy only"});
  v.Integer("seed", a.seed, {.help = "Random seed for spot interruptions", .lo = 0, .hi = 1e15});
  v.Text("plot", a.plot,
         {.help = "Write an SVG chart of load, capacity and cost",
          .metavar = "FILE",
          .nonempty = true});
}

// `watch`: the decision's options and the agent's own (sampling, the action's endpoints).
struct WatchArgs {
  double interval_s = 60;
  WatchOptions options;
  std::string keep_alive_file = "/etc/gpuadvisor/keep-alive";  // "" = none
  std::string log;                                             // "" = stderr only
  std::string imds_endpoint;  // "" = the front end's default (its environment, else IMDS)
  std::string aws_endpoint_url;
  std::string region;
  std::string nvidia_smi = "nvidia-smi";
  int64_t max_samples = 0;  // 0 = forever
  double sample_timeout_s = 20;
};

template <typename V>
void DeclareOptions(V& v, WatchArgs& a) {
  v.Duration("interval", a.interval_s, {.help = "Sampling interval", .lo = 0.01, .hi = 86400});
  v.Nested(a.options);
  v.Text("keep-alive-file", a.keep_alive_file,
         {.help = "While this file exists nothing happens", .metavar = "FILE"});
  v.Text(
      "log", a.log,
      {.help = "Also append the decision log to this file", .metavar = "FILE", .nonempty = true});
  v.Text("imds-endpoint", a.imds_endpoint,
         {.help = "Instance metadata endpoint (default http://169.254.169.254, env "
                  "GPUADVISOR_IMDS_ENDPOINT)",
          .metavar = "URL"});
  v.Text("aws-endpoint-url", a.aws_endpoint_url,
         {.help = "Passed to aws --endpoint-url", .metavar = "URL"});
  v.Text("region", a.region, {.help = "Passed to aws --region", .metavar = "REGION"});
  v.Text("nvidia-smi", a.nvidia_smi,
         {.help = "nvidia-smi program, looked up on PATH (run with its arguments, no shell)",
          .metavar = "PROGRAM"});
  v.Integer("max-samples", a.max_samples,
            {.help = "Stop after N samples (0: run forever)", .lo = 0, .hi = 1e9});
  v.Duration("sample-timeout", a.sample_timeout_s,
             {.help = "Kill nvidia-smi after this long and log no-data", .lo = 0.01, .hi = 3600});
}

}  // namespace gpuadvisor

#endif  // GPUADVISOR_APP_COMMAND_ARGS_H_
