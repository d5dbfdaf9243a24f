// Library-internal entry to the importer for inputs that are not files: `catalog update` hands
// it HTTP downloads as streams (a price-list body piped from the transfer as it arrives).
#ifndef GPUADVISOR_CATALOG_IMPORT_IMPORTER_H_
#define GPUADVISOR_CATALOG_IMPORT_IMPORTER_H_

#include <functional>
#include <memory>
#include <string>

#include "gpuadvisor/catalog_import.h"
#include "util/byte_stream.h"

namespace gpuadvisor::import {

// Opens the input named `path` in ImportInputs (a file, or whatever the caller's names mean).
using StreamOpener = std::function<Result<std::unique_ptr<ByteStream>>(const std::string& path)>;

// ImportIntoCatalog with each input opened by `open` instead of ByteStream::Open.
Status ImportIntoCatalogFrom(Catalog* catalog, const ImportInputs& inputs, ImportReport* report,
                             const StreamOpener& open);

}  // namespace gpuadvisor::import

#endif  // GPUADVISOR_CATALOG_IMPORT_IMPORTER_H_
