// `gpuadvisor catalog info|build`.
#include <ctime>
#include <iostream>

#include "cli/common.h"
#include "cli/progress.h"
#include "gpuadvisor/catalog_build.h"
#include "util/strings.h"

namespace gpuadvisor::cli {
namespace {

struct InfoOptions {
  CommonOptions common;
};

Table InfoTable(const ojson& info) {
  Table t;
  t.AddColumn("source");
  t.AddColumn("kind");
  t.AddColumn("snapshot");
  t.AddColumn("age days", true);
  t.AddColumn("figures used", true);
  t.AddColumn("stale");
  for (const auto& s : info["sources"]) {
    t.AddRow({s["id"].get<std::string>(), s["kind"].get<std::string>(),
              s["snapshot_date"].is_null() ? std::optional<std::string>("undated")
                                           : s["snapshot_date"].get<std::string>(),
              s["age_days"].is_null()
                  ? std::nullopt
                  : std::optional<std::string>(std::to_string(s["age_days"].get<int>())),
              std::to_string(s["figures_used"].get<int>()),
              s["stale"].is_null()
                  ? std::nullopt
                  : std::optional<std::string>(s["stale"].get<bool>() ? "STALE" : "ok")});
  }
  return t;
}

int RunInfo(const InfoOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  ojson info = CatalogInfoJson(*ctx->catalog, ctx->fresh);
  // One stale-price line, before the output (the per-source staleness is in the table).
  if (info["prices_stale"].get<bool>()) {
    Warn("the newest prices are dated " + info["newest_price_date"].get<std::string>() +
         ", older than " + std::to_string(ctx->fresh.max_price_age_days) +
         " days; refresh with `gpuadvisor catalog import`");
  }
  if (ctx->format == OutputFormat::kJson) {
    Emit(*ctx, [&] { return info; }, [] { return Table(); });
    return kExitOk;
  }
  const ojson& n = info["counts"];
  std::string head = "catalog " + info["schema"].get<std::string>() + ", built " +
                     info["generated_at"].get<std::string>() + "\n" +
                     std::to_string(n["instance_types"].get<int>()) + " instance types (" +
                     std::to_string(n["current"].get<int>()) + " current, " +
                     std::to_string(n["retired"].get<int>()) + " retired) in " +
                     std::to_string(n["families"].get<int>()) + " families; " +
                     std::to_string(n["accelerator_models"].get<int>()) + " accelerator models; " +
                     std::to_string(n["regions"].get<int>()) + " regions; " +
                     std::to_string(n["priced_type_regions"].get<int>()) +
                     " priced type-regions, " + std::to_string(n["spot_type_regions"].get<int>()) +
                     " with spot (" + std::to_string(n["spot_estimated"].get<int>()) +
                     " estimated from spot-advisor savings)\n\n";
  // The catalog's own strings (a file given with --catalog) go through PrintText.
  if (ctx->format == OutputFormat::kTable) PrintText(head);
  const std::string table = InfoTable(info).Render(ctx->format, ctx->color);
  std::fwrite(table.data(), 1, table.size(), stdout);
  if (ctx->format == OutputFormat::kTable) {
    std::string out = "\ncorrections:\n";
    for (const auto& k : info["corrections"]) {
      out += "  " + k["subject"].get<std::string>() + ": " + k["from"].get<std::string>() + " -> " +
             k["to"].get<std::string>() + " (" + k["reason"].get<std::string>() + ")\n";
    }
    out += "\nbuild rules:\n";
    for (const auto& note : info["notes"]) out += "  - " + note.get<std::string>() + "\n";
    PrintText(out);
  }
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
