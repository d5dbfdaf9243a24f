// Building a catalog from public-format sources (the `catalog build` command).
//
// A manifest (data/sources.json, schema in doc/formats.md) lists each source file with its
// format, kind, snapshot date and origin. BuildCatalog merges them into one Catalog:
//  - specs from DescribeInstanceTypes records; types only in a "retired" dump are retired;
//  - accelerator models joined to datasheet rows by AWS name and reported memory;
//  - per figure (type x region x price kind) the source with the newest snapshot date wins;
//    undated sources only fill gaps;
//  - spot: the lowest AZ price of the winning source, else on-demand x (1 - spot-advisor
//    savings), marked estimated;
//  - the project's accelerator figures fill datasheet gaps (a contradiction is a correction) and
//    grade each GpuSpec "published" or "derived";
//  - known source errors are corrected and listed in Catalog::corrections.
#ifndef GPUADVISOR_CATALOG_BUILD_H_
#define GPUADVISOR_CATALOG_BUILD_H_

#include <string>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/fields.h"

namespace gpuadvisor {

struct BuildInput {
  CatalogSource meta;  // id, name, kind, snapshot_date, origin, description
  std::string format;  // see doc/formats.md: "describe-instance-types-json", "gpu-specs-csv", ...
  std::string origin;  // file name for error messages
  std::string text;    // file contents
  // Price files ("ondemand-csv", "ondemand-reserved-csv"): the currency the prices are in (the
  // manifest's "currency", default USD; the price columns are spelled for it, "..._cny_..."),
  // per-row currency and date columns where the file has them, and "complete" (the file lists
  // every type sold in its regions, so it also says what is not offered there).
  Currency currency = Currency::kUsd;
  std::string currency_column, date_column;
  bool complete = false;
};

// Reads the manifest and every file it names (paths relative to `root`, or to the manifest's
// folder for a source with "relative_to": "manifest").
// Errors: IOError for unreadable files, ParseError naming the manifest field.
Result<std::vector<BuildInput>> LoadBuildManifest(const std::string& manifest_path,
                                                  const std::string& root);

// Merges the inputs. `generated_at` is stored as the build timestamp.
Result<Catalog> BuildCatalog(const std::vector<BuildInput>& inputs,
                             const std::string& generated_at);

// The catalog file a command writes, and the build time it records (fields.h).
inline FieldInfo CatalogOutInfo(std::string_view help) {
  return {.help = help, .local = true, .required = true, .metavar = "FILE", .nonempty = true};
}
inline FieldInfo GeneratedAtInfo() {
  return {.help = "Build timestamp to record (default now)", .metavar = "TIME"};
}

}  // namespace gpuadvisor

#endif  // GPUADVISOR_CATALOG_BUILD_H_
