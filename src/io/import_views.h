// JSON objects and tables for `catalog import` (the import report) and `catalog diff`.
#ifndef GPUADVISOR_IO_IMPORT_VIEWS_H_
#define GPUADVISOR_IO_IMPORT_VIEWS_H_

#include "gpuadvisor/catalog_import.h"
#include "io/catalog_views.h"

namespace gpuadvisor {

// The import report. Every count of changes (prices changed, types added and removed) is read
// from `diff` (DiffCatalogs of the catalogs before and after), the one source of truth that the
// diff table shows too; the report adds what only the import knows (figures set, kept, skipped).
ojson ImportReportJson(const ImportReport& r, const CatalogDiff& diff, const std::string& out);
Table ImportInputsTable(const ImportReport& r);
// The summary lines under the inputs table: "wrote PATH: ...", the changes vs the previous
// catalog (from `diff`), and one "skipped" line per input and reason.
std::string ImportSummaryText(const ImportReport& r, const CatalogDiff& diff,
                              const std::string& out);

ojson CatalogDiffJson(const CatalogDiff& d);
// One row per price change (added and removed types first, as rows without prices).
Table CatalogDiffTable(const CatalogDiff& d, size_t limit = 0);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_IMPORT_VIEWS_H_
