// libFuzzer target: the catalog file reader (gpuadvisor-catalog/1 and /2) on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "gpuadvisor/catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpuadvisor::Result<gpuadvisor::Catalog> c = gpuadvisor::ParseCatalogJson(text, "fuzz.json");
  if (c.ok()) (void)gpuadvisor::CatalogToJson(*c);  // whatever parses must serialise
  return 0;
}
