// `gpuadvisor pricing TYPE`: every purchase option for a usage pattern, with break-even.
#include <cstdio>

#include "app/requests.h"
#include "app/views.h"
#include "cli/common.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

struct PricingOptions {
  CommonOptions common;
  TableOptions table;
};

void PrintNotes(const PricingResult& r) {
  std::string out;
  if (r.cheapest >= 0) {
    out += "\n" +
           Trf("* cheapest suitable option for {0} h/month over {1} month(s)",
               FormatFixed(r.usage.hours_per_month, 0), FormatFixed(r.usage.months, 1)) +
           "\n";
  }
  const std::string unpriced = PricingUnpricedLine(r);
  if (!unpriced.empty()) {
    out +=
        Trf("note: {0}", unpriced + Tr(" (import an AWS price list with `catalog import`)")) + "\n";
  }
  for (const std::string& n : r.notes) out += Trf("note: {0}", n) + "\n";
  PrintText(out);
}

int Run(const PricingOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> values = o.table.Values();
  if (!values.ok()) return Fail(values.status());
  Result<PricingResult> r = PriceType(*ctx->catalog, *values);
  if (!r.ok()) return Fail(r.status());
  const std::vector<std::string> warnings = PricingWarnings(*r, ctx->fresh);
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
  o->table.Add(app, "pricing");
  app->footer(
      R"(Reserved and savings-plan rows are amortised over their term; break-even use is the share of
hours a commitment must be used to cost what on-demand costs. Spot includes the expected extra time
of interruptions (spot-advisor band), checkpoint writes, restores and lost work.

Examples:
  gpuadvisor pricing p5.48xlarge --hours-per-month 300 --months 12
  gpuadvisor pricing p5.48xlarge --hours 336 --count 4
  gpuadvisor pricing g6e.12xlarge --region eu-west-1 --interruptible --checkpoint-gib 40
  gpuadvisor pricing p4d.24xlarge --count 4 --months 2 --interruptible --checkpoint-interval 30m --json)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
