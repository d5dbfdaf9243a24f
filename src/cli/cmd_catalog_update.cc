// `gpuadvisor catalog update`: the user catalog made current from AWS's public price list and
// spot feed, or with --aws from the AWS APIs (gpuadvisor/catalog_update.h). This front end reads
// what the library may not: the AWS config's regions, the proxy variables, the XDG data
// directory, the clock; and it runs the AWS CLI for the library's calls (cli/aws_cli.h).
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "app/command_args.h"
#include "app/views.h"
#include "cli/aws_cli.h"
#include "cli/common.h"
#include "cli/progress.h"
#include "gpuadvisor/catalog_import.h"
#include "gpuadvisor/catalog_update.h"
#include "gpuadvisor/query.h"
#include "util/files.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

struct UpdateOptions {
  CommonOptions common;
  TableOptions table;  // "catalog update"
};

// The validators file beside catalog PATH: "DIR/NAME.update-cache.json" for "DIR/NAME.json".
std::string CachePath(const std::string& out) {
  std::string base = out;
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0)
    base.resize(base.size() - 5);
  return base + ".update-cache.json";
}

UpdateCache LoadCache(const std::string& path) {
  if (::access(path.c_str(), F_OK) != 0) return {};
  Result<std::string> text = ReadFile(path, kCatalogFile);
  Result<UpdateCache> c =
      text.ok() ? ParseUpdateCache(*text, path) : Result<UpdateCache>(text.status());
  if (!c.ok()) {
    Warn("ignoring the download cache (every file is fetched again): " + c.status().message());
    return {};
  }
  return *c;
}

// The catalog to update: --catalog when given, else OUT when it exists (a damaged one is
// replaced, with a warning), else the embedded one.
Result<Catalog> BaseCatalog(const std::string& catalog_option, const std::string& out) {
  if (!catalog_option.empty() && catalog_option != "embedded") {
    Result<Catalog> c = LoadCatalogFile(catalog_option);
    if (!c.ok()) return c.status().WithPrefix("catalog").WithField("catalog");
    return c;
  }
  if (catalog_option.empty() && ::access(out.c_str(), F_OK) == 0) {
    Result<Catalog> c = LoadCatalogFile(out);
    if (c.ok()) return c;
    Warn("starting again from the embedded catalog: " + c.status().message());
  }
  Result<std::shared_ptr<const Catalog>> e = EmbeddedCatalog();
  if (!e.ok()) return e.status();
  return **e;
}

// The options that mean something only with --aws; InvalidArgument naming the first one given
// without it.
Status CheckAwsOptions(const OptionValues& v, const CatalogUpdateArgs& a) {
  if (a.aws) return Status::OK();
  for (const char* name : {"profile", "endpoint-url", "aws-cli"}) {
    if (v.Given(name)) {
      return Status::InvalidArgument(std::string(name) +
                                     ": only with --aws (it says how to run the AWS CLI)")
          .WithField(name);
    }
  }
  return Status::OK();
}

// The settings from the options and the environment; InvalidArgument naming --regions when no
// region is known. With --aws, each AWS call runs the AWS CLI, --timeout being its limit.
Result<UpdateSettings> Settings(const CatalogUpdateArgs& a) {
  UpdateSettings s;
  Result<std::vector<std::string>> regions =
      RegionsGivenOrConfigured(a.regions, "us-east-1,eu-west-1, or --regions all");
  if (!regions.ok()) return regions.status();
  s.regions = std::move(*regions);
  s.all_regions = s.regions.size() == 1 && s.regions[0] == "all";
  if (!a.endpoint.empty()) s.pricing_base = s.pricing_base_cn = s.spot_base = a.endpoint;
  s.https_proxy = FirstEnv({"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"});
  s.http_proxy = FirstEnv({"http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"});
  s.no_proxy = FirstEnv({"no_proxy", "NO_PROXY"});
  s.timeout_s = a.timeout_s;
  s.total_timeout_s = a.total_timeout_s;
  s.retries = a.retries;
  s.today = TodayFromEnvironment();
  if (a.aws) {
    s.aws = [cli = AwsCli(AwsCliSettings{.options = a.aws_cli, .timeout_s = a.timeout_s})](
                const AwsCall& call) { return cli.Call(call.region, call.args, call.timeout_s); };
    s.now = NowUtcIso();
  }
  return s;
}

// Writes the catalog (parsed back first: it must load) and then its validators.
Status WriteUpdated(Catalog* c, UpdateCache* cache, const std::string& out,
                    const std::string& cache_path) {
  c->generated_at = NowUtcIso();
  c->generator = "gpuadvisor catalog update";
  const std::string json = CatalogToJson(*c);
  Result<Catalog> check = ParseCatalogJson(json, out);
  if (!check.ok()) return check.status().WithPrefix("internal error: the updated catalog");
  GPUADVISOR_RETURN_IF_ERROR(WriteFileAtomic(out, json, {.kind = &kCatalogFile}));
  cache->catalog_generated_at = c->generated_at;
  return WriteFileAtomic(cache_path, UpdateCacheToJson(*cache));
}

