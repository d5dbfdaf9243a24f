// JSON objects and tables for `catalog import` (the import report) and `catalog diff`.
#ifndef GPUADVISOR_IO_IMPORT_VIEWS_H_
#define GPUADVISOR_IO_IMPORT_VIEWS_H_

#include "gpuadvisor/catalog_import.h"
#include "io/catalog_views.h"

namespace gpuadvisor {

ojson ImportReportJson(const ImportReport& r, const CatalogDiff& diff, const std::string& out);
Table ImportInputsTable(const ImportReport& r);

ojson CatalogDiffJson(const CatalogDiff& d);
// One row per price change (added and removed types first, as rows without prices).
Table CatalogDiffTable(const CatalogDiff& d, size_t limit = 0);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_IMPORT_VIEWS_H_
