// Links data/catalog.json into the binary (GNU assembler .incbin), so the tool needs no files
// at run time. The path is passed by CMake; the object is rebuilt when the file changes.
#include <mutex>

#include "gpuadvisor/catalog.h"
#include "util/embed.h"

#ifndef GPUADVISOR_CATALOG_JSON_PATH
#error "GPUADVISOR_CATALOG_JSON_PATH must name data/catalog.json"
#endif

GPUADVISOR_EMBED(catalog, GPUADVISOR_CATALOG_JSON_PATH);

namespace gpuadvisor {

Result<std::shared_ptr<const Catalog>> EmbeddedCatalog() {
  static std::once_flag once;
  static Result<std::shared_ptr<const Catalog>>* result = nullptr;
  std::call_once(once, [] {
    const std::string_view text = GPUADVISOR_EMBEDDED(catalog);
    Result<Catalog> parsed = ParseCatalogJson(text, "<embedded catalog>");
    if (parsed.ok()) {
      result = new Result<std::shared_ptr<const Catalog>>(
          std::make_shared<const Catalog>(std::move(parsed).value()));
    } else {
      result = new Result<std::shared_ptr<const Catalog>>(parsed.status());
    }
  });
  return *result;
}

}  // namespace gpuadvisor
