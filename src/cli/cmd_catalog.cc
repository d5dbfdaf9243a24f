// `gpuadvisor catalog info|build`.
#include <ctime>
#include <iostream>

#include "cli/common.h"
#include "cli/progress.h"
#include "gpuadvisor/catalog_build.h"
#include "gpuadvisor/text.h"

namespace gpuadvisor::cli {
namespace {

struct InfoOptions {
  CommonOptions common;
};

int RunInfo(const InfoOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  const Catalog& c = *ctx->catalog;
  // One stale-price line, before the output (the per-source staleness is in the table).
  if (std::optional<std::string> stale = CatalogStaleWarning(c, ctx->fresh)) Warn(*stale);
  if (ctx->format == OutputFormat::kJson) {
    Emit(*ctx, [&] { return CatalogInfoJson(c, ctx->fresh); }, [] { return Table(); });
    return kExitOk;
  }
  // The catalog's own strings (a file given with --catalog) go through PrintText.
  if (ctx->format == OutputFormat::kTable) PrintText(CatalogInfoHead(c));
  const std::string table = CatalogInfoTable(c, ctx->fresh).Render(ctx->format, ctx->color);
  std::fwrite(table.data(), 1, table.size(), stdout);
  if (ctx->format == OutputFormat::kTable) PrintText(CatalogInfoNotes(c));
  return kExitOk;
}

struct BuildOptions {
  std::string manifest = "data/sources.json";
  std::string root = "../shared/data";
  std::string out;
  std::string generated_at;
};

int RunBuild(const BuildOptions& o) {
  Result<std::vector<BuildInput>> inputs = LoadBuildManifest(o.manifest, o.root);
  if (!inputs.ok()) return Fail(inputs.status());
  Result<Catalog> c = BuildCatalog(*inputs, o.generated_at.empty() ? NowUtcIso() : o.generated_at);
  if (!c.ok()) return Fail(c.status());
  Status st = WriteCatalogFile(*c, o.out);
  if (!st.ok()) return Fail(st);
  size_t current = 0;
  for (const InstanceType& t : c->instance_types()) current += !t.retired;
  std::cerr << "gpuadvisor: wrote " << TerminalSafe(o.out) << ": " << c->instance_types().size()
            << " instance types (" << current << " current), " << c->gpus().size()
            << " accelerator models, " << c->regions().size() << " regions, "
            << c->corrections.size() << " corrections\n";
  return kExitOk;
}

struct UpgradeOptions {
  std::string in;
  std::string out;
};

// Rewrites a catalog file of any schema version this binary reads in the current one.
int RunUpgrade(const UpgradeOptions& o) {
  Result<Catalog> c = LoadCatalogFile(o.in);
  if (!c.ok()) return Fail(c.status());
  Status st = WriteCatalogFile(*c, o.out);
  if (!st.ok()) return Fail(st);
  std::cerr << "gpuadvisor: wrote " << TerminalSafe(o.out) << ": " << kCatalogSchema << " (read "
            << TerminalSafe(c->schema) << ")\n";
  return kExitOk;
}

}  // namespace

void SetupCatalogImport(CLI::App* catalog, int* exit_code);  // cmd_catalog_import.cc

void SetupCatalog(CLI::App* app, int* exit_code) {
  app->require_subcommand(1);
  CLI::App* info = app->add_subcommand("info", "Sources, snapshot dates, counts and staleness");
  auto io = std::make_shared<InfoOptions>();
  AddCommonOptions(info, &io->common);
  info->footer(
      "Examples:\n  gpuadvisor catalog info\n  gpuadvisor catalog info --max-price-age 365 --json");
  info->callback([io, exit_code] { *exit_code = RunInfo(*io); });

  CLI::App* build = app->add_subcommand(
      "build", "Build a catalog file from the public-format sources listed in a manifest");
  auto bo = std::make_shared<BuildOptions>();
  build->add_option("--manifest", bo->manifest, "Source manifest (default data/sources.json)");
  build->add_option("--root", bo->root, "Directory the manifest's file paths are relative to");
  build->add_option("--out", bo->out, "Catalog file to write (atomically)")->required();
  build->add_option("--generated-at", bo->generated_at, "Build timestamp to record (default now)");
  CLI::App* upgrade = app->add_subcommand(
      "upgrade", "Rewrite a catalog file in the current schema (older versions are read as-is)");
  auto uo = std::make_shared<UpgradeOptions>();
  upgrade->add_option("--catalog", uo->in, "Catalog file to read")->required();
  upgrade->add_option("--out", uo->out, "Catalog file to write (atomically; may be the same)")
      ->required();
  upgrade->footer("Example:\n  gpuadvisor catalog upgrade --catalog old.json --out old.json");
  upgrade->callback([uo, exit_code] { *exit_code = RunUpgrade(*uo); });

  build->footer(
      "Example (regenerates the embedded catalog):\n"
      "  gpuadvisor catalog build --manifest data/sources.json --root ../shared/data --out "
      "data/catalog.json");
  build->callback([bo, exit_code] { *exit_code = RunBuild(*bo); });
  SetupCatalogImport(app, exit_code);
}

}  // namespace gpuadvisor::cli
