// `gpuadvisor catalog import` (refresh from AWS data formats) and `catalog diff OLD NEW`.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "app/command_args.h"
#include "app/views.h"
#include "cli/common.h"
#include "cli/progress.h"
#include "gpuadvisor/catalog_import.h"
#include "gpuadvisor/query.h"
#include "util/files.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

struct ImportOptions {
  CommonOptions common;
  TableOptions table;  // "catalog import"
};

int RunImport(const ImportOptions& o) {
  Result<OptionValues> v = o.table.Values();
  if (!v.ok()) return Fail(v.status());
  CatalogImportArgs a;
  if (Status st = SetFromOptions(*v, &a); !st.ok()) return Fail(st);
  ImportInputs& in = a.inputs;
  const std::vector<std::string>* lists[] = {
      &in.price_list,         &in.savings_plans,  &in.instance_types,   &in.offerings,
      &in.spot_advisor,       &in.spot_history,   &in.price_list_query, &in.reserved_offerings,
      &in.savings_plan_rates, &in.capacity_blocks};
  if (std::all_of(std::begin(lists), std::end(lists), [](auto* l) { return l->empty(); })) {
    return Fail(Status::InvalidArgument(
        "catalog import: expected at least one input (--price-list, --savings-plans, "
        "--instance-types, --offerings, --spot-advisor, --spot-history, --price-list-query, "
        "--reserved-offerings, --savings-plan-rates or --capacity-blocks)"));
  }
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  if (in.snapshot_date.empty()) in.snapshot_date = TodayUtc();
  const bool tty = !a.no_progress && ::isatty(STDERR_FILENO);
  ProgressBar bar(tty);
  if (tty) {
    in.progress = [&bar](const std::string& p, int64_t done, int64_t total) {
      bar.Update(p, done, total);
    };
  }
  const Catalog& before = *ctx->catalog;
  Catalog after = before;
  ImportReport report;
  Status st = ImportIntoCatalog(&after, in, &report);
  bar.Clear();
  if (!st.ok()) return Fail(st);
  const std::string& out = a.out;
  after.generated_at = a.generated_at.empty() ? NowUtcIso() : a.generated_at;
  after.generator = "gpuadvisor catalog import";
  // The file written must be one every command accepts: parse it back before replacing PATH.
  std::string json = CatalogToJson(after);
  Result<Catalog> check = ParseCatalogJson(json, out);
  if (!check.ok()) return Fail(check.status().WithPrefix("internal error: the imported catalog"));
  st = WriteFileAtomic(out, json);
  if (!st.ok()) return Fail(st);
  CatalogDiff diff = DiffCatalogs(before, after);
  if (ctx->format == OutputFormat::kJson) {
    std::string s = ImportReportJson(report, diff, out).Text(2) + "\n";
    std::fwrite(s.data(), 1, s.size(), stdout);
    return kExitOk;
  }
  std::string s = ImportInputsTable(report).Render(ctx->format, ctx->color);
  if (ctx->format == OutputFormat::kTable) {
    s += "\n" + ImportSummaryText(report, diff, out);
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
  TableOptions table;  // "catalog diff"
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
  Result<OptionValues> v = o.table.Values();
  if (!v.ok()) return Fail(v.status());
  CatalogDiffArgs args;
  if (Status st = SetFromOptions(*v, &args); !st.ok()) return Fail(st);
  Result<Catalog> a = LoadNamed(args.old_catalog);
  if (!a.ok()) return Fail(a.status());
  Result<Catalog> b = LoadNamed(args.new_catalog);
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
  o->table.Add(app, "catalog import");
  app->footer(R"(Examples:
  gpuadvisor catalog import --price-list index.csv.gz --out my-catalog.json
  curl -s https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.csv \
    | gpuadvisor catalog import --price-list - --out my-catalog.json
  gpuadvisor show p5.48xlarge --catalog my-catalog.json)");
  app->callback([o, exit_code] { *exit_code = RunImport(*o); });

  CLI::App* diff = catalog->add_subcommand("diff", "Price changes and added/removed types");
  auto d = std::make_shared<DiffOptions>();
  AddCommonOptions(diff, &d->common);
  d->table.Add(diff, "catalog diff");
  diff->footer(
      "Examples:\n  gpuadvisor catalog diff embedded my-catalog.json\n"
      "  gpuadvisor catalog diff old.json new.json --json");
  diff->callback([d, exit_code] { *exit_code = RunDiff(*d); });
}

}  // namespace gpuadvisor::cli
