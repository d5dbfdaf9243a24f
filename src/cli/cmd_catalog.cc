// `gpuadvisor catalog info|build|upgrade` (import, diff and update have files of their own).
#include <ctime>
#include <iostream>

#include "app/command_args.h"
#include "cli/common.h"
#include "cli/progress.h"
#include "gpuadvisor/catalog_build.h"
#include "gpuadvisor/query.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

struct InfoOptions {
  CommonOptions common;
};

int RunInfo(const InfoOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  const Catalog& c = *ctx->catalog;
  // One stale-price line, before the output, counted per figure (the per-source staleness is
  // in the table).
  if (std::optional<std::string> stale = CatalogStaleWarning(c, ctx->fresh)) Warn(*stale);
  if (ctx->format == OutputFormat::kJson) {
    Emit(*ctx, [&] { return CatalogInfoJson(c, ctx->fresh, ctx->in_use); }, [] { return Table(); });
    return kExitOk;
  }
  // The catalog's own strings (a file given with --catalog) go through PrintText.
  if (ctx->format == OutputFormat::kTable) {
    PrintText(CatalogInUseLine(c, ctx->fresh, ctx->in_use) + CatalogInfoHead(c) +
              CatalogFigureAgesText(c, ctx->fresh));
  }
  const std::string table = CatalogInfoTable(c, ctx->fresh).Render(ctx->format, ctx->color);
  std::fwrite(table.data(), 1, table.size(), stdout);
  if (ctx->format == OutputFormat::kTable) PrintText(CatalogInfoNotes(c));
  return kExitOk;
}

// `catalog build` (CatalogBuildArgs, catalog_build.h).
int RunBuild(const TableOptions& o) {
  Result<OptionValues> v = o.Values();
  if (!v.ok()) return Fail(v.status());
  CatalogBuildArgs a;
  if (Status st = SetFromOptions(*v, &a); !st.ok()) return Fail(st);
  Result<std::vector<BuildInput>> inputs = LoadBuildManifest(a.manifest, a.root);
  if (!inputs.ok()) return Fail(inputs.status());
  Result<Catalog> c = BuildCatalog(*inputs, a.generated_at.empty() ? NowUtcIso() : a.generated_at);
  if (!c.ok()) return Fail(c.status());
  Status st = WriteCatalogFile(*c, a.out);
  if (!st.ok()) return Fail(st);
  size_t current = 0;
  for (const InstanceType& t : c->instance_types()) current += !t.retired;
  std::cerr << "gpuadvisor: wrote " << TerminalSafe(a.out) << ": " << c->instance_types().size()
            << " instance types (" << current << " current), " << c->gpus().size()
            << " accelerator models, " << c->regions().size() << " regions, "
            << c->corrections.size() << " corrections\n";
  return kExitOk;
}

// Rewrites a catalog file of any schema version this binary reads in the current one.
int RunUpgrade(const TableOptions& o) {
  Result<OptionValues> v = o.Values();
  if (!v.ok()) return Fail(v.status());
  CatalogUpgradeArgs a;
  if (Status st = SetFromOptions(*v, &a); !st.ok()) return Fail(st);
  Result<Catalog> c = LoadCatalogFile(a.catalog);
  if (!c.ok()) return Fail(c.status());
  Status st = WriteCatalogFile(*c, a.out);
  if (!st.ok()) return Fail(st);
  std::cerr << "gpuadvisor: wrote " << TerminalSafe(a.out) << ": " << kCatalogSchema << " (read "
            << TerminalSafe(c->schema) << ")\n";
  return kExitOk;
}

}  // namespace

void SetupCatalogImport(CLI::App* catalog, int* exit_code);  // cmd_catalog_import.cc
void SetupCatalogUpdate(CLI::App* catalog, int* exit_code);  // cmd_catalog_update.cc

void SetupCatalog(CLI::App* app, int* exit_code) {
  app->require_subcommand(1);
  CLI::App* info = app->add_subcommand("info", "Sources, snapshot dates, counts and staleness");
  auto io = std::make_shared<InfoOptions>();
  AddCommonOptions(info, &io->common);
  info->footer(
      "Examples:\n  gpuadvisor catalog info\n  gpuadvisor catalog info --max-price-age 365 --json\n"
      "  gpuadvisor catalog info --catalog embedded");
  info->callback([io, exit_code] { *exit_code = RunInfo(*io); });

  CLI::App* build = app->add_subcommand(
      "build", "Build a catalog file from the public-format sources listed in a manifest");
  auto bo = std::make_shared<TableOptions>();
  bo->Add(build, "catalog build");
  CLI::App* upgrade = app->add_subcommand(
      "upgrade", "Rewrite a catalog file in the current schema (older versions are read as-is)");
  auto uo = std::make_shared<TableOptions>();
  uo->Add(upgrade, "catalog upgrade");
  upgrade->footer("Example:\n  gpuadvisor catalog upgrade --catalog old.json --out old.json");
  upgrade->callback([uo, exit_code] { *exit_code = RunUpgrade(*uo); });

  build->footer(
      "Example (regenerates the embedded catalog):\n"
      "  gpuadvisor catalog build --manifest data/sources.json --root SOURCES_DIR --out "
      "data/catalog.json");
  build->callback([bo, exit_code] { *exit_code = RunBuild(*bo); });
  SetupCatalogImport(app, exit_code);
  SetupCatalogUpdate(app, exit_code);
}

}  // namespace gpuadvisor::cli
