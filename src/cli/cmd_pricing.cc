// `gpuadvisor pricing TYPE`: every purchase option for a usage pattern, with break-even.
#include <cstdio>

#include "cli/common.h"
#include "gpuadvisor/cost.h"
#include "gpuadvisor/query.h"
#include "io/pricing_views.h"
#include "util/numbers.h"
#include "util/strings.h"

namespace gpuadvisor::cli {
namespace {

struct PricingOptions {
  CommonOptions common;
  std::string type;
  std::string region = "us-east-1";
  std::string hours_per_month = "730", months = "1", count = "1";
  bool interruptible = false;
  std::string checkpoint_interval, checkpoint_gib, storage_gbps, restart;
};

Status ParseUsage(const PricingOptions& o, UsagePattern* u) {
  double count = 1;
  GPUADVISOR_RETURN_IF_ERROR(
      ParseOptNumber(o.hours_per_month, "--hours-per-month", &u->hours_per_month));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.months, "--months", &u->months));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.count, "--count", &count));
  if (count != static_cast<int>(count) || count < 1 || count > 100000) {
    return Status::InvalidArgument("--count: expected a whole number of instances, 1 to 100000");
  }
  u->instances = static_cast<int>(count);
  u->interruptible = o.interruptible;
  GPUADVISOR_RETURN_IF_ERROR(
      ParseOptDuration(o.checkpoint_interval, "--checkpoint-interval", &u->checkpoint_interval_s));
  GPUADVISOR_RETURN_IF_ERROR(
      ParseOptNumber(o.checkpoint_gib, "--checkpoint-gib", &u->checkpoint_gib));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.storage_gbps, "--storage-gbps", &u->storage_gbps));
  GPUADVISOR_RETURN_IF_ERROR(ParseOptDuration(o.restart, "--restart", &u->restart_s));
  return Status::OK();
}

void PrintNotes(const PricingResult& r) {
  std::string out;
  if (r.cheapest >= 0) {
    out += "\n* cheapest suitable option for " + FormatFixed(r.usage.hours_per_month, 0) +
           " h/month over " + FormatFixed(r.usage.months, 1) + " month(s)\n";
  }
  const std::string unpriced = PricingUnpricedLine(r);
  if (!unpriced.empty()) {
    out += "note: " + unpriced + " (import an AWS price list with `catalog import`)\n";
  }
  for (const std::string& n : r.notes) out += "note: " + n + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

int Run(const PricingOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<const InstanceType*> t = ResolveInstanceType(*ctx->catalog, o.type);
  if (!t.ok()) return Fail(t.status());
  Status region = CheckRegion(*ctx->catalog, o.region, "--region");
  if (!region.ok()) return Fail(region);
  UsagePattern u;
  Status parsed = ParseUsage(o, &u);
  if (!parsed.ok()) return Fail(parsed);
  Result<PricingResult> r = PriceUsage(**t, o.region, u);
  if (!r.ok())
    return Fail(r.status().code() == StatusCode::kNotFound ? Status::NoResult(r.status().message())
                                                           : r.status());
  std::vector<std::string> warnings;
  for (const PurchaseOptionCost& c : r->options) {
    if (!c.priced || !ctx->fresh.Stale(c.from.date)) continue;
    const std::optional<int> age = ctx->fresh.AgeDays(c.from.date);
    warnings.push_back(c.option + " price from " + c.from.source +
                       (age ? " is " + std::to_string(*age) + " days old (over " +
                                  std::to_string(ctx->fresh.max_price_age_days) + ")"
                            : " is undated"));
  }
  Emit(
      *ctx, [&] { return PricingJson(*r, ctx->fresh); }, [&] { return PricingTable(*r); },
      warnings);
  if (ctx->format == OutputFormat::kTable) PrintNotes(*r);
  return kExitOk;
}

}  // namespace

void SetupPricing(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<PricingOptions>();
  AddCommonOptions(app, &o->common);
  app->add_option("type", o->type, "Instance type, e.g. p5.48xlarge")->required();
  app->add_option("--region", o->region, "Region (default us-east-1)");
  app->add_option("--hours-per-month", o->hours_per_month,
                  "Hours the instances run per month, up to 730 (default 730: always on)");
  app->add_option("--months", o->months, "How many months the usage lasts (default 1)");
  app->add_option("--count", o->count, "Instances used together (default 1)");
  app->add_flag("--interruptible", o->interruptible, "The job checkpoints and can run on spot");
  app->add_option("--checkpoint-interval", o->checkpoint_interval,
                  "Checkpoint every DUR (default: the Young/Daly optimum)");
  app->add_option("--checkpoint-gib", o->checkpoint_gib, "Checkpoint size per instance, GiB");
  app->add_option("--storage-gbps", o->storage_gbps,
                  "Checkpoint storage GB/s per instance (default: EBS, at most 1 GB/s)");
  app->add_option("--restart", o->restart,
                  "Relaunch and warm-up after an interruption (default 10m)");
  app->footer(
      R"(Reserved and savings-plan rows are amortised over their term; break-even use is the share of
hours a commitment must be used to cost what on-demand costs. Spot includes the expected extra time
of interruptions (spot-advisor band), checkpoint writes, restores and lost work.

Examples:
  gpuadvisor pricing p5.48xlarge --hours-per-month 300 --months 12
  gpuadvisor pricing g6e.12xlarge --region eu-west-1 --interruptible --checkpoint-gib 40
  gpuadvisor pricing p4d.24xlarge --count 4 --months 2 --interruptible --checkpoint-interval 30m --json)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
