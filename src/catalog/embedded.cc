// Links data/catalog.json into the binary (GNU assembler .incbin), so the tool needs no files
// at run time. The path is passed by CMake; the object is rebuilt when the file changes.
#include <mutex>

#include "gpuadvisor/catalog.h"

#ifndef GPUADVISOR_CATALOG_JSON_PATH
#error "GPUADVISOR_CATALOG_JSON_PATH must name data/catalog.json"
#endif

__asm__(
    ".section .rodata\n"
    ".global gpuadvisor_embedded_catalog_begin\n"
    ".balign 16\n"
    "gpuadvisor_embedded_catalog_begin:\n"
    ".incbin \"" GPUADVISOR_CATALOG_JSON_PATH
    "\"\n"
    ".global gpuadvisor_embedded_catalog_end\n"
    "gpuadvisor_embedded_catalog_end:\n"
    ".byte 0\n"
    ".previous\n");

extern "C" const char gpuadvisor_embedded_catalog_begin[];
extern "C" const char gpuadvisor_embedded_catalog_end[];

namespace gpuadvisor {

Result<std::shared_ptr<const Catalog>> EmbeddedCatalog() {
  static std::once_flag once;
  static Result<std::shared_ptr<const Catalog>>* result = nullptr;
  std::call_once(once, [] {
    std::string_view text(
        gpuadvisor_embedded_catalog_begin,
        static_cast<size_t>(gpuadvisor_embedded_catalog_end - gpuadvisor_embedded_catalog_begin));
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