int RunUpdate(const UpdateOptions& o) {
  Result<Context> ctx = MakeContext(o.common, /*load_catalog=*/false);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> v = o.table.Values();
  if (!v.ok()) return Fail(v.status());
  CatalogUpdateArgs a;
  if (Status st = SetFromOptions(*v, &a); !st.ok()) return Fail(st);
  if (Status st = CheckAwsOptions(*v, a); !st.ok()) return Fail(st);
  Result<UpdateSettings> settings = Settings(a);
  if (!settings.ok()) return Fail(settings.status());
  const std::string out = a.out.empty() ? UserCatalogPath() : a.out;
  if (out.empty()) {
    return Fail(
        Status::InvalidArgument("out: no user catalog path (neither XDG_DATA_HOME nor HOME is set)")
            .WithField("out"));
  }
  if (a.out.empty()) {
    if (Status st = MakeParentDirectories(out); !st.ok()) return Fail(st);
  }
  Result<Catalog> base = BaseCatalog(ctx->catalog_option, out);
  if (!base.ok()) return Fail(base.status());
  const std::string cache_path = CachePath(out);
  UpdateCache cache = LoadCache(cache_path);
  const bool tty = !a.no_progress && ::isatty(STDERR_FILENO);
  ProgressBar bar(tty);
  if (tty) {
    settings->progress = [&bar](const std::string& what, int64_t done, int64_t total) {
      bar.Update(what, done, total);
    };
  }
  Catalog after = *base;
  CatalogUpdateReport report;
  Status st = UpdateCatalog(&after, *settings, &cache, &report);
  bar.Clear();
  if (!st.ok()) return Fail(st);
  // Written when something new was merged, or when OUT is not yet the catalog updated.
  const bool write = report.changed || (!ctx->catalog_option.empty() && ctx->catalog_option != out);
  if (write) {
    if (Status w = WriteUpdated(&after, &cache, out, cache_path); !w.ok()) return Fail(w);
  }
  const CatalogDiff diff = DiffCatalogs(*base, after);
  std::string text;
  if (ctx->format == OutputFormat::kJson) {
    text = UpdateReportJson(report, diff, out, write, cache_path).Text(2) + "\n";
  } else {
    text = UpdateOutcomesTable(report).Render(ctx->format, ctx->color);
    if (ctx->format == OutputFormat::kTable) {
      text += "\n" + TerminalSafe(UpdateSummaryText(report, diff, out, write), true);
    }
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (!report.unknown_types.empty()) {
    std::string names;
    for (const std::string& n : report.unknown_types) names += (names.empty() ? "" : ", ") + n;
    Warn("priced but not in the catalog (import DescribeInstanceTypes to add them): " + names);
  }
  if (report.failed.empty()) return kExitOk;
  // A partial update is not a success: the failed parts keep their previous prices.
  std::string failed;
  for (const UpdateOutcome& x : report.outcomes) {
    if (x.result != "failed") continue;
    failed += (failed.empty() ? "" : "; ") + x.what + ": " + x.error;
  }
  std::cerr << "gpuadvisor: catalog update: " << report.failed.size() << " of "
            << report.outcomes.size() << (a.aws ? " downloads and AWS calls" : " downloads")
            << " failed and keep their previous prices (" << TerminalSafe(failed) << ")\n";
  return kExitIoError;
}

}  // namespace

void SetupCatalogUpdate(CLI::App* catalog, int* exit_code) {
  CLI::App* app = catalog->add_subcommand(
      "update",
      "Make the catalog current from AWS's public price list and spot feed (--aws: its APIs)");
  auto o = std::make_shared<UpdateOptions>();
  AddCommonOptions(app, &o->common);
  o->table.Add(app, "catalog update");
  app->footer(R"(Every command then reads the updated user catalog (`--catalog embedded`, or
GPUADVISOR_CATALOG=embedded, for the built-in one). Downloads honour HTTPS_PROXY / NO_PROXY;
an unchanged file costs one request answered 304 (validators in catalog.update-cache.json).
With --endpoint URL the files are read from URL/offers/v1.0/aws/AmazonEC2/current/region_index.json,
URL/offers/v1.0/aws/AmazonEC2/current/REGION/index.csv and URL/spot-advisor-data.json.

With --aws each region is read from the AWS APIs instead, with your credentials: the AWS CLI
(`aws`, or --aws-cli) runs each call, so your profiles, SSO and instance roles apply and
gpuadvisor holds no secret. For the catalog's accelerator types, per region: pricing
get-products (on-demand and RI terms), ec2 describe-spot-price-history (the spot price in each
zone now), ec2 describe-reserved-instances-offerings, ec2 describe-capacity-block-offerings
(the soonest 24-hour block) and savingsplans describe-savings-plans-offering-rates. The
permissions are read-only: pricing:GetProducts, ec2:DescribeSpotPriceHistory,
ec2:DescribeReservedInstancesOfferings, ec2:DescribeCapacityBlockOfferings,
savingsplans:DescribeSavingsPlansOfferingRates. --timeout limits each call; a call that fails is
named and its part of the catalog keeps its prices (exit 3). The spot-advisor feed is still read.

Examples:
  gpuadvisor catalog update                       # the regions of ~/.aws/config
  gpuadvisor catalog update --regions us-east-1,eu-west-1
  gpuadvisor catalog update --regions all --json
  gpuadvisor catalog update --regions us-east-1 --endpoint http://mirror.internal:8080
  gpuadvisor catalog update --aws --regions us-east-1
  gpuadvisor catalog update --aws --profile prod  # the regions of ~/.aws/config
  gpuadvisor catalog info                         # which catalog is in use, how old)");
  app->callback([o, exit_code] { *exit_code = RunUpdate(*o); });
}

}  // namespace gpuadvisor::cli
