// libFuzzer target: the idle inventory CSV (hostname,instance_type[,region][,purchase]), and an
// analysis priced with whatever it accepted.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "gpuadvisor/idle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  static const std::shared_ptr<const Catalog> catalog = *EmbeddedCatalog();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<std::vector<InventoryEntry>> inv = ParseInventoryCsv(*catalog, text, "fuzz.csv");
  if (!inv.ok() || inv->empty()) return 0;
  IdleAnalyzer analyzer(catalog, IdleOptions());
  TelemetrySample s;
  s.host = (*inv)[0].host;
  s.gpu_index = 0;
  s.gpu_name = "NVIDIA H100 80GB HBM3";
  for (int m = 0; m < 3; ++m) {
    s.time_s = 1782864000.0 + 60 * m;
    s.util_pct = 10.0 * m;
    (void)analyzer.Add(s);
  }
  (void)analyzer.Finish(*inv);
  return 0;
}
