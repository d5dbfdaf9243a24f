// `gpuadvisor catalog import` (refresh from AWS data formats) and `catalog diff OLD NEW`.
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "cli/common.h"
#include "cli/progress.h"
#include "gpuadvisor/catalog_import.h"
#include "gpuadvisor/files.h"
#include "gpuadvisor/query.h"
#include "gpuadvisor/text.h"
#include "gpuadvisor/views.h"

namespace gpuadvisor::cli {
namespace {

struct ImportOptions {
  CommonOptions common;
  ImportInputs inputs;
  std::string out;
  std::string generated_at;
  bool no_progress = false;
};

int RunImport(ImportOptions o) {
  const ImportInputs& in = o.inputs;
  if (in.price_list.empty() && in.savings_plans.empty() && in.instance_types.empty() &&
      in.offerings.empty() && in.spot_advisor.empty() && in.spot_history.empty()) {
    return Fail(Status::InvalidArgument(
        "catalog import: expected at least one input (--price-list, --savings-plans, "
        "--instance-types, --offerings, --spot-advisor or --spot-history)"));
  }
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  if (o.inputs.snapshot_date.empty()) o.inputs.snapshot_date = TodayUtc();
  const bool tty = !o.no_progress && ::isatty(STDERR_FILENO);
  ProgressBar bar(tty);
  if (tty) {
    o.inputs.progress = [&bar](const std::string& p, int64_t done, int64_t total) {
      bar.Update(p, done, total);
    };
  }
  const Catalog& before = *ctx->catalog;
  Catalog after = before;
  ImportReport report;
  Status st = ImportIntoCatalog(&after, o.inputs, &report);
  bar.Clear();
  if (!st.ok()) return Fail(st);
  after.generated_at = o.generated_at.empty() ? NowUtcIso() : o.generated_at;
  after.generator = "gpuadvisor catalog import";
  // The file written must be one every command accepts: parse it back before replacing PATH.
  std::string json = CatalogToJson(after);
  Result<Catalog> check = ParseCatalogJson(json, o.out);
  if (!check.ok()) return Fail(check.status().WithPrefix("internal error: the imported catalog"));
  st = WriteFileAtomic(o.out, json);
  if (!st.ok()) return Fail(st);
  CatalogDiff diff = DiffCatalogs(before, after);
  if (ctx->format == OutputFormat::kJson) {
    std::string s = ImportReportJson(report, diff, o.out).Text(2) + "\n";
    std::fwrite(s.data(), 1, s.size(), stdout);
    return kExitOk;
  }
  std::string s = ImportInputsTable(report).Render(ctx->format, ctx->color);
  if (ctx->format == OutputFormat::kTable) {
    s += "\n" + ImportSummaryText(report, diff, o.out);
    if (!diff.price_changes.empty() || !diff.added_types.empty()) {
      s += "\n" + CatalogDiffTable(diff, 10).Render(ctx->format, ctx->color);
    }
    for (const std::string& n : report.notes) s += "note: " + TerminalSafe(n) + "\n";
  }
  std::fwrite(s.data(), 1, s.size(), stdout);
  if (!report.unknown_types.empty()) {
    std::string names;
    for (const std::string& n : report.unknown_types) names += (names.empty() ? "" : ", ") + n;
    Warn("priced but not in the catalog (import DescribeInstanceTypes to add them): " + names);
  }
  return kExitOk;
}

struct DiffOptions {
  CommonOptions common;
  std::string old_path, new_path;
};

Result<Catalog> LoadNamed(const std::string& path) {
  if (path == "embedded") {
    Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
    if (!c.ok()) return c.status();
    return **c;
  }
  return LoadCatalogFile(path);
}

int RunDiff(const DiffOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<Catalog> a = LoadNamed(o.old_path);
  if (!a.ok()) return Fail(a.status());
  Result<Catalog> b = LoadNamed(o.new_path);
  if (!b.ok()) return Fail(b.status());
  CatalogDiff d = DiffCatalogs(*a, *b);
  Emit(*ctx, [&] { return CatalogDiffJson(d); }, [&] { return CatalogDiffTable(d); });
  return kExitOk;
}

}  // namespace

void SetupCatalogImport(CLI::App* catalog, int* exit_code) {
  CLI::App* app = catalog->add_subcommand(
      "import", "Refresh a catalog from AWS data: price list, savings plans, EC2 API, spot feeds");
  auto o = std::make_shared<ImportOptions>();
  AddCommonOptions(app, &o->common);
  app->add_option("--price-list", o->inputs.price_list,
                  "AWS Price List EC2 offer file, CSV or JSON (gzip ok; - = stdin)");
  app->add_option("--savings-plans", o->inputs.savings_plans,
                  "Savings Plans regional rate file (CSV)");
  app->add_option("--instance-types", o->inputs.instance_types,
                  "aws ec2 describe-instance-types output (JSON)");
  app->add_option("--offerings", o->inputs.offerings,
                  "aws ec2 describe-instance-type-offerings output (JSON)");
  app->add_option("--spot-advisor", o->inputs.spot_advisor, "spot-advisor-data.json feed");
  app->add_option("--spot-history", o->inputs.spot_history,
                  "aws ec2 describe-spot-price-history output (JSON)");
  app->add_option("--out", o->out, "Catalog file to write (atomically)")->required();
  app->add_option("--snapshot-date", o->inputs.snapshot_date,
                  "Date recorded for inputs that carry none (default today, UTC)");
  app->add_option("--generated-at", o->generated_at, "Build timestamp to record (default now)");
  app->add_flag("--no-progress", o->no_progress, "No progress bar (it is shown on a TTY only)");
  app->footer(R"(Examples:
  gpuadvisor catalog import --price-list index.csv.gz --out my-catalog.json
  curl -s https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.csv \
    | gpuadvisor catalog import --price-list - --out my-catalog.json
  gpuadvisor show p5.48xlarge --catalog my-catalog.json)");
  app->callback([o, exit_code] { *exit_code = RunImport(*o); });

  CLI::App* diff = catalog->add_subcommand("diff", "Price changes and added/removed types");
  auto d = std::make_shared<DiffOptions>();
  AddCommonOptions(diff, &d->common);
  diff->add_option("old", d->old_path, "Old catalog file (or \"embedded\")")->required();
  diff->add_option("new", d->new_path, "New catalog file (or \"embedded\")")->required();
  diff->footer(
      "Examples:\n  gpuadvisor catalog diff embedded my-catalog.json\n"
      "  gpuadvisor catalog diff old.json new.json --json");
  diff->callback([d, exit_code] { *exit_code = RunDiff(*d); });
}

}  // namespace gpuadvisor::cli
